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
            if (d.isGpu() || d.isNic() || d.kind() == hostside.machine.PciKind.NVME) {
                for (PciDevice x = d; x != null; x = x.upstream() == null ? null : byAddress.get(x.upstream())) keep.add(x.address());
            }
        }
        TreeSet<String> roots = new TreeSet<>();
        for (PciDevice d : pci) if (keep.contains(d.address()) && d.upstream() == null) roots.add(root(d));
        List<List<Text>> rows = new ArrayList<>();
        for (String root : roots) {
            rows.add(MachineDocument.row(root.equals("(unknown)") ? "host bridge unknown" : root, "", "host bridge", ""));
            branch(rows, root, "", children, keep);
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

    private static void branch(List<List<Text>> rows, String parent, String indent, Map<String, List<PciDevice>> children, Set<String> keep) {
        List<PciDevice> kids = children.getOrDefault(parent, List.of()).stream().filter(d -> keep.contains(d.address())).toList();
        for (int i = 0; i < kids.size(); i++) {
            PciDevice d = kids.get(i);
            boolean last = i == kids.size() - 1;
            String link = d.link() == null ? "" : d.link().current() + (d.link().belowMaxSpeed() || d.link().belowMaxWidth() ? " (max " + d.link().max() + ")" : "");
            rows.add(MachineDocument.row(indent + (last ? "└─" : "├─") + NBSP + d.address(), d.name(), d.description(), link));
            branch(rows, d.address(), indent + (last ? "" + NBSP + NBSP + NBSP : "│" + NBSP + NBSP), children, keep);
        }
    }
}
