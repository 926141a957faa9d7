package hostside.memory;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

import hostside.core.CpuSet;
import hostside.libc.Sched;

/**
 * One platform thread pinned to each CPU of a set, running one piece of work each, all at once:
 * an OpenMP parallel region with a static schedule, as STREAM runs its kernels. The caller's own
 * thread is never pinned (its affinity is the caller's business); it releases the team and waits.
 * A run's time is from the release to the last member's end, as STREAM times the whole parallel
 * region.
 *
 * <p>Members wait for the next run spinning, as libgomp's threads do at the end of a region
 * (GOMP_SPINCOUNT), and park only after {@link #SPIN_NANOS} without one: a parked thread takes a
 * futex wake-up and, in a VM, an interrupt to a halted vCPU before it starts, handed out one
 * member after another, and all of it lands inside the timed pass. A Phaser (which parks) cost 33 us
 * a run with two members on the dev VM, this team 2.8 us; that is under 1% of a pass over STREAM's
 * arrays there, but the wake-ups grow with the members while a pass over a big host's memory
 * shrinks. The end is timed by the last member to finish, not by the caller, which parks meanwhile
 * (it is not pinned and would take a CPU from a member if it spun) and may wake late.
 */
final class Team implements AutoCloseable {
    /** How long an idle member spins for the next run before it parks. */
    static final long SPIN_NANOS = 10_000_000L;

    private final int[] cpus;
    private final Thread[] members;
    /** Bumped by the caller to release a run (only the caller writes it). */
    private volatile long generation;
    /** Members still working on the current run; the one that brings it to 0 times the end. */
    private final AtomicInteger remaining = new AtomicInteger();
    /** 1 where a member has parked (or is about to): the caller unparks those after a release. */
    private final AtomicIntegerArray parked;
    private volatile long endNanos;
    /** The generation whose run has ended: written by its last member after {@link #endNanos}. */
    private volatile long ended;
    private volatile Thread caller;
    private volatile IntConsumer work;
    private volatile boolean closing;
    private volatile Throwable failure;

    Team(CpuSet set) {
        cpus = set.stream().toArray();
        if (cpus.length == 0) throw new IllegalArgumentException("a team of no CPU");
        parked = new AtomicIntegerArray(cpus.length);
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
        long seen = 0;
        while (true) {
            seen = awaitRelease(member, seen);
            if (closing) return;
            try {
                if (failure == null) work.accept(member);
            } catch (Throwable t) {
                failure = t;
            }
            if (remaining.decrementAndGet() == 0) {
                endNanos = System.nanoTime();
                ended = seen;
                LockSupport.unpark(caller);
            }
        }
    }

    /** Spins until the generation moves past {@code seen}, parking after {@link #SPIN_NANOS}; the new generation. */
    private long awaitRelease(int member, long seen) {
        long g = generation;
        if (g != seen) return g;
        long start = System.nanoTime();
        for (int spins = 1; (g = generation) == seen; spins++) {
            Thread.onSpinWait();
            if ((spins & 1023) == 0 && System.nanoTime() - start > SPIN_NANOS) {
                // Dekker with run(): the flag is set before the generation is read again, and the
                // caller reads the flags after it bumps the generation, so one of the two sees the other
                parked.set(member, 1);
                while ((g = generation) == seen) LockSupport.park(this);
                parked.set(member, 0);
                return g;
            }
        }
        return g;
    }

    /** Releases the members into the next generation; that generation. */
    private long release() {
        long g = generation + 1;
        generation = g;
        for (int i = 0; i < members.length; i++) {
            if (parked.get(i) == 1) LockSupport.unpark(members[i]);
        }
        return g;
    }

    /** Runs {@code w} on every member at once (member i gets i); the nanoseconds from release to the last end. */
    long run(IntConsumer w) {
        if (closing) throw new IllegalStateException("the team is closed");
        work = w;
        caller = Thread.currentThread();
        remaining.set(members.length);
        long t0 = System.nanoTime();
        long g = release();
        while (ended != g) LockSupport.park(this);
        long t1 = endNanos;
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
        release();
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
