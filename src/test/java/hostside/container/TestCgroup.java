package hostside.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import hostside.fs.FsRoot;
import hostside.fs.Mounts;
import hostside.fs.Mounts.Mount;

/**
 * A real cgroup with memory, pids and CPU limits, made for one test and removed on close, on
 * JVM shutdown, and (when empty) by the next run if this one was killed. cgroup v1 gets one
 * folder per controller hierarchy; cgroup v2 one folder under the mount's root, with the
 * controllers enabled there.
 */
final class TestCgroup implements AutoCloseable {
    static final String PREFIX = "hostside-test-";

    /** The setup cannot be built here; the message names what is missing. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    final String version;
    final String name;
    final boolean cpu;
    private final List<Path> dirs;
    private final Thread hook = new Thread(this::remove, "remove " + PREFIX + "cgroup");

    private TestCgroup(String version, String name, boolean cpu, List<Path> dirs) {
        this.version = version;
        this.name = name;
        this.cpu = cpu;
        this.dirs = dirs;
    }

    static TestCgroup create(long memoryBytes, long pidsMax, long quotaUs, long periodUs) throws Unavailable {
        List<Mount> mounts = Mounts.read(FsRoot.live());
        Map<String, Path> v1 = new java.util.LinkedHashMap<>();
        Path v2 = null;
        for (Mount m : mounts) {
            if (m.type().equals("cgroup2") && v2 == null) v2 = Path.of(m.point());
            if (!m.type().equals("cgroup")) continue;
            for (String c : List.of("memory", "pids", "cpu")) if (m.options().contains(c)) v1.putIfAbsent(c, Path.of(m.point()));
        }
        String name = PREFIX + ProcessHandle.current().pid() + "-" + System.nanoTime();
        if (v1.containsKey("memory") && v1.containsKey("pids")) {
            var hierarchies = new java.util.LinkedHashSet<>(v1.values()); // co-mounted controllers share one
            List<Path> dirs = new ArrayList<>();
            for (Path mount : hierarchies) dirs.add(mount.resolve(name));
            TestCgroup cg = new TestCgroup("v1", name, v1.containsKey("cpu"), dirs);
            cg.make(hierarchies);
            cg.write(v1.get("memory").resolve(name).resolve("memory.limit_in_bytes"), String.valueOf(memoryBytes));
            cg.write(v1.get("pids").resolve(name).resolve("pids.max"), String.valueOf(pidsMax));
            if (cg.cpu) {
                cg.write(v1.get("cpu").resolve(name).resolve("cpu.cfs_period_us"), String.valueOf(periodUs));
                cg.write(v1.get("cpu").resolve(name).resolve("cpu.cfs_quota_us"), String.valueOf(quotaUs));
            }
            return cg;
        }
        if (v2 == null) throw new Unavailable("no cgroup file system is mounted (neither v1 memory and pids hierarchies nor cgroup2)");
        enableControllers(v2);
        TestCgroup cg = new TestCgroup("v2", name, true, List.of(v2.resolve(name)));
        cg.make(List.of(v2));
        Path dir = v2.resolve(name);
        cg.write(dir.resolve("memory.max"), String.valueOf(memoryBytes));
        cg.write(dir.resolve("pids.max"), String.valueOf(pidsMax));
        cg.write(dir.resolve("cpu.max"), quotaUs + " " + periodUs);
        return cg;
    }

    /** cgroup v2 hands a controller to children only when the parent's subtree_control names it. */
    private static void enableControllers(Path parent) throws Unavailable {
        Path control = parent.resolve("cgroup.subtree_control");
        for (String c : List.of("memory", "pids", "cpu")) {
            try {
                if (List.of(Files.readString(control).strip().split("\\s+")).contains(c)) continue;
                Files.writeString(control, "+" + c);
            } catch (IOException e) {
                throw new Unavailable("cannot enable the " + c + " controller in " + control + " (" + e.getMessage() + "): cgroup v2 "
                        + "allows it only where the cgroup has no processes of its own, and only to root outside a container");
            }
        }
    }

    /** The files to write a pid into to move it into every hierarchy of this cgroup. */
    List<Path> procsFiles() {
        return dirs.stream().map(d -> d.resolve("cgroup.procs")).toList();
    }

    private void make(Iterable<Path> mounts) throws Unavailable {
        for (Path m : mounts) removeStale(m);
        Runtime.getRuntime().addShutdownHook(hook);
        for (Path d : dirs) {
            try {
                Files.createDirectory(d);
            } catch (IOException e) {
                close();
                throw new Unavailable("cannot create the cgroup " + d + " (" + e + "): needs root and a writable cgroup file system");
            }
        }
    }

    private void write(Path file, String value) throws Unavailable {
        try {
            Files.writeString(file, value);
        } catch (IOException e) {
            close();
            throw new Unavailable("cannot write " + value + " to " + file + " (" + e.getMessage() + ")");
        }
    }

    /** Folders a killed run left behind: removing a cgroup folder succeeds only when no task is in it. */
    private static void removeStale(Path mount) {
        try (var s = Files.list(mount)) {
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith(PREFIX)).toList()) {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    // still in use by a run in progress: leave it to that run
                }
            }
        } catch (IOException e) {
            // an unreadable mount: create() says so when it cannot make its own folder
        }
    }

    /** Kills what is still in the cgroup (only this test's processes can be) and removes its folders. */
    private void remove() {
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) continue;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (true) {
                try {
                    for (String pid : Files.readAllLines(d.resolve("cgroup.procs"))) {
                        if (!pid.isBlank()) ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                    Files.delete(d);
                    break;
                } catch (IOException | NumberFormatException e) {
                    if (System.nanoTime() > deadline) {
                        System.err.println("could not remove " + d + ": " + e);
                        break;
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
        }
    }

    boolean gone() {
        return dirs.stream().noneMatch(Files::exists);
    }

    @Override
    public void close() {
        remove();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // shutting down already, or never registered: the hook runs (or need not)
        }
    }
}
