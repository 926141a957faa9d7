package hostside.learn.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.Stepper;
import hostside.learn.Steppers;

/**
 * Many stalled clients at once, as a red team ran them: each sends a request without its blank
 * line and connects again whenever the server closes it, while a reader fetches pages. What is
 * asserted is that every page came and how many exchanges the server holds, never how fast; every
 * wait is bounded.
 */
class LearnServerFloodTest {
    /** Far beyond every deadline the server keeps; only a server that never answers reaches it. */
    static final int GENEROUS_MS = 60_000;
    static final int PAGES = 20;

    private LearnServer server;
    private Stallers stallers;

    @AfterEach
    void stop() throws Exception {
        if (stallers != null) stallers.close();
        if (server != null) server.close();
    }

    @Test
    void fortyStallersThatReconnectLeaveAReaderEveryPage() throws Exception {
        server = LearnServer.start(site(Steppers.all()), 0);
        stallers = new Stallers(server.port(), 40);
        awaitTrue("40 stallers connected", () -> stallers.connects() >= 40);
        readPages();
    }

    @Test
    void pastTheBoundTheStalledAreCutOffAndAReaderStillGetsItsPages() throws Exception {
        int holding = ExchangePool.LEAST_HOLDING;
        server = LearnServer.start(site(Steppers.all()), 0, holding);
        // ten to a place: a reader's exchange cut off while it reads a request already here (the first
        // loads classes) would show as a page closed unanswered; fewer stallers rarely catch that
        stallers = new Stallers(server.port(), 10 * holding);
        awaitTrue("the stallers holding all " + holding + " exchanges", () -> server.exchangesAlive() == holding);
        AtomicInteger most = new AtomicInteger();
        Thread watch = Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    most.accumulateAndGet(server.exchangesAlive(), Math::max);
                    Thread.sleep(1);
                }
            } catch (InterruptedException e) {
                // the pages are read
            }
        });
        try {
            readPages();
        } finally {
            watch.interrupt();
            watch.join(GENEROUS_MS);
        }
        assertThat(most.get()).as("the most exchanges alive at once, bound " + holding).isLessThanOrEqualTo(holding);
    }

    @Test
    void closeEndsEveryExchangeInFlight() throws Exception {
        Held held = new Held();
        server = LearnServer.start(site(List.of(held)), 0);
        List<Socket> cut = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                Socket s = new Socket("127.0.0.1", server.port());
                cut.add(s);
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            // drawing, or waiting for a turn to draw: closing their connections alone would not end them
            for (int i = 0; i < 2 * ExchangePool.DRAWING; i++) readers.add(Thread.ofVirtual().start(() -> page("/module/3")));
            int inFlight = 10 + 2 * ExchangePool.DRAWING;
            awaitTrue(inFlight + " exchanges alive", () -> server.exchangesAlive() == inFlight);
            server.close();
            awaitTrue("every exchange ended after close()", () -> server.exchangesAlive() == 0);
        } finally {
            held.done.countDown();
            for (Thread t : readers) t.join(GENEROUS_MS);
            for (Socket s : cut) s.close();
        }
    }

    @Test
    void pagesAreDrawnFourAtATime() throws Exception {
        Held held = new Held();
        server = LearnServer.start(site(List.of(held)), 0);
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 3 * ExchangePool.DRAWING; i++) readers.add(Thread.ofVirtual().start(() -> page("/module/3")));
        awaitTrue("at least " + ExchangePool.DRAWING + " pages drawing", () -> held.drawing.get() >= ExchangePool.DRAWING);
        Thread.sleep(500); // not a measure: time for a fifth page to start drawing, were it let
        assertThat(held.most.get()).as("pages drawn at once").isEqualTo(ExchangePool.DRAWING);
        held.done.countDown();
        for (Thread t : readers) t.join(GENEROUS_MS);
    }

    /** A stepper whose drawing waits until the test lets it go (or its thread is interrupted), counting how many draw at once. */
    static final class Held implements Stepper {
        final AtomicInteger drawing = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(1);

        public String key() {
            return "held";
        }

        public int module() {
            return 3;
        }

        public String title() {
            return "A stepper that draws until it is let go";
        }

        public List<Frame> frames(Inputs in) {
            most.accumulateAndGet(drawing.incrementAndGet(), Math::max);
            try {
                done.await(2 * GENEROUS_MS, TimeUnit.MILLISECONDS); // past the test's own waits: only an interrupt ends it sooner
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                drawing.decrementAndGet();
            }
            throw new IllegalStateException("let go"); // a page of one line is page enough here
        }
    }

    private static Site site(List<Stepper> steppers) {
        return new Site(steppers, Inputs.typical(Map.of()), List.of(), "typical figures");
    }

    private void readPages() {
        List<String> paths = Site.paths();
        for (int i = 0; i < PAGES; i++) {
            assertThat(page(paths.get(i % paths.size()))).as("page %d of %d", i + 1, PAGES).startsWith("HTTP/1.1 200");
        }
    }

    private String page(String path) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()), GENEROUS_MS);
            s.setSoTimeout(GENEROUS_MS);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "no page: " + e;
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + GENEROUS_MS * 1_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < until) Thread.sleep(10);
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    /** Clients that send a request without its blank line and connect again whenever they are closed, until closed themselves. */
    static final class Stallers implements AutoCloseable {
        private final AtomicInteger connects = new AtomicInteger();
        private final Set<Socket> open = ConcurrentHashMap.newKeySet();
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stopped;

        Stallers(int port, int count) {
            for (int i = 0; i < count; i++) threads.add(Thread.ofVirtual().start(() -> stall(port)));
        }

        int connects() {
            return connects.get();
        }

        private void stall(int port) {
            while (!stopped) {
                try (Socket s = new Socket()) {
                    open.add(s);
                    s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                    connects.incrementAndGet();
                    s.setSoTimeout(200); // to see stopped now and then
                    s.getOutputStream().write("GET /module/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
                    InputStream in = s.getInputStream();
                    while (!stopped && readsOn(in)) {
                        // stalled: waiting to be closed
                    }
                } catch (IOException e) {
                    // closed, reset or refused: connect again
                } finally {
                    open.removeIf(Socket::isClosed);
                }
            }
        }

        private static boolean readsOn(InputStream in) throws IOException {
            try {
                return in.read(new byte[1024]) >= 0;
            } catch (SocketTimeoutException e) {
                return true;
            }
        }

        @Override
        public void close() throws Exception {
            stopped = true;
            for (Socket s : open) s.close();
            for (Thread t : threads) t.join(GENEROUS_MS);
        }
    }
}
