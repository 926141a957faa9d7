package hostside.cpu.dataloader;

import java.util.Optional;
import java.util.OptionalLong;

import hostside.fs.FsRoot;
import hostside.core.GarbageException;
import hostside.fs.MemInfo;
import hostside.fs.Read;
import hostside.process.ProcStatus;

/**
 * One look at one process's memory, through {@link FsRoot}: smaps_rollup for RSS, PSS and USS,
 * and /proc/PID/status's VmRSS beside it as a cross-check (the kernel's per-process counter,
 * kept apart from the page walk that smaps_rollup does; the two must agree within a few pages).
 *
 * <p>Processes end while they are watched: a read of a /proc/PID that has gone, or of a zombie
 * (smaps_rollup then fails with "No such process"), is {@link Look.Vanished}, not an error.
 */
public final class ProcMemory {
    private ProcMemory() {}

    /**
     * What one process held at one moment, bytes; {@code vmRss} and {@code vmHwm} (the peak RSS
     * so far, what getrusage's ru_maxrss and so /usr/bin/time -v report) are -1 when status had none.
     */
    public record Sample(long atMillis, long rss, long pss, long uss, long shared, long swap, long vmRss, long vmHwm) {}

    /** The outcome of one look. */
    public sealed interface Look {
        record Seen(Sample sample) implements Look {}

        /** The process has exited (or is a zombie): expected at the end of a run. */
        record Vanished(long pid, String why) implements Look {}

        /** The process is there but its file could not be read or made sense of. */
        record Unreadable(long pid, String why) implements Look {}
    }

    public static Look look(FsRoot fs, long pid, long atMillis) {
        String dir = "/proc/" + pid;
        Read rollup = fs.read(dir + "/smaps_rollup");
        Optional<String> status = fs.text(dir + "/status");
        if (!rollup.ok()) {
            if (gone(status)) return new Look.Vanished(pid, rollup.why());
            return new Look.Unreadable(pid, rollup.why());
        }
        SmapsRollup r;
        try {
            r = SmapsRollup.parse(((Read.Ok) rollup).text());
        } catch (GarbageException e) {
            if (gone(status)) return new Look.Vanished(pid, e.getMessage());
            return new Look.Unreadable(pid, dir + "/smaps_rollup: " + e.getMessage());
        }
        OptionalLong rss = r.rss(), pss = r.pss(), uss = r.uss(), shared = r.shared();
        if (rss.isEmpty() || pss.isEmpty() || uss.isEmpty() || shared.isEmpty()) {
            return new Look.Unreadable(pid, dir + "/smaps_rollup: no Rss, Pss, Private_* or Shared_* line");
        }
        ProcStatus st = ProcStatus.lines(status.orElse(""));
        return new Look.Seen(new Sample(atMillis, rss.getAsLong(), pss.getAsLong(), uss.getAsLong(), shared.getAsLong(),
                r.swap().orElse(0), orMinusOne(st.bytes("VmRSS")), orMinusOne(st.bytes("VmHWM"))));
    }

    /** A Sample's size, -1 where the status file does not say. */
    private static long orMinusOne(Long bytes) {
        return bytes == null ? -1 : bytes;
    }

    /** The kernel's base page size, from a process's smaps (KernelPageSize of its first mapping); 4096 when unknown. */
    public static long pageSize(FsRoot fs, long pid) {
        return fs.text("/proc/" + pid + "/smaps").flatMap(s -> s.lines().filter(l -> l.startsWith("KernelPageSize:")).findFirst())
                .map(l -> MemInfo.parse(l).get("KernelPageSize").orElse(4096)).orElse(4096L);
    }

    /** No status file, or state Z (zombie) or X (dead): the process's memory is gone. */
    static boolean gone(Optional<String> status) {
        if (status.isEmpty()) return true;
        for (String line : status.get().split("\n")) {
            if (line.startsWith("State:")) {
                String s = line.substring(6).strip();
                return s.startsWith("Z") || s.startsWith("X");
            }
        }
        return false;
    }
}
