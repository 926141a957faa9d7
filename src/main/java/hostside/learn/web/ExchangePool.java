package hostside.learn.web;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.Filter;

/**
 * The threads that run the learn server's exchanges, and the deadlines that keep a stalled client
 * from holding one.
 *
 * <p>How the JDK's server (sun.net.httpserver, read in JDK 25's sources) works: one dispatcher
 * thread accepts connections and waits on a selector; once a connection has a byte to read it hands
 * the whole exchange to the executor, which reads the request line and headers, runs the handler
 * and writes the response, all with blocking reads and writes. With no executor the dispatcher runs
 * the exchange itself, so one request cut off before its blank line stalled every client for good.
 * Here {@link #THREADS} threads run exchanges and each exchange has a deadline; when it passes, the
 * thread is interrupted, which closes the connection's channel (a blocking NIO channel is
 * interruptible) and ends the exchange in an IOException, on which the JDK closes the connection.
 *
 * <ul>
 * <li>The request: {@link #HEADERS} (5 s) from its first byte (when the dispatcher hands it over)
 * to its blank line. A browser sends its request line and headers in one write, on loopback they
 * are here within a millisecond; 5 s is far beyond that, and is the most a stalled client costs a
 * reader. A request that waited for a thread behind stalled ones gets at least {@link #LATE_START}
 * (1 s) once a thread takes it up: its bytes are already here and read in microseconds, and
 * stalled requests queued behind each other are dropped a second apiece, not five.
 * <li>The response: {@link #RESPONSE} (10 s) from the handler's start to the last byte written,
 * which covers drawing the page (the heaviest, Module 5, took 1.5 s cold on a loaded 2-core
 * machine), writing up to 150 KB to a browser on the same machine (milliseconds) and draining a
 * body nobody asked for. A client that stops reading its answers holds a thread no longer.
 * <li>{@link #THREADS} (4): a reader's browser fetches one self-contained page at a time; four let
 * a reload or a few tabs overlap and bound the CPU that drawing pages takes on a node doing real
 * work. {@link #WAITING} (32) exchanges wait for a thread beyond those; past that the JDK closes
 * the connection at once rather than queueing it behind stalled ones.
 * <li>Connections that send nothing, and idle keep-alive connections, hold no thread: they wait in
 * the dispatcher's selector until the JDK's idle timer closes them, 30 to 40 s after their last
 * byte (its defaults, sun.net.httpserver.idleInterval 30 s checked every clockTick 10 s).
 * </ul>
 *
 * <p>Why not the JDK's own knobs (sun.net.httpserver.maxReqTime, maxRspTime, idleInterval): they are
 * system properties read once, into static finals, when the first HttpServer of the JVM is made.
 * Set from here they would change every other server in the process, and do nothing at all if one
 * was made first. And maxReqTime's clock starts when the dispatcher hands a request over, not when
 * a thread takes it up, so a reader queued behind stalled clients would be closed with them.
 */
final class ExchangePool implements Executor, AutoCloseable {
    static final int THREADS = 4;
    static final int WAITING = 32;
    static final Duration HEADERS = Duration.ofSeconds(5);
    static final Duration LATE_START = Duration.ofSeconds(1);
    static final Duration RESPONSE = Duration.ofSeconds(10);
    /** Every thread of the pool is named with this prefix: learn-http-1 to -4 and learn-http-deadlines. */
    static final String THREAD_NAME = "learn-http-";

    /** Where an exchange is: which deadline applies to it. */
    enum Phase {
        REQUEST, RESPONSE, DONE
    }

    private final ThreadPoolExecutor threads = new ThreadPoolExecutor(THREADS, THREADS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(WAITING),
            Thread.ofPlatform().daemon().name(THREAD_NAME, 1).factory());
    private final ScheduledThreadPoolExecutor clock = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().name(THREAD_NAME + "deadlines").factory());
    private final ThreadLocal<Deadline> running = new ThreadLocal<>();

    ExchangePool() {
        clock.setRemoveOnCancelPolicy(true); // a met deadline leaves nothing queued behind it
    }

    /** Called by the dispatcher when a request's first byte is here; past {@link #WAITING} queued, it throws and the JDK closes the connection. */
    @Override
    public void execute(Runnable exchange) {
        long handedOver = System.nanoTime();
        threads.execute(() -> run(exchange, handedOver));
    }

    /** Put before the handler: the request is read, the response's deadline starts. */
    Filter responseDeadline() {
        return Filter.beforeHandler("the response's deadline", x -> {
            Deadline d = running.get();
            if (d != null) d.enter(Phase.RESPONSE, RESPONSE.toNanos());
        });
    }

    private void run(Runnable exchange, long handedOver) {
        Deadline d = new Deadline(Thread.currentThread());
        long now = System.nanoTime();
        d.enter(Phase.REQUEST, Math.max(handedOver + HEADERS.toNanos() - now, LATE_START.toNanos()));
        running.set(d);
        try {
            exchange.run();
        } finally {
            running.remove();
            d.enter(Phase.DONE, 0);
            Thread.interrupted(); // an alarm that rang as this exchange ended is not the next one's
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
        clock.shutdownNow();
    }

    /** One exchange's deadline: the thread running it is interrupted if the phase is still the one the alarm was set for. */
    private final class Deadline {
        private final Thread thread;
        private Phase phase;
        private ScheduledFuture<?> alarm;

        Deadline(Thread thread) {
            this.thread = thread;
        }

        synchronized void enter(Phase next, long inNanos) {
            if (alarm != null) alarm.cancel(false);
            phase = next;
            alarm = next == Phase.DONE ? null : clock.schedule(() -> ring(next), inNanos, TimeUnit.NANOSECONDS);
        }

        private synchronized void ring(Phase set) {
            if (phase == set) thread.interrupt();
        }
    }
}
