package hostside.cpu.trace;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Module 3's groups of system calls. A timed trace sees each call's arguments, so it tells
 * futex waits from wakes and an ioctl on /dev/nvidia* from any other; {@code strace -c} sees
 * names alone, so its futex and ioctl calls land in {@link #FUTEX} and {@link #IOCTL_UNKNOWN}.
 */
public enum SyscallGroup {
    FUTEX_WAIT("futex waits", "futex calls that block until another thread wakes them (FUTEX_WAIT*, FUTEX_LOCK_PI*, futex_waitv)"),
    FUTEX_WAKE("futex wakes", "futex calls that wake or requeue waiters (FUTEX_WAKE*, FUTEX_REQUEUE*, FUTEX_UNLOCK_PI)"),
    FUTEX("futex (waits and wakes)", "futex calls whose operation is not known (strace -c gives names only)"),
    IOCTL_NVIDIA("ioctl on /dev/nvidia*", "ioctl on /dev/nvidiactl, /dev/nvidiaN, /dev/nvidia-uvm: the CUDA driver talking to the kernel driver"),
    IOCTL_OTHER("ioctl, other devices", "ioctl on a descriptor known to be something else (a terminal, a socket, another device)"),
    IOCTL_UNKNOWN("ioctl, device unknown", "ioctl on a descriptor opened before the trace began, or counted by strace -c"),
    MEMORY("memory", "mmap, munmap, mprotect, brk, madvise, mremap"),
    FILE("file reads", "read, pread64, readv, preadv, openat, close, fstat, newfstatat, statx, lseek, getdents64"),
    POLL("polling and sleeping", "poll, ppoll, epoll_wait, epoll_pwait, select, pselect6, nanosleep, clock_nanosleep, sched_yield"),
    PROCESS("processes and threads", "clone, clone3, fork, vfork, execve, wait4, exit, exit_group"),
    SOCKET("sockets and pipes", "sendto, recvfrom, sendmsg, recvmsg, connect, accept..., and reads and writes on a known socket or pipe"),
    OTHER("other", "everything else (write, signals, getpid, ...)");

    private final String label;
    private final String meaning;

    SyscallGroup(String label, String meaning) {
        this.label = label;
        this.meaning = meaning;
    }

    /** Short name for a table row. */
    public String label() {
        return label;
    }

    /** What falls in the group, for a legend. */
    public String meaning() {
        return meaning;
    }

    /** True for the three futex groups. */
    public boolean isFutex() {
        return this == FUTEX_WAIT || this == FUTEX_WAKE || this == FUTEX;
    }

    /** True for the three ioctl groups. */
    public boolean isIoctl() {
        return this == IOCTL_NVIDIA || this == IOCTL_OTHER || this == IOCTL_UNKNOWN;
    }

    /** What a descriptor is, as far as the trace knows: a path, "socket:[..]", "pipe:[..]", "anon_inode:[..]". */
    @FunctionalInterface
    public interface FdLookup {
        /** Empty when the descriptor was opened before the trace began (or is not open). */
        Optional<String> path(int fd);

        FdLookup NONE = fd -> Optional.empty();
    }

    static final Set<String> MEMORY_CALLS = Set.of("mmap", "mmap2", "munmap", "mprotect", "pkey_mprotect", "brk", "madvise", "mremap");
    static final Set<String> FILE_CALLS = Set.of("read", "pread64", "readv", "preadv", "preadv2", "open", "openat", "openat2", "creat",
            "close", "close_range", "fstat", "fstat64", "stat", "stat64", "lstat", "lstat64", "newfstatat", "fstatat64", "statx", "lseek",
            "_llseek", "getdents", "getdents64");
    /** Calls whose first argument is a descriptor that may be a socket or pipe rather than a file. */
    static final Set<String> FD_IO_CALLS = Set.of("read", "readv", "write", "writev", "close", "fstat");
    static final Set<String> READ_CALLS = Set.of("read", "pread64", "readv", "preadv", "preadv2");
    static final Set<String> POLL_CALLS = Set.of("poll", "ppoll", "epoll_wait", "epoll_pwait", "epoll_pwait2", "select", "_newselect",
            "pselect6", "nanosleep", "clock_nanosleep", "sched_yield", "pause");
    static final Set<String> PROCESS_CALLS = Set.of("clone", "clone3", "fork", "vfork", "execve", "execveat", "wait4", "waitid",
            "exit", "exit_group");
    static final Set<String> SOCKET_CALLS = Set.of("socket", "socketpair", "bind", "listen", "connect", "accept", "accept4", "sendto",
            "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "shutdown", "getsockopt", "setsockopt", "getsockname", "getpeername");
    static final Set<String> FUTEX_WAIT_CALLS = Set.of("futex_waitv", "futex_wait");
    static final Set<String> FUTEX_WAKE_CALLS = Set.of("futex_wake", "futex_requeue");

    /** The group of a call known by name alone, as in {@code strace -c}'s table. */
    public static SyscallGroup ofName(String name) {
        return of(name, null, FdLookup.NONE);
    }

    /**
     * The group of one call. {@code args} is its argument text as strace printed it (null when
     * unknown); {@code fds} says what the calling process's descriptors are.
     */
    public static SyscallGroup of(String name, String args, FdLookup fds) {
        if (name.equals("futex")) return args == null ? FUTEX : futex(args);
        if (FUTEX_WAIT_CALLS.contains(name)) return FUTEX_WAIT;
        if (FUTEX_WAKE_CALLS.contains(name)) return FUTEX_WAKE;
        if (name.equals("ioctl")) return args == null ? IOCTL_UNKNOWN : ioctl(args, fds);
        if (name.equals("restart_syscall")) return restarted(args);
        if (MEMORY_CALLS.contains(name)) return MEMORY;
        if (POLL_CALLS.contains(name)) return POLL;
        if (PROCESS_CALLS.contains(name)) return PROCESS;
        if (SOCKET_CALLS.contains(name)) return SOCKET;
        if (FD_IO_CALLS.contains(name) && args != null && isIpc(firstFdPath(args, fds))) return SOCKET;
        if (FILE_CALLS.contains(name)) return FILE;
        return OTHER;
    }

    /** A restarted call takes the group of the one it resumes ("<... resuming interrupted futex ...>"). */
    private static SyscallGroup restarted(String args) {
        if (args != null) {
            int i = args.indexOf("resuming interrupted ");
            if (i >= 0) {
                String rest = args.substring(i + "resuming interrupted ".length());
                int end = 0;
                while (end < rest.length() && (Character.isLetterOrDigit(rest.charAt(end)) || rest.charAt(end) == '_')) end++;
                String name = rest.substring(0, end);
                // only a blocking futex op can be interrupted and restarted
                if (name.equals("futex")) return FUTEX_WAIT;
                if (!name.isEmpty() && !name.equals("restart_syscall")) return ofName(name);
            }
        }
        return POLL;
    }

    // futex operations, as <linux/futex.h> numbers them (FUTEX_CMD_MASK strips PRIVATE and CLOCK_REALTIME)
    private static final String[] FUTEX_OPS = {"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_FD", "FUTEX_REQUEUE", "FUTEX_CMP_REQUEUE",
            "FUTEX_WAKE_OP", "FUTEX_LOCK_PI", "FUTEX_UNLOCK_PI", "FUTEX_TRYLOCK_PI", "FUTEX_WAIT_BITSET", "FUTEX_WAKE_BITSET",
            "FUTEX_WAIT_REQUEUE_PI", "FUTEX_CMP_REQUEUE_PI", "FUTEX_LOCK_PI2"};

    static SyscallGroup futex(String args) {
        Optional<String> op = Args.arg(args, 1);
        if (op.isEmpty() || op.get().isEmpty()) return FUTEX;
        String o = op.get().toUpperCase(Locale.ROOT);
        if (!o.startsWith("FUTEX_")) {
            OptionalLong n = Args.number(op.get());
            if (n.isEmpty()) return FUTEX;
            int cmd = (int) (n.getAsLong() & 0x7f);
            if (cmd >= FUTEX_OPS.length) return FUTEX;
            o = FUTEX_OPS[cmd];
        }
        // the operation is the first word: "FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME"
        int bar = o.indexOf('|');
        String cmd = (bar < 0 ? o : o.substring(0, bar)).replace("_PRIVATE", "");
        return switch (cmd) {
            case "FUTEX_WAIT", "FUTEX_WAIT_BITSET", "FUTEX_WAIT_REQUEUE_PI", "FUTEX_LOCK_PI", "FUTEX_LOCK_PI2" -> FUTEX_WAIT;
            case "FUTEX_WAKE", "FUTEX_WAKE_BITSET", "FUTEX_WAKE_OP", "FUTEX_REQUEUE", "FUTEX_CMP_REQUEUE", "FUTEX_CMP_REQUEUE_PI",
                 "FUTEX_UNLOCK_PI" -> FUTEX_WAKE;
            default -> FUTEX; // FUTEX_TRYLOCK_PI, FUTEX_FD: neither blocks nor wakes anyone
        };
    }

    static SyscallGroup ioctl(String args, FdLookup fds) {
        Optional<String> path = firstFdPath(args, fds);
        if (path.isEmpty()) return IOCTL_UNKNOWN;
        return isNvidia(path.get()) ? IOCTL_NVIDIA : IOCTL_OTHER;
    }

    /** /dev/nvidiactl, /dev/nvidia0, /dev/nvidia-uvm, /dev/nvidia-caps/... */
    public static boolean isNvidia(String path) {
        return path.startsWith("/dev/nvidia");
    }

    static boolean isIpc(Optional<String> path) {
        return path.isPresent() && (path.get().startsWith("socket:") || path.get().startsWith("pipe:") || path.get().startsWith("UNIX")
                || path.get().startsWith("TCP") || path.get().startsWith("UDP"));
    }

    /** What the first argument's descriptor is: strace -y's annotation, else the lookup. */
    static Optional<String> firstFdPath(String args, FdLookup fds) {
        List<String> a = Args.split(args);
        if (a.isEmpty()) return Optional.empty();
        Optional<String> annotated = Args.fdPath(a.getFirst());
        if (annotated.isPresent()) return annotated;
        OptionalInt fd = Args.fd(a.getFirst());
        return fd.isPresent() ? fds.path(fd.getAsInt()) : Optional.empty();
    }
}
