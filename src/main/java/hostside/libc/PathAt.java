package hostside.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The calls that name a file relative to an open folder (the *at family), so that a path is
 * resolved once, from a descriptor, and never again by name: openat, openat2, statx, readlinkat,
 * getdents64, renameat2 and unlinkat. Reading a recording beneath its folder without following a
 * link ({@code hostside.fs.DirectoryTree}) and replacing an output only when it is a regular file
 * ({@code hostside.fs.OutputFile}) are built on these.
 *
 * <p>openat2, statx, renameat2 and getdents64 go through syscall(2): glibc before 2.28 (and
 * musl before 1.2.5) has no wrapper for the first three, and their structs ({@code open_how},
 * {@code statx}, {@code linux_dirent64}) have the same layout on every architecture, unlike
 * {@code struct stat}. Only the numbers differ, x86-64's own table against the generic one arm64
 * uses (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h).
 */
public final class PathAt {
    private static final boolean ARM64 = "aarch64".equals(System.getProperty("os.arch"));
    private static final long SYS_OPENAT2 = 437; // the same on every architecture (added in 5.6, after the tables were unified)
    private static final long SYS_STATX = ARM64 ? 291 : 332;
    private static final long SYS_RENAMEAT2 = ARM64 ? 276 : 316;
    private static final long SYS_GETDENTS64 = ARM64 ? 61 : 217;

    public static final int AT_FDCWD = -100;
    public static final int AT_SYMLINK_NOFOLLOW = 0x100, AT_EMPTY_PATH = 0x1000;
    /** O_PATH is 010000000 everywhere; O_DIRECTORY moves on arm64 as O_NOFOLLOW does (see {@link Libc#O_NOFOLLOW}). */
    public static final int O_PATH = 0x200000;
    public static final int O_DIRECTORY = ARM64 ? 0x4000 : 0x10000;
    public static final int O_RDONLY = Libc.O_RDONLY, O_NONBLOCK = Libc.O_NONBLOCK, O_CLOEXEC = Libc.O_CLOEXEC, O_NOFOLLOW = Libc.O_NOFOLLOW;
    /** openat2's resolve flags (include/uapi/linux/openat2.h). */
    public static final long RESOLVE_NO_MAGICLINKS = 0x02, RESOLVE_NO_SYMLINKS = 0x04, RESOLVE_BENEATH = 0x08;
    /** renameat2's flags (include/uapi/linux/fs.h). */
    public static final int RENAME_NOREPLACE = 1, RENAME_EXCHANGE = 2;

    public static final int EPERM = 1, ENOENT = 2, EINTR = 4, ENXIO = 6, EACCES = 13, EBUSY = 16, EEXIST = 17, EXDEV = 18,
            ENOTDIR = 20, EISDIR = 21, EINVAL = 22, ENOSYS = 38, ELOOP = 40, EOPNOTSUPP = 95;

    /** struct open_how: flags, mode, resolve, three u64s. */
    private static final StructLayout OPEN_HOW = MemoryLayout.structLayout(JAVA_LONG.withName("flags"), JAVA_LONG.withName("mode"), JAVA_LONG.withName("resolve"));
    /** struct statx is 256 bytes; the fields read here sit at fixed offsets in it (include/uapi/linux/stat.h). */
    private static final long STATX_BYTES = 256, STX_MODE = 28, STX_INO = 32, STX_SIZE = 40, STX_DEV_MAJOR = 136, STX_DEV_MINOR = 140;
    private static final int STATX_TYPE = 0x1, STATX_MODE = 0x2, STATX_INO = 0x100, STATX_SIZE = 0x200;
    /** Path buffers: PATH_MAX. */
    private static final int PATH_MAX = 4096;
    private static final int DIRENT_BUFFER = 32 << 10;

    private static final VarHandle ERRNO = Linker.Option.captureStateLayout().varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> STATE = FileIo.STATE;

    private static final MethodHandle OPENAT = FileIo.bind("openat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), 3);
    private static final MethodHandle READLINKAT = FileIo.bind("readlinkat", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG), -1);
    private static final MethodHandle UNLINKAT = FileIo.bind("unlinkat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), -1);

    private PathAt() {}

    /** What statx says of one file: its type and permission bits, size, and identity. */
    public record Stat(int mode, long size, long inode, long device) {
        private static final int S_IFMT = 0170000;

        public enum Type { FILE, DIR, LINK, CHAR_DEVICE, BLOCK_DEVICE, FIFO, SOCKET, UNKNOWN }

        public Type type() {
            return switch (mode & S_IFMT) {
                case 0100000 -> Type.FILE;
                case 0040000 -> Type.DIR;
                case 0120000 -> Type.LINK;
                case 0020000 -> Type.CHAR_DEVICE;
                case 0060000 -> Type.BLOCK_DEVICE;
                case 0010000 -> Type.FIFO;
                case 0140000 -> Type.SOCKET;
                default -> Type.UNKNOWN;
            };
        }

        /** Whether two stats name the same file (device and inode). */
        public boolean sameFile(Stat o) {
            return o != null && inode == o.inode && device == o.device;
        }
    }

    /** Whether the kernel has openat2 (Linux 5.6); false also where a seccomp filter (an older container runtime's) refuses it. */
    public static boolean hasOpenat2() {
        return Openat2Probe.AVAILABLE;
    }

    private static final class Openat2Probe {
        static final boolean AVAILABLE = probe();

        private static boolean probe() {
            try {
                close(openat2(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, RESOLVE_NO_SYMLINKS));
                return true;
            } catch (LibcException e) {
                return false;
            }
        }
    }

    /** openat(2); the mode only matters with O_CREAT. */
    public static int openat(int dirfd, String path, int flags) {
        MemorySegment state = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            while (true) {
                int fd = (int) OPENAT.invokeExact(state, dirfd, a.allocateFrom(path), flags, 0);
                if (fd >= 0) return fd;
                if (errno(state) != EINTR) throw failure("openat", state);
            }
        } catch (Throwable t) {
            throw broken("openat", t);
        }
    }

