package hostside.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The few libc calls the drills need, through java.lang.foreign: mmap, madvise, mincore,
 * posix_fadvise, getrusage, sysconf, open/read/close. Linux x86-64 and aarch64 (LP64): long and
 * size_t are 64 bits, int 32. Calls that set errno capture it, and failure is a
 * {@link LibcException} naming the call and the error, so a drill can say what went wrong.
 */
public final class Libc {
    public static final int PROT_READ = 1, PROT_WRITE = 2;
    public static final int MAP_SHARED = 0x01, MAP_PRIVATE = 0x02, MAP_ANONYMOUS = 0x20, MAP_POPULATE = 0x8000;
    public static final int MADV_RANDOM = 1, MADV_SEQUENTIAL = 2, MADV_DONTNEED = 4, MADV_HUGEPAGE = 14, MADV_NOHUGEPAGE = 15;
    public static final int POSIX_FADV_SEQUENTIAL = 2, POSIX_FADV_DONTNEED = 4;
    public static final int O_RDONLY = 0;
    /** Same value on x86-64 and arm64 (asm-generic). */
    public static final int O_NONBLOCK = 0x800, O_CLOEXEC = 0x80000;
    /**
     * O_NOFOLLOW differs by architecture, like O_DIRECT: arm64's own fcntl.h moves O_DIRECTORY,
     * O_NOFOLLOW and O_DIRECT (040000, 0100000, 0200000 octal) where x86-64 keeps asm-generic's
     * (0200000, 0400000, 040000).
     */
    public static final int O_NOFOLLOW = "aarch64".equals(System.getProperty("os.arch")) ? 0x8000 : 0x20000;
    static final int F_GETFL = 3, F_SETFL = 4;
    /** O_DIRECT differs by architecture (asm-generic vs x86). */
    public static final int O_DIRECT = "aarch64".equals(System.getProperty("os.arch")) ? 0x10000 : 0x4000;
    public static final int RUSAGE_SELF = 0, RUSAGE_THREAD = 1;
    static final int SC_PAGESIZE = 30;
    static final int EINTR = 4;

