package hostside.cpu.trace;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import hostside.fs.FsRoot;

/**
 * What a running process already had open when tracing began, and its threads' names: the
 * links under /proc/PID/fd and the files /proc/PID/task/TID/comm. Tracing by {@code --pid}
 * starts in the middle of the process's life, so without this every descriptor opened before
 * (CUDA's /dev/nvidia* ones among them) would be unknown.
 *
 * @param pid   the process
 * @param tids  its threads (they share one descriptor table)
 * @param fds   descriptor to link target ("/dev/nvidiactl", "socket:[123]", "pipe:[456]")
 * @param names thread to its name (comm)
 */
public record FdSeed(long pid, Set<Integer> tids, Map<Integer, String> fds, Map<Integer, String> names) {
    public static final FdSeed NONE = new FdSeed(0, Set.of(), Map.of(), Map.of());

    public FdSeed {
        tids = Set.copyOf(tids);
        fds = Map.copyOf(fds);
        names = Map.copyOf(names);
    }

    /**
     * The standard streams a command started by {@link Tracer} inherits: input from /dev/null,
     * output to /dev/null (or hostside's own), errors to a pipe that hostside reads.
     */
    public static FdSeed standardStreams(boolean outputShown) {
        return new FdSeed(0, Set.of(), Map.of(0, "/dev/null", 1, outputShown ? "(hostside's standard output)" : "/dev/null", 2, "pipe:[stderr]"),
                Map.of());
    }

    /** Reads the process's descriptors and threads through {@code root} (FsRoot.live() for this machine). */
    public static FdSeed fromProc(FsRoot root, long pid) {
        String base = "/proc/" + pid;
        Set<Integer> tids = new LinkedHashSet<>();
        Map<Integer, String> names = new LinkedHashMap<>();
        for (String t : root.list(base + "/task")) {
            Optional<Integer> tid = parse(t);
            if (tid.isEmpty()) continue;
            tids.add(tid.get());
            root.text(base + "/task/" + t + "/comm").ifPresent(n -> names.put(tid.get(), n));
        }
        if (tids.isEmpty() && pid <= Integer.MAX_VALUE) tids.add((int) pid);
        Map<Integer, String> fds = new LinkedHashMap<>();
        for (String f : root.list(base + "/fd")) {
            Optional<Integer> fd = parse(f);
            if (fd.isEmpty()) continue;
            root.readLink(base + "/fd/" + f).ifPresent(target -> fds.put(fd.get(), target));
        }
        return new FdSeed(pid, tids, fds, names);
    }

    private static Optional<Integer> parse(String s) {
        try {
            return Optional.of(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
