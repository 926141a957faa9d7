package hostside.learn.web;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.sun.net.httpserver.Filter;

/**
 * The threads that run the learn server's exchanges, the deadlines that keep a stalled client from
 * holding one, and the bounds on how many are alive and drawing at once.
 *
 * <p>How the JDK's server (sun.net.httpserver, read in JDK 25's sources) works: one dispatcher
 * thread accepts connections and waits on a selector; once a connection has a byte to read it hands
 * the whole exchange to the executor, which reads the request line and headers, runs the handler
 * and writes the response, all with blocking reads and writes on the connection's channel. With no
 * executor the dispatcher runs the exchange itself, so one request cut off before its blank line
 * stalled every client for good. With 4 platform threads and 32 exchanges queued for them, as this
 * class had before, a few stallers still took them all: clients that send a request without its
 * blank line and connect again when closed, 4 of them made a reader wait 4.6 to 4.9 s for each
 * page, and 40 left it 0 pages of 20, every connection reset at once (measured with Temurin 25 on
 * a dev VM of 2 shared cores, as are the figures below).
 *
 * <p>So each exchange runs on a virtual thread of its own: a read that blocks parks it, and a
 * stalled client holds a socket and about 32 KiB of heap (250 stalled requests took 8.3 MB after a
 * full GC, the JDK's buffers of 8 KiB each way most of it), not a thread that a reader waits for.
 * Each exchange has a deadline; when it passes, its thread is interrupted, which closes the
 * connection's channel (a blocking NIO channel is interruptible, on a virtual thread as on a
 * platform one) and ends the exchange in an IOException, on which the JDK closes the connection.
 * With 40, 200 or 1000 such stallers a reader got all its 40 pages, with a 12 MiB heap or 512 MiB,
 * each in 1.5 s at most.
 *
 * <ul>
 * <li>The request: {@link #HEADERS} (5 s) from its first byte (when the dispatcher hands it over
 * and its thread starts) to its blank line. A browser sends its request line and headers in one
 * write, on loopback they are here within a millisecond. No reader waits behind a stalled request,
 * so a shorter deadline would buy a reader nothing; it would only bring back sooner the stallers
 * that reconnect when closed.
 * <li>The response: {@link #RESPONSE} (10 s) from the handler's start to the last byte written,
 * which covers waiting for a turn to draw, drawing the page (the heaviest, Module 5, took 1.5 s
 * cold on a loaded 2-core machine), writing up to 150 KB to a browser on the same machine
 * (milliseconds) and draining a body nobody asked for. A client that stops reading its answers
 * holds its exchange no longer.
 * <li>At most {@link #holding} exchanges are alive at once, each from its first byte to its
 * thread's end: {@link #MOST_HOLDING} (1024, 34 MiB), fewer where the heap is small, so that they
 * take a sixteenth of it at most (a 64 MiB cgroup leaves the launcher a 12 MiB heap, which 360
 * stalled requests would fill). When one more arrives, the exchange handed over first of those
 * whose thread is parked reading its request is cut off to make room: a reader's request is whole
 * in one write and read without parking, a staller's never is, so stallers past the bound turn
 * over among themselves and a reader still gets in. Cutting off the first whose thread has merely
 * run would cut off readers too, halfway through a request already here (the first request loads
 * classes): tried with a 12 MiB heap and 200 stallers, a reader got 30 pages of 40, the others
 * closed unanswered. While none can be cut off, or the one cut off has not ended, the dispatcher
 * waits for room, {@link #ROOM} at most, and new connections wait in the kernel's queue ({@link
 * LearnServer#QUEUED}); only then is one closed at once.
 * <li>{@link #DRAWING} (4) pages are drawn at once, the others wait for a turn: a reader's browser
 * fetches one self-contained page at a time; four let a reload or a few tabs overlap and bound the
 * CPU that drawing takes on a node doing real work, as the 4 threads did (virtual threads run on a
 * carrier per core, and a client could otherwise have every core draw).
 * <li>Connections that send nothing, and idle keep-alive connections, hold no thread: they wait in
 * the dispatcher's selector until the JDK's idle timer closes them, 30 to 40 s after their last
 * byte (its defaults, sun.net.httpserver.idleInterval 30 s checked every clockTick 10 s).
 * </ul>
 *
 * <p>Why not the JDK's own knobs (sun.net.httpserver.maxReqTime, maxRspTime, idleInterval,
 * jdk.httpserver.maxConnections): they are system properties read once, into static finals, when
 * the first HttpServer of the JVM is made. Set from here they would change every other server in
 * the process, and do nothing at all if one was made first. And maxConnections refuses the newest
 * connection, the reader's, when stallers hold them all.
 */
