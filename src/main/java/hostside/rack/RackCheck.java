package hostside.rack;

/**
 * One row of the rack checklist (CONTRACT.md: {@code {item, value, verdict, why, fix}}).
 *
 * @param value   what was read, in a few words with units ("64 KiB", "madvise, 512 MiB huge pages")
 * @param why     what the value means here, for this platform; for an unknown or not-run item, why
 * @param fix     what to do; "" when nothing is to be done
 */
public record RackCheck(RackItem item, String value, RackVerdict verdict, String why, String fix) {
    public RackCheck {
        if (item == null || verdict == null) throw new IllegalArgumentException("a check needs its item and verdict");
        value = value == null ? "" : value;
        why = why == null ? "" : why;
        fix = fix == null ? "" : fix;
    }

    static RackCheck of(RackItem item, RackVerdict verdict, String value, String why, String fix) {
        return new RackCheck(item, value, verdict, why, fix);
    }

    static RackCheck ok(RackItem item, String value, String why) {
        return new RackCheck(item, value, RackVerdict.OK, why, "");
    }

    static RackCheck na(RackItem item, String why) {
        return new RackCheck(item, "-", RackVerdict.NA, why, "");
    }

    static RackCheck notRun(RackItem item, String why) {
        return new RackCheck(item, "-", RackVerdict.NOT_RUN, why, "");
    }

    static RackCheck unknown(RackItem item, String why, String fix) {
        return new RackCheck(item, "unknown", RackVerdict.UNKNOWN, why, fix);
    }
}
