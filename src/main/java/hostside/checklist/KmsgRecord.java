package hostside.checklist;

import hostside.fs.FactReads;
import hostside.core.GarbageException;

/**
 * One record of /dev/kmsg: "prio,seq,timestamp,flags[,...];message", then optional continuation
 * lines (" SUBSYSTEM=pci") that carry structured fields. prio holds the facility above the
 * three bits of the level; the timestamp is microseconds since boot on the kernel's clock,
 * the one /proc/uptime follows on a machine that has not been suspended.
 *
 * @param level    0 (emergency) to 7 (debug)
 * @param message  the text as the kernel escaped it (non-printable bytes as \xNN)
 */
public record KmsgRecord(int facility, int level, long seq, long timestampUs, String message) {

    public static KmsgRecord parse(String text) {
        int semi = text.indexOf(';');
        if (semi <= 0) throw garbage(text);
        String[] head = text.substring(0, semi).split(",");
        if (head.length < 4) throw garbage(text);
        Long prio = FactReads.parseNumber(head[0]), seq = FactReads.parseNumber(head[1]), ts = FactReads.parseNumber(head[2]);
        if (prio == null || seq == null || ts == null || prio > Integer.MAX_VALUE) throw garbage(text);
        String body = text.substring(semi + 1);
        int nl = body.indexOf('\n');
        String message = nl < 0 ? body : body.substring(0, nl);
        return new KmsgRecord((int) (prio >> 3), (int) (prio & 7), seq, ts, message);
    }

    public double secondsSinceBoot() {
        return timestampUs / 1e6;
    }

    private static GarbageException garbage(String text) {
        return new GarbageException("not a /dev/kmsg record: \"" + FactReads.shown(text) + "\"");
    }
}