    /** struct rusage: two timevals, then 14 longs: maxrss, ixrss, idrss, isrss, minflt (4), majflt (5), nswap, inblock, oublock, msgsnd, msgrcv, nsignals, nvcsw (12), nivcsw (13). */
    static final StructLayout RUSAGE = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(4, JAVA_LONG).withName("times"),
            MemoryLayout.sequenceLayout(14, JAVA_LONG).withName("counters"));

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private record Fn(String name, FunctionDescriptor descriptor, boolean errno, int firstVariadic) {}

    private static final Map<String, Fn> FUNCTIONS = Map.ofEntries(
            Map.entry("mmap", new Fn("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), true, -1)),
            Map.entry("munmap", new Fn("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), true, -1)),
            Map.entry("madvise", new Fn("madvise", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), true, -1)),
            Map.entry("mincore", new Fn("mincore", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS), true, -1)),
            // posix_fadvise returns the error number instead of setting errno
            Map.entry("posix_fadvise", new Fn("posix_fadvise", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT), false, -1)),
            Map.entry("getrusage", new Fn("getrusage", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), true, -1)),
            Map.entry("getrlimit", new Fn("getrlimit", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), true, -1)),
            Map.entry("sysconf", new Fn("sysconf", FunctionDescriptor.of(JAVA_LONG, JAVA_INT), true, -1)),
            // open is variadic: the mode travels as a variadic int
            Map.entry("open", new Fn("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), true, 2)),
            Map.entry("close", new Fn("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), true, -1)),
            Map.entry("read", new Fn("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), true, -1)),
            // fcntl is variadic: F_SETFL's flags travel as a variadic int
            Map.entry("fcntl", new Fn("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), true, 2)),
            Map.entry("strerror", new Fn("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT), false, -1)),
            // no errno wanted: 0 means "not a terminal" whatever the reason (ENOTTY, EBADF)
            Map.entry("isatty", new Fn("isatty", FunctionDescriptor.of(JAVA_INT, JAVA_INT), false, -1)));

    private static final Map<String, MethodHandle> HANDLES = new ConcurrentHashMap<>();

    private Libc() {}

    private static MethodHandle handle(String name) {
        return HANDLES.computeIfAbsent(name, n -> {
            Fn f = FUNCTIONS.get(n);
            MemorySegment symbol = LINKER.defaultLookup().find(f.name())
                    .orElseThrow(() -> new LibcException(n + ": not in this libc"));
            java.util.List<Linker.Option> opts = new java.util.ArrayList<>();
            if (f.errno()) opts.add(Linker.Option.captureCallState("errno"));
            if (f.firstVariadic() >= 0) opts.add(Linker.Option.firstVariadicArg(f.firstVariadic()));
            return LINKER.downcallHandle(symbol, f.descriptor(), opts.toArray(Linker.Option[]::new));
        });
    }

    /**
     * Each thread's errno capture buffer, allocated once: a read loop calls read(2) thousands of
     * times, and an allocation per call would fault pages of its own into the figures.
     */
    private static final ThreadLocal<MemorySegment> CALL_STATE_BUFFER =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CALL_STATE));

    /** Calls a function that sets errno; returns its raw result and the errno of that call. */
    private static Object callWithErrno(String name, int[] errno, Object... args) {
        try {
            MemorySegment state = CALL_STATE_BUFFER.get();
            Object[] all = new Object[args.length + 1];
            all[0] = state;
            System.arraycopy(args, 0, all, 1, args.length);
            Object r = handle(name).invokeWithArguments(all);
            errno[0] = (int) ERRNO.get(state, 0L);
            return r;
        } catch (LibcException e) {
            throw e;
        } catch (Throwable t) {
            throw new LibcException(name + ": " + t);
        }
    }

    private static long checked(String name, Object... args) {
        int[] errno = new int[1];
        Object r = callWithErrno(name, errno, args);
        long v = r instanceof MemorySegment m ? (m.address() == -1L ? -1 : m.address()) : ((Number) r).longValue();
        if (v == -1) throw new LibcException(name + ": " + Errno.describe(errno[0]), errno[0]);
        return v;
    }

    /** The kernel's base page size (sysconf(_SC_PAGESIZE)): 4 KiB on x86, 4/16/64 KiB on ARM. */
    public static long pageSize() {
        return checked("sysconf", SC_PAGESIZE);
    }

    public static MemorySegment mmap(long bytes, int prot, int flags, int fd, long offset) {
        long address = checked("mmap", MemorySegment.NULL, bytes, prot, flags, fd, offset);
        return MemorySegment.ofAddress(address).reinterpret(bytes);
    }

    public static void munmap(MemorySegment region) {
        checked("munmap", region, region.byteSize());
    }

    public static void madvise(MemorySegment region, int advice) {
        checked("madvise", region, region.byteSize(), advice);
    }

    /** How many of the region's pages are resident (in RAM or the page cache). */
    public static long residentPages(MemorySegment region, long pageSize) {
        long pages = (region.byteSize() + pageSize - 1) / pageSize;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment vec = a.allocate(pages);
            checked("mincore", region, region.byteSize(), vec);
            long n = 0;
            for (long i = 0; i < pages; i++) if ((vec.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) & 1) != 0) n++;
            return n;
        }
    }

    /** posix_fadvise on a whole file; DONTNEED evicts its clean pages from the page cache without root. */
    public static void fadvise(int fd, int advice) {
        try {
            int err = (int) handle("posix_fadvise").invokeExact(fd, 0L, 0L, advice);
            if (err != 0) throw new LibcException("posix_fadvise: " + Errno.describe(err), err);
        } catch (LibcException e) {
            throw e;
        } catch (Throwable t) {
            throw new LibcException("posix_fadvise: " + t);
        }
    }

    public static int open(String path, int flags) {
        try (Arena a = Arena.ofConfined()) {
            return (int) checked("open", a.allocateFrom(path), flags, 0);
        }
    }

    public static void close(int fd) {
        checked("close", fd);
    }

    /**
     * Clears O_NONBLOCK on an open file: a file opened non-blocking (so that a FIFO met where a
     * regular file was expected cannot hang the open) reads as usual once it is known to be regular.
     */
    public static void clearNonBlocking(int fd) {
        int flags = (int) checked("fcntl", fd, F_GETFL, 0);
        if ((flags & O_NONBLOCK) != 0) checked("fcntl", fd, F_SETFL, flags & ~O_NONBLOCK);
    }

    /** The C library's text for an errno ("Invalid argument"), the text Java's own I/O errors carry. */
    public static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) handle("strerror").invokeExact(errno);
            return s.equals(MemorySegment.NULL) ? Errno.describe(errno) : s.reinterpret(1024).getString(0);
        } catch (LibcException e) {
            throw e;
        } catch (Throwable t) {
            return Errno.describe(errno);
        }
    }

    /** One read(2), retried on EINTR; returns the bytes read (0 at end of file). */
    public static long read(int fd, MemorySegment buffer, long bytes) {
        while (true) {
            try {
                return checked("read", fd, buffer, bytes);
            } catch (LibcException e) {
                if (e.errno() != EINTR) throw e;
            }
        }
    }

    /** RLIMIT_AS (asm-generic/resource.h, the same on x86-64 and arm64). */
    static final int RLIMIT_AS = 9;

    /**
     * The soft address-space limit ({@code ulimit -v}) in bytes, empty when unlimited
     * (RLIM_INFINITY, all ones) or when libc cannot say: struct rlimit is two unsigned longs.
     */
    public static java.util.OptionalLong addressSpaceLimit() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(16, 8);
            checked("getrlimit", RLIMIT_AS, r);
            long soft = r.get(JAVA_LONG, 0);
            return soft == -1L ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(soft);
        } catch (RuntimeException e) {
            return java.util.OptionalLong.empty();
        }
    }

    /** Page faults and context switches so far, from getrusage: of this thread or of the process. */
    public record Usage(long minorFaults, long majorFaults, long voluntarySwitches, long involuntarySwitches) {
        public Usage minus(Usage before) {
            return new Usage(minorFaults - before.minorFaults, majorFaults - before.majorFaults,
                    voluntarySwitches - before.voluntarySwitches, involuntarySwitches - before.involuntarySwitches);
        }
    }

    public static Usage usage(int who) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(RUSAGE);
            checked("getrusage", who, r);
            long base = 4 * 8;
            return new Usage(r.get(JAVA_LONG, base + 4 * 8), r.get(JAVA_LONG, base + 5 * 8),
                    r.get(JAVA_LONG, base + 12 * 8), r.get(JAVA_LONG, base + 13 * 8));
        }
    }

    /**
     * The most resident memory so far, in bytes: ru_maxrss, which Linux keeps in KiB (getrusage(2)).
     * For RUSAGE_SELF this process's high-water mark (VmHWM), what GNU time -v prints as "Maximum
     * resident set size" for it. (Not for RUSAGE_CHILDREN, -1: each child's counts its parent's
     * high-water mark at the exec that started it, fs/exec.c exec_mmap, so it is no measure of
     * the children's own memory.)
     */
    public static long peakRssBytes(int who) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(RUSAGE);
            checked("getrusage", who, r);
            return r.get(JAVA_LONG, 4 * 8) * 1024;
        }
    }

    /** This thread's counters: other JVM threads (GC, JIT) fault too, and would blur a small figure. */
    public static Usage threadUsage() {
        return usage(RUSAGE_THREAD);
    }

    /**
     * Whether {@code fd} is a terminal (isatty(3)). System.console() answers for stdin and
     * stdout together; progress on stderr needs stderr's own answer. False where libc cannot be called.
     */
    public static boolean isTerminal(int fd) {
        try {
            return (int) handle("isatty").invokeExact(fd) == 1;
        } catch (Throwable t) { // no libc, no symbol: then it is no terminal we can draw on
            return false;
        }
    }

    /** Whether libc can be called at all (it can on Linux; elsewhere the drills say not run). */
    public static boolean available() {
        try {
            pageSize();
            return true;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