final class ExchangePool implements Executor, AutoCloseable {
    static final int MOST_HOLDING = 1024;
    static final int LEAST_HOLDING = 16;
    /** The heap one exchange stalled in its request holds, rounded up: 250 of them took 8.3 MB after a full GC, 500 took 16.2 MB. */
    static final long EXCHANGE_BYTES = 34 << 10;
    static final int DRAWING = 4;
    static final Duration HEADERS = Duration.ofSeconds(5);
    static final Duration RESPONSE = Duration.ofSeconds(10);
    /** The most the dispatcher waits for room for an exchange before it closes the new connection instead. */
    static final Duration ROOM = Duration.ofSeconds(1);
    /** While no exchange can be cut off, how soon the dispatcher looks again. */
    static final Duration LOOK_AGAIN = Duration.ofMillis(10);
    /** Every thread of the pool is named with this prefix: learn-http-1, -2, ... (virtual) and learn-http-deadlines. */
    static final String THREAD_NAME = "learn-http-";

    /** Where an exchange is: which deadline applies to it. DONE: ended, or cut off and ending. */
    enum Phase {
        REQUEST, RESPONSE, DONE
    }

    private static final ScopedValue<Exchange> CURRENT = ScopedValue.newInstance();

    private final int holding;
    private final ThreadFactory threads = Thread.ofVirtual().name(THREAD_NAME, 1).factory();
    private final ScheduledThreadPoolExecutor clock = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().name(THREAD_NAME + "deadlines").factory());
    private final Semaphore drawing = new Semaphore(DRAWING);
    /** Guards every exchange's phase and alarm, alive and closed; notified when an exchange's thread ends, and on close. */
    private final Object lock = new Object();
    /** Exchanges whose thread has not ended, in the order they were handed over, at most {@link #holding}: one cut off counts until its thread ends. */
    private final Set<Exchange> alive = new LinkedHashSet<>();
    private boolean closed;

    /** At most {@code holding} exchanges at once. */
    ExchangePool(int holding) {
        this.holding = holding;
        clock.setRemoveOnCancelPolicy(true); // a met deadline leaves nothing queued behind it
    }

    /** The bound for a heap of {@code maxHeap} bytes (Runtime.maxMemory()): exchanges stalled in their requests take a sixteenth of it at most. */
    static int holdingFor(long maxHeap) {
        return Math.clamp(maxHeap / 16 / EXCHANGE_BYTES, LEAST_HOLDING, MOST_HOLDING);
    }

    /** Exchanges whose thread has not ended yet. */
    int alive() {
        synchronized (lock) {
            return alive.size();
        }
    }

    /**
     * Called by the dispatcher when a request's first byte is here. When it throws, the JDK closes
     * the connection: on close, or when no room was made within {@link #ROOM}.
     */
    @Override
    public void execute(Runnable exchange) {
        synchronized (lock) {
            awaitRoom();
            Exchange x = new Exchange(exchange);
            x.enter(Phase.REQUEST, HEADERS);
            alive.add(x);
            try {
                x.thread.start();
            } catch (RuntimeException | Error e) { // no thread, so nothing else would give its room back
                x.end();
                alive.remove(x);
                throw e;
            }
        }
    }

    /**
     * Under the lock: while {@link #holding} exchanges are alive, cuts off one stalled in its
     * request (once there is one) and waits, {@link #ROOM} at most, for a thread to end. Meanwhile
     * new connections wait in the kernel's queue, so clients that reconnect as fast as they are cut
     * off are slowed to the pace the server keeps.
     */
    private void awaitRoom() {
        long until = System.nanoTime() + ROOM.toNanos();
        boolean cut = false;
        while (!closed && alive.size() >= holding) {
            if (!cut) cut = cutOffOneStalled();
            long left = until - System.nanoTime();
            if (left <= 0) throw new RejectedExecutionException("no room for an exchange within " + ROOM);
            try {
                // a thread that parks in its read tells no one: while none can be cut off, look again soon
                TimeUnit.NANOSECONDS.timedWait(lock, cut ? left : Math.min(left, LOOK_AGAIN.toNanos()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RejectedExecutionException("interrupted", e);
            }
        }
        if (closed) throw new RejectedExecutionException("the learn server is stopping");
    }

    /**
     * Under the lock: cuts off the exchange handed over first of those whose thread is parked
     * reading its request, waiting for bytes that have not come. A reader's request is whole in
     * one write, so its thread reads it without parking; one not yet run, or loading classes or
     * descheduled halfway through a request already here, is RUNNABLE, and left alone.
     */
    private boolean cutOffOneStalled() {
        for (Exchange x : alive) {
            Thread.State state = x.thread.getState();
            if (x.phase == Phase.REQUEST && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)) {
                x.cutOff();
                return true;
            }
        }
        return false;
    }

    /** Put before the handler: the request is read, the response's deadline starts. */
    Filter responseDeadline() {
        return Filter.beforeHandler("the response's deadline", x -> {
            if (!CURRENT.isBound()) return;
            Exchange e = CURRENT.get();
            synchronized (lock) {
                if (e.phase == Phase.REQUEST) e.enter(Phase.RESPONSE, RESPONSE);
            }
        });
    }

    /** What {@code draw} returns, drawn on one of {@link #DRAWING} turns; when the exchange is cut off while it waits for one, an IOException. */
    <T> T drawn(Supplier<T> draw) throws InterruptedIOException {
        try {
            drawing.acquire();
        } catch (InterruptedException e) {
            throw new InterruptedIOException("cut off while waiting for a turn to draw");
        }
        try {
            return draw.get();
        } finally {
            drawing.release();
        }
    }

    /** Cuts off every exchange (their threads end as their channels close) and refuses new ones. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            for (Exchange x : alive) x.cutOff();
            lock.notifyAll();
        }
        clock.shutdownNow();
    }

    /** One exchange on its own thread: its phase, and the alarm that cuts it off if the phase outlives its deadline. All under the lock. */
    private final class Exchange {
        final Thread thread;
        Phase phase;
        private ScheduledFuture<?> alarm;

        Exchange(Runnable exchange) {
            thread = threads.newThread(() -> run(exchange));
        }

        private void run(Runnable exchange) {
            try {
                ScopedValue.where(CURRENT, this).run(exchange);
            } finally {
                synchronized (lock) {
                    end();
                    alive.remove(this);
                    lock.notifyAll();
                }
            }
        }

        void enter(Phase next, Duration in) {
            if (alarm != null) alarm.cancel(false);
            phase = next;
            alarm = clock.schedule(() -> ring(next), in.toNanos(), TimeUnit.NANOSECONDS);
        }

        private void ring(Phase set) {
            synchronized (lock) {
                if (phase == set) cutOff();
            }
        }

        /** The interrupt closes the channel the exchange reads or writes, now or at its next read or write. */
        void cutOff() {
            if (phase == Phase.DONE) return;
            end();
            thread.interrupt();
        }

        /** Idempotent: a phase ends once, whether by its thread's end, a deadline, eviction or close. */
        void end() {
            phase = Phase.DONE;
            if (alarm != null) alarm.cancel(false);
        }
    }
}
