package hostside.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import hostside.doc.Block;
import hostside.doc.Text;

/**
 * The PCIe tree from each host bridge down to the GPUs, NICs and NVMe drives (and the bridges
 * above them), as a table whose first column draws the branches. The branches are drawn with
 * no-break spaces: a renderer keeps them as they are (Markdown and HTML would fold ordinary
 * spaces into one and lose the tree's shape).
 */
final class PcieTree {
    private PcieTree() {}

    private static final char NBSP = '\u00a0';
    static final String TITLE = "PCIe tree (GPUs, NICs, NVMe and the bridges above them)";

    static Block of(List<PciDevice> pci) {
        Map<String, PciDevice> byAddress = new HashMap<>();
        for (PciDevice d : pci) byAddress.put(d.address(), d);
        Map<String, List<PciDevice>> children = new HashMap<>();
        Set<String> keep = new HashSet<>();
        for (PciDevice d : pci) {
            children.computeIfAbsent(parent(d), x -> new ArrayList<>()).add(d);
            if (d.isGpu() || d.isNic() || d.kind() == PciKind.NVME) keep.addAll(UpstreamChain.of(d, byAddress).addresses());
        }
        TreeSet<String> roots = new TreeSet<>();
        for (PciDevice d : pci) if (keep.contains(d.address()) && d.upstream() == null) roots.add(root(d));
        List<List<Text>> rows = new ArrayList<>();
        Set<String> drawn = new HashSet<>();
        for (String root : roots) {
            rows.add(MachineDocument.row(root.equals("(unknown)") ? "host bridge unknown" : root, "", "host bridge", ""));
            branch(rows, root, "", 0, children, keep, drawn);
        }
        return new Block.Section(TITLE, List.of(new Block.Table(List.of(MachineDocument.left("device"), MachineDocument.left("name"),
                MachineDocument.left("what"), MachineDocument.left("link now")), rows)));
    }

    private static String root(PciDevice d) {
        return d.hostBridge() == null ? "(unknown)" : d.hostBridge();
    }

    private static String parent(PciDevice d) {
        return d.upstream() != null ? d.upstream() : root(d);
    }

    /**
     * The functions below {@code parent}, each drawn once: a report's JSON may name one address
     * twice, or give a host bridge the address of a function, and a function met again would
     * draw its branch for ever. Each level draws addresses not drawn before, and PCIe's own bound
     * ({@link UpstreamChain#MAX_DEPTH}) stops the depth.
     */
    private static void branch(List<List<Text>> rows, String parent, String indent, int depth, Map<String, List<PciDevice>> children,
                               Set<String> keep, Set<String> drawn) {
        if (depth >= UpstreamChain.MAX_DEPTH) return;
        List<PciDevice> kids = new ArrayList<>();
        for (PciDevice d : children.getOrDefault(parent, List.of())) if (keep.contains(d.address()) && drawn.add(d.address())) kids.add(d);
        for (int i = 0; i < kids.size(); i++) {
            PciDevice d = kids.get(i);
            boolean last = i == kids.size() - 1;
            String link = d.link() == null ? "" : d.link().current() + (d.link().belowMaxSpeed() || d.link().belowMaxWidth() ? " (max " + d.link().max() + ")" : "");
            rows.add(MachineDocument.row(indent + (last ? "└─" : "├─") + NBSP + d.address(), d.name(), d.description(), link));
            branch(rows, d.address(), indent + (last ? "" + NBSP + NBSP + NBSP : "│" + NBSP + NBSP), depth + 1, children, keep, drawn);
        }
    }
}