    /** openat2(2) with {@code resolve} restrictions (RESOLVE_*); throws with ENOSYS where the kernel lacks it. */
    public static int openat2(int dirfd, String path, int flags, long resolve) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment how = a.allocate(OPEN_HOW);
            how.set(JAVA_LONG, 0, flags & 0xffffffffL);
            how.set(JAVA_LONG, 8, 0L);
            how.set(JAVA_LONG, 16, resolve);
            MemorySegment p = a.allocateFrom(path);
            while (true) {
                try {
                    return (int) syscall("openat2", SYS_OPENAT2, dirfd, p.address(), how.address(), OPEN_HOW.byteSize(), 0);
                } catch (LibcException e) {
                    // EAGAIN: a rename raced the lookup under RESOLVE_BENEATH; the kernel asks for a retry
                    if (e.errno() != EINTR && e.errno() != 11) throw e;
                }
            }
        }
    }

    /**
     * statx(2) of {@code path} under {@code dirfd}, never following a link at the last component;
     * {@code path} "" with {@code dirfd} an open descriptor stats that file (AT_EMPTY_PATH).
     */
    public static Stat statx(int dirfd, String path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(STATX_BYTES, 8);
            MemorySegment p = a.allocateFrom(path);
            int flags = AT_SYMLINK_NOFOLLOW | (path.isEmpty() ? AT_EMPTY_PATH : 0);
            syscall("statx", SYS_STATX, dirfd, p.address(), flags, STATX_TYPE | STATX_MODE | STATX_INO | STATX_SIZE, buf.address());
            int mode = Short.toUnsignedInt(buf.get(JAVA_SHORT, STX_MODE));
            long dev = ((long) buf.get(JAVA_INT, STX_DEV_MAJOR) << 32) | (buf.get(JAVA_INT, STX_DEV_MINOR) & 0xffffffffL);
            return new Stat(mode, buf.get(JAVA_LONG, STX_SIZE), buf.get(JAVA_LONG, STX_INO), dev);
        }
    }

    /** readlinkat(2): the target of the link at {@code path} under {@code dirfd} ("" for a descriptor opened O_PATH|O_NOFOLLOW on the link). */
    public static String readlinkat(int dirfd, String path) {
        MemorySegment state = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(PATH_MAX);
            long n = (long) READLINKAT.invokeExact(state, dirfd, a.allocateFrom(path), buf, (long) PATH_MAX);
            if (n < 0) throw failure("readlinkat", state);
            if (n >= PATH_MAX) throw new LibcException("readlinkat: a link target longer than " + PATH_MAX + " bytes", 36);
            return new String(buf.asSlice(0, n).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
        } catch (Throwable t) {
            throw broken("readlinkat", t);
        }
    }

    /** The names in the open folder {@code fd} (getdents64), without "." and "..", at most {@code max} of them. */
    public static List<String> names(int fd, int max) {
        List<String> names = new ArrayList<>();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(DIRENT_BUFFER, 8);
            while (true) {
                long n = syscall("getdents64", SYS_GETDENTS64, fd, buf.address(), DIRENT_BUFFER, 0, 0);
                if (n == 0) return names;
                // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, then the NUL-terminated name
                for (long at = 0; at < n; ) {
                    int reclen = Short.toUnsignedInt(buf.get(JAVA_SHORT, at + 16));
                    String name = buf.getString(at + 19, StandardCharsets.UTF_8);
                    if (!name.equals(".") && !name.equals("..")) {
                        if (names.size() >= max) throw new LibcException("getdents64: more than " + max + " entries in one folder", 27);
                        names.add(name);
                    }
                    if (reclen <= 0) throw new LibcException("getdents64: a record of length 0", EINVAL);
                    at += reclen;
                }
            }
        }
    }

    /** renameat2(2) with RENAME_NOREPLACE or RENAME_EXCHANGE (or 0, rename(2) itself). */
    public static void renameat2(int olddir, String oldPath, int newdir, String newPath, int flags) {
        try (Arena a = Arena.ofConfined()) {
            syscall("renameat2", SYS_RENAMEAT2, olddir, a.allocateFrom(oldPath).address(), newdir, a.allocateFrom(newPath).address(), flags);
        }
    }

    /** unlinkat(2) of a file (not a folder). */
    public static void unlinkat(int dirfd, String path) {
        MemorySegment state = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            if ((int) UNLINKAT.invokeExact(state, dirfd, a.allocateFrom(path), 0) != 0) throw failure("unlinkat", state);
        } catch (Throwable t) {
            throw broken("unlinkat", t);
        }
    }

    public static void close(int fd) {
        FileIo.close(fd);
    }

    /** Closes {@code fd} where a failure has nothing left to tell (a read-only descriptor, an error path). */
    public static void closeQuietly(int fd) {
        try {
            close(fd);
        } catch (LibcException e) {
            // nothing was written through it: nothing is lost
        }
    }

    private static long syscall(String name, long number, long a, long b, long c, long d, long e) {
        return FileIo.syscall(name, number, a, b, c, d, e, 0);
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    private static LibcException failure(String call, MemorySegment state) {
        return FileIo.failure(call, state);
    }

    private static LibcException broken(String call, Throwable t) {
        return FileIo.broken(call, t);
    }
}
