package hostside.machine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What hwloc's own output says about a test machine: from lstopo's console output (-v) or its
 * XML. Memory in the console is rounded to the unit shown, so each size carries its precision.
 */
record HwlocExpected(int packages, int cores, int pus, Map<Integer, Size> nodes, List<Size> l3Sizes,
                     Map<String, String> cpuKinds) {

    /** A size in bytes and half the unit it was printed in (the rounding hwloc's console did). */
    record Size(long bytes, long halfUnit) {
        boolean agrees(long ours) {
            long tolerance = Math.max(bytes / 100, halfUnit);
            return Math.abs(ours - bytes) <= tolerance;
        }
    }

    private static final Pattern NODE = Pattern.compile("NUMANode(?:\\(\\w+\\))? L#\\d+ \\(P#(\\d+)(?: local=(\\d+)(\\w+))?");
    private static final Pattern L3 = Pattern.compile("^\\s*L3Cache L#\\d+ \\([^)]*?\\bsize=(\\d+)(\\w+)");
    private static final Pattern KIND = Pattern.compile("^CPU kind #(\\d+) .*cpuset (0x[0-9a-f,x]+)");

    static HwlocExpected read(Path file) throws IOException {
        String text = Files.readString(file);
        return file.toString().endsWith(".xml") ? xml(text) : console(text);
    }

    private static HwlocExpected console(String text) {
        int packages = 0, cores = 0, pus = 0;
        Map<Integer, Size> nodes = new LinkedHashMap<>();
        List<Size> l3 = new ArrayList<>();
        Map<String, String> kinds = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String t = line.strip();
            if (t.startsWith("Package L#")) packages++;
            else if (t.startsWith("Core L#")) cores++;
            else if (t.startsWith("PU L#")) pus++;
            Matcher m = NODE.matcher(t);
            if (t.startsWith("NUMANode") && m.find()) {
                nodes.put(Integer.parseInt(m.group(1)), m.group(2) == null ? null : size(m.group(2), m.group(3)));
            }
            m = L3.matcher(line);
            if (m.find()) l3.add(size(m.group(1), m.group(2)));
            m = KIND.matcher(line);
            if (m.find()) kinds.put(m.group(1), m.group(2));
        }
        return new HwlocExpected(packages, cores, pus, nodes, l3, kinds);
    }

    private static Size size(String n, String unit) {
        long u = switch (unit) {
            case "KiB", "KB" -> 1L << 10;
            case "MiB", "MB" -> 1L << 20;
            case "GiB", "GB" -> 1L << 30;
            case "TiB", "TB" -> 1L << 40;
            default -> 1;
        };
        return new Size(Long.parseLong(n) * u, u / 2);
    }

    private static final Pattern OBJECT = Pattern.compile("<object type=\"(\\w+)\"([^>]*)>");

    private static HwlocExpected xml(String text) {
        int packages = 0, cores = 0, pus = 0;
        Map<Integer, Size> nodes = new LinkedHashMap<>();
        List<Size> l3 = new ArrayList<>();
        Matcher m = OBJECT.matcher(text);
        while (m.find()) {
            String attrs = m.group(2);
            switch (m.group(1)) {
                case "Package" -> packages++;
                case "Core" -> cores++;
                case "PU" -> pus++;
                case "NUMANode" -> nodes.put(Integer.parseInt(attr(attrs, "os_index")),
                        new Size(Long.parseLong(attr(attrs, "local_memory")), 0));
                case "L3Cache" -> l3.add(new Size(Long.parseLong(attr(attrs, "cache_size")), 0));
                default -> { }
            }
        }
        return new HwlocExpected(packages, cores, pus, nodes, l3, Map.of());
    }

    private static String attr(String attrs, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(attrs);
        if (!m.find()) throw new IllegalArgumentException("no " + name + " in " + attrs);
        return m.group(1);
    }
}
