package hostside.cpu.trace;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What each traced process's file descriptors are, learnt from the trace itself: openat's
 * results, dup, pipe2, socket, close, and clone (threads share one table; a forked child gets a
 * copy). Descriptors opened before the trace began are unknown unless a {@link FdSeed} (read
 * from /proc/PID/fd when attaching) says what they are.
 */
final class FdTables {
    /** One process's table. */
    static final class Table implements SyscallGroup.FdLookup {
        final Map<Integer, String> paths = new HashMap<>();
        final Map<Integer, Boolean> cloexec = new HashMap<>();

        @Override
        public Optional<String> path(int fd) {
            return Optional.ofNullable(paths.get(fd));
        }

        void put(int fd, String path, boolean closeOnExec) {
            paths.put(fd, path);
            cloexec.put(fd, closeOnExec);
        }

        void remove(int fd) {
            paths.remove(fd);
            cloexec.remove(fd);
        }

        Table copy() {
            Table t = new Table();
            t.paths.putAll(paths);
            t.cloexec.putAll(cloexec);
            return t;
        }
    }

    private final Map<Integer, Table> byPid = new HashMap<>();
    /** What a process met for the first time (not through a traced clone) starts with. */
    private final Map<Integer, String> inherited = new HashMap<>();

    /**
     * A seed with threads gives those threads its descriptors (--pid); one without gives them to
     * the first process the trace shows (a started command's standard streams).
     */
    FdTables(FdSeed seed) {
        if (seed == null) return;
        if (seed.tids().isEmpty()) {
            inherited.putAll(seed.fds());
            return;
        }
        Table t = new Table();
        seed.fds().forEach((fd, path) -> t.put(fd, path, false));
        for (int tid : seed.tids()) byPid.put(tid, t);
    }

    Table of(int pid) {
        return byPid.computeIfAbsent(pid, p -> {
            Table t = new Table();
            if (byPid.isEmpty()) inherited.forEach((fd, path) -> t.put(fd, path, false));
            return t;
        });
    }

    /**
     * Learns from one finished call. {@code args} holds the whole argument text (both halves of
     * an unfinished/resumed pair), {@code ret} the return value as printed.
     */
    void learn(int pid, String name, String args, String ret) {
        OptionalLong r = Args.number(ret);
        if (r.isEmpty() || r.getAsLong() < 0) return;
        long v = r.getAsLong();
        Table t = of(pid);
        switch (name) {
            case "open", "openat", "openat2", "creat" -> {
                Optional<String> path = Args.firstString(args);
                if (path.isPresent()) t.put((int) v, path.get(), args.contains("O_CLOEXEC"));
            }
            case "close" -> Args.arg(args, 0).flatMap(a -> box(Args.fd(a))).ifPresent(t::remove);
            case "dup" -> copyFd(t, args, 0, (int) v, false);
            case "dup2" -> copyFd(t, args, 0, (int) v, false);
            case "dup3" -> copyFd(t, args, 0, (int) v, args.contains("O_CLOEXEC"));
            case "fcntl", "fcntl64" -> {
                if (args.contains("F_DUPFD")) copyFd(t, args, 0, (int) v, args.contains("F_DUPFD_CLOEXEC"));
            }
            case "pipe", "pipe2" -> pair(t, args, "pipe:[]", args.contains("O_CLOEXEC"));
            case "socketpair" -> pair(t, args, "socket:[]", args.contains("SOCK_CLOEXEC"));
            case "socket", "accept", "accept4" -> t.put((int) v, "socket:[]", args.contains("SOCK_CLOEXEC"));
            case "eventfd", "eventfd2" -> t.put((int) v, "anon_inode:[eventfd]", args.contains("EFD_CLOEXEC"));
            case "epoll_create", "epoll_create1" -> t.put((int) v, "anon_inode:[eventpoll]", args.contains("EPOLL_CLOEXEC"));
            case "timerfd_create" -> t.put((int) v, "anon_inode:[timerfd]", args.contains("TFD_CLOEXEC"));
            case "memfd_create" -> t.put((int) v, "/memfd:" + Args.firstString(args).orElse(""), args.contains("MFD_CLOEXEC"));
            case "execve", "execveat" -> {
                if (v == 0) {
                    t.cloexec.forEach((fd, ce) -> {
                        if (ce) t.paths.remove(fd);
                    });
                    t.cloexec.values().removeIf(ce -> ce);
                }
            }
            case "clone", "clone3", "fork", "vfork" -> {
                if (v > 0) cloned(pid, (int) v, name.equals("vfork") || (!name.equals("fork") && args.contains("CLONE_FILES")));
            }
            default -> { }
        }
    }

    /** A new process or thread: CLONE_FILES shares the table, anything else copies it. */
    void cloned(int parent, int child, boolean shareFiles) {
        Table p = of(parent);
        Table early = byPid.get(child); // the child's first lines can come before the parent's clone returns
        Table c = shareFiles ? p : p.copy();
        if (early != null && early != c) {
            early.paths.forEach((fd, path) -> c.put(fd, path, Boolean.TRUE.equals(early.cloexec.get(fd))));
        }
        byPid.put(child, c);
    }

    private static void copyFd(Table t, String args, int argIndex, int newFd, boolean cloexec) {
        Optional<String> from = Args.arg(args, argIndex).flatMap(a -> box(Args.fd(a))).flatMap(t::path);
        if (from.isPresent()) t.put(newFd, from.get(), cloexec);
        else t.remove(newFd);
    }

    /** pipe2([3, 4], O_CLOEXEC), socketpair(AF_UNIX, SOCK_STREAM, 0, [3, 4]) */
    private static void pair(Table t, String args, String what, boolean cloexec) {
        for (String a : Args.split(args)) {
            if (!a.startsWith("[") || !a.endsWith("]")) continue;
            for (String f : Args.split(a.substring(1, a.length() - 1))) {
                OptionalInt fd = Args.fd(f);
                if (fd.isPresent()) t.put(fd.getAsInt(), what, cloexec);
            }
            return;
        }
    }

    private static Optional<Integer> box(OptionalInt i) {
        return i.isPresent() ? Optional.of(i.getAsInt()) : Optional.empty();
    }
}
