package hostside.core;

/**
 * Something about the machine worth acting on.
 *
 * @param severity bad (costs performance now), warn (may cost it, check), info
 * @param subject  what it is about: "GPU0", "NUMA", "IOMMU"
 * @param text     one line saying what and what it costs
 * @param code     a stable name for findings that a later step settles ("" for the rest), so
 *                 that nothing has to match the wording of {@code text}
 */
public record Finding(Severity severity, String subject, String text, String code) {
    /** An idle GPU's link below its maximum: settled by the reading under copy load. */
    public static final String IDLE_LINK_BELOW_MAX = "idle-link-below-max";
    /** A PCIe link below its maximum width or speed for certain (under load, or not a GPU that downtrains when idle). */
    public static final String LINK_BELOW_MAX = "link-below-max";

    public static Finding bad(String subject, String text) {
        return new Finding(Severity.BAD, subject, text, "");
    }

    public static Finding warn(String subject, String text) {
        return new Finding(Severity.WARN, subject, text, "");
    }

    public static Finding info(String subject, String text) {
        return new Finding(Severity.INFO, subject, text, "");
    }

    /** Up to six names, then how many more: a finding names what it is about without running on. */
    public static String some(java.util.List<String> items) {
        return items.size() <= 6 ? String.join(", ", items)
                : String.join(", ", items.subList(0, 6)) + " and " + (items.size() - 6) + " more";
    }
}
