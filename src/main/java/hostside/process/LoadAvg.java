package hostside.process;

import hostside.core.GarbageException;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;

/**
 * /proc/loadavg: "0.31 0.25 0.40 1/85 28097". The averages count runnable and uninterruptible
 * (D state) tasks, so a load above the CPU count with idle CPUs means threads blocked on I/O,
 * not a CPU shortage; {@code runnable} is the kernel's count at this instant, the reader included.
 * The one reader of the file: the checklist's samples, the load before a drill and the report's
 * conditions all read it here.
 *
 * @param runnable  tasks runnable now (the number before the slash)
 * @param entities  scheduling entities (threads) that exist
 * @param lastPid   the PID most recently handed out
 */
public record LoadAvg(double one, double five, double fifteen, int runnable, int entities, long lastPid) {

    /** This machine's, or a recording's; empty where the file is missing or garbled. */
    public static java.util.Optional<LoadAvg> read(FsRoot fs) {
        return fs.text("/proc/loadavg").flatMap(t -> {
            try {
                return java.util.Optional.of(parse(t));
            } catch (GarbageException e) {
                return java.util.Optional.empty();
            }
        });
    }

    public static LoadAvg parse(String text) {
        String[] f = text.strip().split("\\s+");
        if (f.length < 5 || f[3].indexOf('/') < 0) throw garbage(text);
        try {
            String[] re = f[3].split("/", 2);
            LoadAvg l = new LoadAvg(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]),
                    Integer.parseInt(re[0]), Integer.parseInt(re[1]), Long.parseLong(f[4]));
            if (l.one < 0 || l.five < 0 || l.fifteen < 0 || l.runnable < 0 || l.entities < 0 || !Double.isFinite(l.one + l.five + l.fifteen)) throw garbage(text);
            return l;
        } catch (NumberFormatException e) {
            throw garbage(text);
        }
    }

    private static GarbageException garbage(String text) {
        return new GarbageException("not /proc/loadavg: \"" + FactReads.shown(text) + "\"");
    }
}
