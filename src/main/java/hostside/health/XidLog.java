package hostside.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import hostside.checklist.KernelLog;
import hostside.checklist.KmsgRecord;
import hostside.checklist.Xid;
import hostside.core.Printable;

/**
 * The NVIDIA Xid reports the kernel log still holds, counted by GPU and Xid: since boot, as far
 * as the ring buffer goes. A recording has no kernel log (/dev/kmsg is a device), and a user
 * without CAP_SYSLOG may not read it: then {@code notRead} says why and nothing is taken as clean.
 *
 * @param notRead  null when read; else why not
 * @param seen     one entry per GPU and Xid, in the order first seen
 */
public record XidLog(String notRead, List<Seen> seen) {
    public XidLog {
        seen = List.copyOf(seen);
    }

    /**
     * One Xid of one GPU.
     *
     * @param pci          the GPU as the driver names it ("0000:3b:00", no function)
     * @param code         the Xid
     * @param count        how many reports the log holds
     * @param lastAgoSeconds seconds between the last report and the read; null when /proc/uptime could not say
     * @param hardware     the catalog blames the GPU, its memory or link, not the program
     * @param meaning      NVIDIA's meaning in a few words
     * @param lastText     the last report's text after the Xid, made printable
     */
    public record Seen(String pci, int code, int count, Double lastAgoSeconds, boolean hardware, String meaning, String lastText) {}

    public static XidLog notRead(String why) {
        return new XidLog(why, List.of());
    }

    /** What a recording says instead of its kernel log: it has none, /dev/kmsg being a device. */
    static final String RECORDED = "a recorded machine has no kernel log (/dev/kmsg is a device, not a file under /proc)";

    /** The Xids of a kernel log as read. */
    public static XidLog of(KernelLog log) {
        if (!log.read()) return notRead(log.notRead());
        Map<String, Seen> by = new LinkedHashMap<>();
        for (KmsgRecord r : log.records()) {
            Xid x = Xid.parse(r.message()).orElse(null);
            if (x == null) continue;
            Double ago = log.nowSeconds() == null ? null : Math.max(0, log.nowSeconds() - r.secondsSinceBoot());
            String key = x.pci() + "/" + x.code();
            Seen before = by.get(key);
            by.put(key, new Seen(x.pci(), x.code(), before == null ? 1 : before.count() + 1, ago, x.hardware(), x.meaning(),
                    Printable.of(x.detail())));
        }
        return new XidLog(null, new ArrayList<>(by.values()));
    }

    /** "Xid 79 x2 on 0000:3b:00, 12 min ago". */
    static String describe(Seen s) {
        String when = s.lastAgoSeconds() == null ? "" : ", last " + ago(s.lastAgoSeconds()) + " ago";
        return String.format(Locale.ROOT, "Xid %d%s on %s%s (%s)", s.code(), s.count() > 1 ? " x" + s.count() : "", s.pci(), when, s.meaning());
    }

    static String ago(double seconds) {
        if (seconds < 120) return String.format(Locale.ROOT, "%.0f s", seconds);
        if (seconds < 7200) return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        if (seconds < 172800) return String.format(Locale.ROOT, "%.0f h", seconds / 3600);
        return String.format(Locale.ROOT, "%.0f days", seconds / 86400);
    }
}
