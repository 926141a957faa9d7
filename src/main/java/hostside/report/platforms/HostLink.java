package hostside.report.platforms;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.machine.PciLink;

/**
 * How host memory reaches a machine's GPUs, as its hardware class names it: a PCIe link of some
 * generation and width (at the link's maximum, what the slot and the card can do), NVLink-C2C (the
 * GPU uses the CPU's page tables), one memory (an integrated GPU), no GPU, or not known. Made where
 * the link is first known (Fleet's hardware class); a report holds it as the short words a fleet
 * groups by ("pcie-gen5-x16", "c2c", "integrated", "none", "unknown"), which {@link #parse} reads
 * back, so that reading the class is the only place those words are taken apart.
 *
 * @param generation the PCIe generation, 1 to 7; null for a link that is not PCIe, or one at a rate
 *                   no generation has
 * @param width      the PCIe lanes; null for a link that is not PCIe
 */
public record HostLink(Kind kind, Integer generation, Integer width) {
    public enum Kind { PCIE, C2C, INTEGRATED, NONE, UNKNOWN }

    public static final HostLink C2C = new HostLink(Kind.C2C, null, null);
    public static final HostLink INTEGRATED = new HostLink(Kind.INTEGRATED, null, null);
    public static final HostLink NONE = new HostLink(Kind.NONE, null, null);
    public static final HostLink UNKNOWN = new HostLink(Kind.UNKNOWN, null, null);

    public HostLink {
        if (kind == null) throw new IllegalArgumentException("a host link has a kind");
        if ((kind == Kind.PCIE) != (width != null)) throw new IllegalArgumentException("a PCIe link, and only one, has a width: " + kind + ", " + width);
        if (width != null && width < 1) throw new IllegalArgumentException("a PCIe link has at least one lane, not " + width);
        if (generation != null && (kind != Kind.PCIE || PciLink.rate(generation) == null))
            throw new IllegalArgumentException("PCIe has no generation " + generation);
    }

    /** A PCIe link from its transfer rate per lane (GT/s) and its lanes, as sysfs gives them. */
    public static HostLink pcie(double gts, int width) {
        int generation = PciLink.generation(gts);
        return new HostLink(Kind.PCIE, generation == 0 ? null : generation, width);
    }

    public boolean isPcie() {
        return kind == Kind.PCIE;
    }

    /** The rate per lane of this link's generation, GT/s; null where the generation is not known. */
    public Double gtPerS() {
        return generation == null ? null : PciLink.rate(generation);
    }

    /** "PCIe Gen5 x16", "PCIe x16" where the generation is not known; empty for a link that is not PCIe. */
    public String pcieWords() {
        return !isPcie() ? "" : "PCIe " + (generation == null ? "" : "Gen" + generation + " ") + "x" + width;
    }

    /** The class's words: "pcie-gen5-x16", "pcie-x16" (a rate no generation has), "c2c", "integrated", "none", "unknown". */
    @JsonValue
    @Override
    public String toString() {
        return switch (kind) {
            case PCIE -> "pcie-" + (generation == null ? "" : "gen" + generation + "-") + "x" + width;
            case C2C -> "c2c";
            case INTEGRATED -> "integrated";
            case NONE -> "none";
            case UNKNOWN -> "unknown";
        };
    }

    // "gen5"; "gen2.7gts", a rate no generation has, as hostside wrote it before it named those "pcie-xW"
    private static final Pattern PCIE = Pattern.compile("pcie-(?:(?:gen(\\d)|gen\\d+(?:\\.\\d+)?gts)-)?x(\\d{1,3})");

    /**
     * The class's words read back, as a report holds them; null stays null (a report that did not say).
     * Words it did not write are refused: a hand-edited class must not place a machine by a guess.
     */
    @JsonCreator
    public static HostLink parse(String words) {
        if (words == null) return null;
        String w = words.trim();
        Matcher m = PCIE.matcher(w);
        if (m.matches()) {
            try {
                return new HostLink(Kind.PCIE, m.group(1) == null ? null : Integer.valueOf(m.group(1)), Integer.valueOf(m.group(2)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + w + "' is not a PCIe link: " + e.getMessage(), e);
            }
        }
        return switch (w) {
            case "c2c" -> C2C;
            case "integrated" -> INTEGRATED;
            case "none" -> NONE;
            case "unknown" -> UNKNOWN;
            default -> throw new IllegalArgumentException("'" + w + "' is not a host link as hostside writes one (pcie-gen5-x16, c2c, integrated, none, unknown)");
        };
    }

    /** The class this link places a machine in among the reference platforms: "pcie", "c2c", "integrated"; null where none. */
    public String placementClass() {
        return switch (kind) {
            case PCIE -> "pcie";
            case C2C -> "c2c";
            case INTEGRATED -> "integrated";
            case NONE, UNKNOWN -> null;
        };
    }
}
