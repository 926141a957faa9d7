package hostside.libc;

import java.util.Map;

/** Names for the errno values the drills can meet; the number for the rest. */
public final class Errno {
    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(1, "EPERM (operation not permitted)"), Map.entry(2, "ENOENT (no such file or directory)"),
            Map.entry(4, "EINTR (interrupted)"), Map.entry(6, "ENXIO (no such device or address)"), Map.entry(5, "EIO (I/O error)"), Map.entry(9, "EBADF (bad file descriptor)"),
            Map.entry(11, "EAGAIN (try again)"), Map.entry(12, "ENOMEM (cannot allocate memory)"),
            Map.entry(13, "EACCES (permission denied)"), Map.entry(14, "EFAULT (bad address)"),
            Map.entry(16, "EBUSY (device or resource busy)"),
            Map.entry(17, "EEXIST (file exists)"), Map.entry(18, "EXDEV (crosses a file system or leaves the folder)"),
            Map.entry(20, "ENOTDIR (not a directory)"), Map.entry(21, "EISDIR (is a directory)"),
            Map.entry(22, "EINVAL (invalid argument)"), Map.entry(24, "EMFILE (too many open files)"),
            Map.entry(28, "ENOSPC (no space left on device)"), Map.entry(30, "EROFS (read-only file system)"),
            Map.entry(36, "ENAMETOOLONG (file name too long)"),
            Map.entry(38, "ENOSYS (function not implemented)"), Map.entry(40, "ELOOP (a symbolic link where none may be)"), Map.entry(95, "EOPNOTSUPP (operation not supported)"));

    private Errno() {}

    public static String describe(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }
}
