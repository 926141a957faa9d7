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

/**
 * The file calls of the I/O drill, bound once with exact types: a random 4 KiB read runs a
 * hundred thousand times a second, and {@code invokeWithArguments} (boxing every argument) would
 * cost more than the read itself. Each call captures errno into a per-thread buffer; a failure is
 * a {@link LibcException} naming the call and the error ("pread: EINVAL (invalid argument)").
 */
public final class FileIo {
    public static final int O_WRONLY = 1, O_RDWR = 2, O_CREAT = 0x40, O_EXCL = 0x80, O_TRUNC = 0x200;
    /** The flags whose values {@link Libc} holds (O_DIRECT and O_NOFOLLOW differ between x86-64 and arm64). */
    public static final int O_DIRECT = Libc.O_DIRECT, O_NOFOLLOW = Libc.O_NOFOLLOW, O_CLOEXEC = Libc.O_CLOEXEC;
    static final int EINTR = 4;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    static final ThreadLocal<MemorySegment> STATE = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CALL_STATE));

    private static final MethodHandle OPEN = bind("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), 2);
    private static final MethodHandle PREAD = bind("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), -1);
    private static final MethodHandle PWRITE = bind("pwrite", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), -1);
    private static final MethodHandle FSYNC = bind("fsync", FunctionDescriptor.of(JAVA_INT, JAVA_INT), -1);
    private static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), -1);
    private static final MethodHandle GETEUID = LINKER.defaultLookup().find("geteuid")
            .map(s -> LINKER.downcallHandle(s, FunctionDescriptor.of(JAVA_INT))).orElse(null);
    // long syscall(long number, ...): io_uring has no libc wrapper in glibc
    private static final MethodHandle SYSCALL = bind("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), 1);

    private FileIo() {}

    /** A downcall handle capturing errno, or null where libc lacks the function; for {@link PathAt} too. */
    static MethodHandle bind(String name, FunctionDescriptor d, int firstVariadic) {
        MemorySegment symbol = LINKER.defaultLookup().find(name).orElse(null);
        if (symbol == null) return null;
        Linker.Option errno = Linker.Option.captureCallState("errno");
        return firstVariadic < 0 ? LINKER.downcallHandle(symbol, d, errno)
                : LINKER.downcallHandle(symbol, d, errno, Linker.Option.firstVariadicArg(firstVariadic));
    }

    static LibcException failure(String call, MemorySegment state) {
        int e = (int) ERRNO.get(state, 0L);
        return new LibcException(call + ": " + Errno.describe(e), e);
    }

    static LibcException broken(String call, Throwable t) {
        return t instanceof LibcException l ? l : new LibcException(call + ": " + t);
    }

    /** open(2) with a mode for O_CREAT; returns the descriptor. */
    public static int open(String path, int flags, int mode) {
        MemorySegment state = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(state, a.allocateFrom(path), flags, mode);
            if (fd < 0) throw failure("open " + path, state);
            return fd;
        } catch (Throwable t) {
            throw broken("open", t);
        }
    }

    /** One pread(2), retried on EINTR; returns the bytes read (fewer at the end of the file). */
    public static long pread(int fd, MemorySegment buffer, long bytes, long offset) {
        MemorySegment state = STATE.get();
        try {
            while (true) {
                long n = (long) PREAD.invokeExact(state, fd, buffer, bytes, offset);
                if (n >= 0) return n;
                if ((int) ERRNO.get(state, 0L) != EINTR) throw failure("pread", state);
            }
        } catch (Throwable t) {
            throw broken("pread", t);
        }
    }

    /** One pwrite(2), retried on EINTR; returns the bytes written. */
    public static long pwrite(int fd, MemorySegment buffer, long bytes, long offset) {
        MemorySegment state = STATE.get();
        try {
            while (true) {
                long n = (long) PWRITE.invokeExact(state, fd, buffer, bytes, offset);
                if (n >= 0) return n;
                if ((int) ERRNO.get(state, 0L) != EINTR) throw failure("pwrite", state);
            }
        } catch (Throwable t) {
            throw broken("pwrite", t);
        }
    }

    public static void fsync(int fd) {
        MemorySegment state = STATE.get();
        try {
            if ((int) FSYNC.invokeExact(state, fd) != 0) throw failure("fsync", state);
        } catch (Throwable t) {
            throw broken("fsync", t);
        }
    }

    public static void close(int fd) {
        MemorySegment state = STATE.get();
        try {
            if ((int) CLOSE.invokeExact(state, fd) != 0) throw failure("close", state);
        } catch (Throwable t) {
            throw broken("close", t);
        }
    }

    /** The effective user id: the owner of every file this process creates. geteuid(2) cannot fail. */
    public static int geteuid() {
        try {
            return (int) GETEUID.invokeExact();
        } catch (Throwable t) {
            throw broken("geteuid", t);
        }
    }

    /** A raw syscall with up to six arguments (unused ones 0); returns its result, or throws with errno. */
    public static long syscall(String name, long number, long a, long b, long c, long d, long e, long f) {
        MemorySegment state = STATE.get();
        try {
            long r = (long) SYSCALL.invokeExact(state, number, a, b, c, d, e, f);
            if (r == -1) throw failure(name, state);
            return r;
        } catch (Throwable t) {
            throw broken(name, t);
        }
    }
}
