package hostside.machine;

/**
 * Something about the machine worth acting on.
 *
 * @param severity bad (costs performance now), warn (may cost it, check), info
 * @param subject  what it is about: "GPU0", "NUMA", "IOMMU"
 * @param text     one line saying what and what it costs
 */
public record Finding(String severity, String subject, String text) {
    public static Finding bad(String subject, String text) {
        return new Finding("bad", subject, text);
    }

    public static Finding warn(String subject, String text) {
        return new Finding("warn", subject, text);
    }

    public static Finding info(String subject, String text) {
        return new Finding("info", subject, text);
    }
}
