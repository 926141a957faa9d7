package hostside.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler-facing calls of Module 3's measurements: affinity, the CPU a thread is on,
 * futex wait and wake, a trivial syscall, an absolute-time sleep. These run inside timed loops,
 * so each is a handle called with invokeExact (no boxing, no per-call allocation), and only
 * setup calls check errno.
 * <p>
 * The timed calls are made to cost what the same call costs a C caller. Calls that cannot block
 * (getppid, gettid, labs) are linked {@link Linker.Option#critical critical}: the thread stays in
 * the Java state, so the downcall skips the two thread-state transitions (and the fence between
 * them) that an ordinary downcall pays so that a safepoint need not wait for native code; a
 * safepoint waits at most one such call. The futex calls take the word's address as a number:
 * a segment argument makes every downcall acquire and release its arena (two compare-and-swaps
 * on one counter, which the two threads of a ping-pong bounce between their CPUs).
 */
public final class Sched {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));
    /** Syscall numbers differ: x86-64 has its own table, aarch64 the generic one. */
    static final long SYS_FUTEX = ARM ? 98 : 202, SYS_GETPPID = ARM ? 173 : 110, SYS_GETTID = ARM ? 178 : 186;
    static final int FUTEX_WAIT_PRIVATE = 128, FUTEX_WAKE_PRIVATE = 129;
    static final int CLOCK_MONOTONIC = 1, TIMER_ABSTIME = 1;
    /** Room for 8192 CPUs in an affinity mask. */
    static final int MASK_BYTES = 1024;

    /** syscall(2) with no argument: getppid and gettid, which never block. */
    private static final MethodHandle SYSCALL0 = handle("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), Linker.Option.critical(false));
    /** futex(2) by syscall(2), the word's address as a number; not critical, as FUTEX_WAIT sleeps. */
    private static final MethodHandle SYSCALL_FUTEX = handle("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT), Linker.Option.firstVariadicArg(1));
    private static final MethodHandle GETCPU = handle("sched_getcpu", FunctionDescriptor.of(JAVA_INT));
    /** Linked as getppid is, so that it costs what the call itself costs there. */
    private static final MethodHandle ABS = handle("labs", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), Linker.Option.critical(false));
    private static final MethodHandle NANOSLEEP = handle("clock_nanosleep", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle PRCTL = LINKER.downcallHandle(LINKER.defaultLookup().find("prctl").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), Linker.Option.firstVariadicArg(1));
    static final int PR_GET_TIMERSLACK = 30;
    private static final MethodHandle SETAFFINITY = LINKER.downcallHandle(LINKER.defaultLookup().find("sched_setaffinity").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.captureCallState("errno"));
    private static final MethodHandle GETAFFINITY = LINKER.downcallHandle(LINKER.defaultLookup().find("sched_getaffinity").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.captureCallState("errno"));

    private Sched() {}

    private static MethodHandle handle(String name, FunctionDescriptor d, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(() -> new LibcException(name + ": not in this libc")), d, options);
    }

    /** getppid(2) by number: a syscall that does nothing (no vDSO, no cache), for the cost of entering the kernel; the call is a C caller's (critical). */
    public static long getppid() {
        try {
            return (long) SYSCALL0.invokeExact(SYS_GETPPID);
        } catch (Throwable t) {
            throw new LibcException("getppid: " + t);
        }
    }

    /** labs(3): a native call that never enters the kernel, to subtract the cost of the call itself. */
    public static long nativeNoop(long x) {
        try {
            return (long) ABS.invokeExact(x);
        } catch (Throwable t) {
            throw new LibcException("labs: " + t);
        }
    }

    public static int tid() {
        try {
            return (int) (long) SYSCALL0.invokeExact(SYS_GETTID);
        } catch (Throwable t) {
            throw new LibcException("gettid: " + t);
        }
    }

    /**
     * The calling thread's timer slack (prctl PR_GET_TIMERSLACK): how late the kernel may fire
     * its timers to batch wake-ups; 50 us by default for normal threads, 0 for real-time ones.
     */
    public static long timerSlackNs() {
        try {
            return (int) PRCTL.invokeExact(PR_GET_TIMERSLACK, 0L);
        } catch (Throwable t) {
            throw new LibcException("prctl(PR_GET_TIMERSLACK): " + t);
        }
    }

    /** The CPU this thread runs on now. */
    public static int cpu() {
        try {
            return (int) GETCPU.invokeExact();
        } catch (Throwable t) {
            throw new LibcException("sched_getcpu: " + t);
        }
    }

    /** Pins the calling thread to {@code cpus} (sched_setaffinity on its own tid). */
    public static void pin(List<Integer> cpus) {
        pin(0, cpus);
    }

    /** Pins thread or process {@code tid} (0: the calling thread) to {@code cpus}. */
    public static void pin(long tid, List<Integer> cpus) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(MASK_BYTES);
            for (int c : cpus) {
                if (c < 0 || c >= MASK_BYTES * 8) throw new LibcException("sched_setaffinity: CPU " + c + " out of range");
                long word = c / 64;
                mask.set(JAVA_LONG, word * 8, mask.get(JAVA_LONG, word * 8) | (1L << (c % 64)));
            }
            MemorySegment state = a.allocate(Linker.Option.captureStateLayout());
            int r = (int) SETAFFINITY.invokeExact(state, (int) tid, (long) MASK_BYTES, mask);
            if (r != 0) {
                int errno = state.get(JAVA_INT, Linker.Option.captureStateLayout().byteOffset(
                        java.lang.foreign.MemoryLayout.PathElement.groupElement("errno")));
                throw new LibcException("sched_setaffinity(" + cpus + "): " + Errno.describe(errno), errno);
            }
        } catch (LibcException e) {
            throw e;
        } catch (Throwable t) {
            throw new LibcException("sched_setaffinity: " + t);
        }
    }

    public static void pin(int cpu) {
        pin(List.of(cpu));
    }

    /** The CPUs the calling thread may run on. */
    public static List<Integer> affinity() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(MASK_BYTES);
            MemorySegment state = a.allocate(Linker.Option.captureStateLayout());
            int r = (int) GETAFFINITY.invokeExact(state, 0, (long) MASK_BYTES, mask);
            if (r != 0) throw new LibcException("sched_getaffinity failed");
            List<Integer> cpus = new ArrayList<>();
            for (int w = 0; w < MASK_BYTES / 8; w++) {
                long bits = mask.get(JAVA_LONG, w * 8L);
                while (bits != 0) {
                    int b = Long.numberOfTrailingZeros(bits);
                    cpus.add(w * 64 + b);
                    bits &= bits - 1;
                }
            }
            return cpus;
        } catch (LibcException e) {
            throw e;
        } catch (Throwable t) {
            throw new LibcException("sched_getaffinity: " + t);
        }
    }

    /**
     * Sleeps while the 32-bit word at {@code word} still holds {@code expected} (FUTEX_WAIT_PRIVATE).
     * The caller keeps the word's arena open until every thread that waits on it or wakes it is done.
     */
    public static void futexWait(MemorySegment word, int expected) {
        try {
            long ignored = (long) SYSCALL_FUTEX.invokeExact(SYS_FUTEX, address(word), FUTEX_WAIT_PRIVATE, expected, 0L, 0L, 0);
            // -1 with EAGAIN (the word changed) or EINTR is normal: the caller re-checks the word
        } catch (Throwable t) {
            throw new LibcException("futex wait: " + t);
        }
    }

    /** Wakes up to {@code n} waiters on {@code word}; returns how many woke. */
    public static int futexWake(MemorySegment word, int n) {
        try {
            return (int) (long) SYSCALL_FUTEX.invokeExact(SYS_FUTEX, address(word), FUTEX_WAKE_PRIVATE, n, 0L, 0L, 0);
        } catch (Throwable t) {
            throw new LibcException("futex wake: " + t);
        }
    }

    /** A futex word's address; only off-heap memory has one the kernel can use. */
    static long address(MemorySegment word) {
        if (!word.isNative()) throw new IllegalArgumentException("a futex word must be off-heap memory");
        return word.address();
    }

    /**
     * Sleeps until CLOCK_MONOTONIC reads {@code deadlineNs} (System.nanoTime is that clock on
     * Linux), cyclictest's way: an absolute deadline does not drift with the time spent awake.
     */
    public static void sleepUntil(long deadlineNs, MemorySegment timespec) {
        timespec.set(JAVA_LONG, 0, deadlineNs / 1_000_000_000L);
        timespec.set(JAVA_LONG, 8, deadlineNs % 1_000_000_000L);
        try {
            int r;
            do {
                r = (int) NANOSLEEP.invokeExact(CLOCK_MONOTONIC, TIMER_ABSTIME, timespec, MemorySegment.NULL);
            } while (r == Libc.EINTR);
        } catch (Throwable t) {
            throw new LibcException("clock_nanosleep: " + t);
        }
    }
}
