package hostside.memory;

import java.util.concurrent.Phaser;
import java.util.function.IntConsumer;

import hostside.core.CpuSet;
import hostside.libc.Sched;

/**
 * One platform thread pinned to each CPU of a set, running one piece of work each, all at once:
 * an OpenMP parallel region with a static schedule, as STREAM runs its kernels. The caller's own
 * thread is never pinned (its affinity is the caller's business); it releases the team and waits.
 * A run's time is the caller's, from release to the last member's end, as STREAM times the whole
 * parallel region.
 */
final class Team implements AutoCloseable {
    private final int[] cpus;
    private final Thread[] members;
    /** Two phases a run: start (the caller and every member arrive), end (the same). */
    private final Phaser phaser;
    private volatile IntConsumer work;
    private volatile boolean closing;
    private volatile Throwable failure;

    Team(CpuSet set) {
        cpus = set.stream().toArray();
        if (cpus.length == 0) throw new IllegalArgumentException("a team of no CPU");
        phaser = new Phaser(cpus.length + 1);
        members = new Thread[cpus.length];
        for (int i = 0; i < cpus.length; i++) {
            int member = i;
            members[i] = Thread.ofPlatform().daemon().name("hostside-memory-" + cpus[i]).start(() -> loop(member));
        }
    }

    int size() {
        return cpus.length;
    }

    /** The CPUs of the members. */
    CpuSet cpus() {
        return CpuSet.of(cpus);
    }

    /** The CPU of member {@code i}. */
    int cpu(int i) {
        return cpus[i];
    }

    private void loop(int member) {
        try {
            Sched.pin(cpus[member]);
        } catch (RuntimeException e) {
            failure = e;
        }
        while (true) {
            phaser.arriveAndAwaitAdvance();
            if (closing) {
                phaser.arriveAndDeregister();
                return;
            }
            try {
                if (failure == null) work.accept(member);
            } catch (Throwable t) {
                failure = t;
            }
            phaser.arriveAndAwaitAdvance();
        }
    }

    /** Runs {@code w} on every member at once (member i gets i); the nanoseconds from release to the last end. */
    long run(IntConsumer w) {
        work = w;
        long t0 = System.nanoTime();
        phaser.arriveAndAwaitAdvance();
        phaser.arriveAndAwaitAdvance();
        long t1 = System.nanoTime();
        Throwable f = failure;
        if (f != null) {
            if (f instanceof RuntimeException r) throw r;
            throw new IllegalStateException(f);
        }
        return t1 - t0;
    }

    /** The static schedule: member {@code i} of {@code n} gets elements [from, to) of {@code count}, as OpenMP's schedule(static). */
    static long from(long count, int i, int n) {
        return count * i / n;
    }

    @Override
    public void close() {
        if (closing) return;
        closing = true;
        phaser.arriveAndDeregister();
        for (Thread t : members) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
