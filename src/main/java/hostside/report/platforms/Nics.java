package hostside.report.platforms;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.machine.PciDevice;

/**
 * A machine's NICs as its hardware class groups them: how many of each speed, and whether they do
 * RDMA. Made from the NIC records Module 1 read ({@link #of}); a report holds it as the short words
 * a fleet groups by ("8x400g-rdma,2x100g", "1xunknown", "none"), which {@link #parse} reads back,
 * so that reading the class is the only place those words are taken apart.
 *
 * @param groups in the order the NICs were first seen, one per speed and RDMA
 */
public record Nics(List<Group> groups) {
    public Nics {
        groups = List.copyOf(groups);
    }

    /**
     * NICs of one speed and kind.
     *
     * @param count how many
     * @param gbps  their speed in whole Gb/s (the kernel's Mb/s divided by 1000, rounded down, as the
     *              class has always named it); null where the kernel does not say
     * @param rdma  whether they do RDMA
     */
    public record Group(int count, Integer gbps, boolean rdma) {
        public Group {
            if (count < 1) throw new IllegalArgumentException("a group of NICs has at least one, not " + count);
            if (gbps != null && gbps < 0) throw new IllegalArgumentException("a NIC's speed is not negative: " + gbps);
        }

        /** "8x400g-rdma", "1xunknown". */
        @Override
        public String toString() {
            return count + "x" + (gbps == null ? "unknown" : gbps + "g") + (rdma ? "-rdma" : "");
        }
    }

    public static final Nics NONE = new Nics(List.of());

    /** The NICs Module 1 read, grouped by speed and RDMA in the order first seen; a speed of 0 or less is not known. */
    public static Nics of(List<PciDevice> nics) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (PciDevice n : nics) {
            Integer gbps = n.netSpeedMbps() == null || n.netSpeedMbps() <= 0 ? null : n.netSpeedMbps() / 1000;
            groups.merge(gbps + "/" + n.rdma(), new Group(1, gbps, n.rdma()), (a, b) -> new Group(a.count() + 1, a.gbps(), a.rdma()));
        }
        return new Nics(new ArrayList<>(groups.values()));
    }

    /**
     * The fastest group's Gb/s per GPU over {@code gpus} GPUs: the compute fabric's, since slower ones
     * are storage and management; null where no speed is known or there is no GPU.
     */
    public Double gbpsPerGpu(int gpus) {
        if (gpus <= 0) return null;
        int fastest = groups.stream().filter(g -> g.gbps() != null).mapToInt(Group::gbps).max().orElse(0);
        if (fastest == 0) return null;
        int count = groups.stream().filter(g -> g.gbps() != null && g.gbps() == fastest).mapToInt(Group::count).sum();
        return (double) fastest * count / gpus;
    }

    public boolean isEmpty() {
        return groups.isEmpty();
    }

    /** The class's words: "2x400g-rdma,1x25g,1xunknown", "none". */
    @JsonValue
    @Override
    public String toString() {
        if (groups.isEmpty()) return "none";
        List<String> parts = new ArrayList<>();
        for (Group g : groups) parts.add(g.toString());
        return String.join(",", parts);
    }

    private static final Pattern GROUP = Pattern.compile("(\\d+)x(?:(\\d+)g|unknown)(-rdma)?");

    /**
     * The class's words read back, as a report holds them; null stays null (a report that did not say).
     * Words it did not write are refused: a hand-edited class must not place a machine by a guess.
     */
    @JsonCreator
    public static Nics parse(String words) {
        if (words == null) return null;
        String w = words.trim();
        if (w.equals("none") || w.isEmpty()) return NONE;
        List<Group> groups = new ArrayList<>();
        for (String part : w.split(",")) {
            Matcher m = GROUP.matcher(part.trim());
            if (!m.matches()) throw new IllegalArgumentException("'" + part.trim() + "' is not a group of NICs as hostside writes one (8x400g-rdma, 1xunknown)");
            try {
                groups.add(new Group(Integer.parseInt(m.group(1)), m.group(2) == null ? null : Integer.valueOf(m.group(2)), m.group(3) != null));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part.trim() + "': a count or speed out of range", e);
            }
        }
        return new Nics(groups);
    }
}
