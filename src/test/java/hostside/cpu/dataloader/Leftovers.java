package hostside.cpu.dataloader;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;

import hostside.fs.FsRoot;

/** The processes a run started, to check that none is left afterwards. */
final class Leftovers implements LongConsumer {
    final List<ProcessHandle> seen = new CopyOnWriteArrayList<>();

    @Override
    public void accept(long pid) {
        ProcessHandle.of(pid).ifPresent(seen::add); // the handle keeps the start time: a reused pid is not ours
    }

    /** Ours still running after waiting up to two seconds (a zombie no longer runs: its memory is gone). */
    List<ProcessHandle> running() throws InterruptedException {
        long end = System.nanoTime() + 2_000_000_000L;
        List<ProcessHandle> left;
        do {
            left = seen.stream().filter(h -> h.isAlive() && !ProcMemory.gone(FsRoot.live().text("/proc/" + h.pid() + "/status"))).toList();
            if (left.isEmpty()) break;
            Thread.sleep(20);
        } while (System.nanoTime() < end);
        return left;
    }

    /** Our scripts' temporary folders now in java.io.tmpdir. */
    static java.util.Set<String> tempFolders() throws java.io.IOException {
        try (var s = java.nio.file.Files.list(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("hostside-python-"))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    /** Folders in {@code after} that were not in {@code before}. */
    static java.util.Set<String> newFolders(java.util.Set<String> before) throws java.io.IOException {
        java.util.Set<String> now = new java.util.HashSet<>(tempFolders());
        now.removeAll(before);
        return now;
    }

    /**
     * Processes running one of our scripts from its temporary folder that are this JVM's or
     * orphans (their parent gone, adopted by init): not another JVM's run going on at the same time.
     */
    static List<String> scriptsRunning() {
        List<Long> mine = ProcessHandle.current().descendants().map(ProcessHandle::pid).toList();
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().orElse("").contains("hostside-python-"))
                .filter(h -> mine.contains(h.pid()) || h.parent().map(p -> p.pid() == 1).orElse(true))
                .filter(h -> !ProcMemory.gone(FsRoot.live().text("/proc/" + h.pid() + "/status")))
                .map(h -> h.pid() + " " + h.info().commandLine().orElse(""))
                .toList();
    }
}
