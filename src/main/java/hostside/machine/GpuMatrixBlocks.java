package hostside.machine;

import static hostside.machine.MachineDocument.left;
import static hostside.machine.MachineDocument.row;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.doc.Block;
import hostside.doc.Text;

/**
 * GPU to GPU as {@code nvidia-smi topo -m} prints it, with what each GPU's NVLinks are, the pairs
 * alike in one row, what the driver and the switch ports let peer traffic do, and the matrix's
 * notes. Shown when there are two GPUs or more.
 */
final class GpuMatrixBlocks {
    private GpuMatrixBlocks() {}

    static Optional<Block> of(GpuMatrix m) {
        if (m == null || m.gpus().size() < 2) return Optional.empty();
        List<Block> b = new ArrayList<>();
        b.add(new Block.Paragraph(Text.of("In ").andCode("nvidia-smi topo -m").plain(" terms: " + GpuMatrix.LEGEND + ".")));
        List<Block.Table.Column> columns = new ArrayList<>(List.of(left("")));
        for (String g : m.gpus()) columns.add(left(g));
        List<List<Text>> rows = new ArrayList<>();
        for (int i = 0; i < m.gpus().size(); i++) {
            List<Text> r = new ArrayList<>(row(m.gpus().get(i)));
            for (String cell : m.matrix().get(i)) r.add(Text.of(cell));
            rows.add(r);
        }
        b.add(new Block.Table(columns, rows));
        List<String> lines = new ArrayList<>(linkLines(m));
        lines.addAll(PeerPath.lines(m.peers()));
        lines.addAll(m.notes());
        alike(m).ifPresent(b::add);
        if (!lines.isEmpty()) b.add(new Block.Bullets(lines.stream().map(Text::of).toList()));
        return Optional.of(new Block.Section("GPU to GPU", b));
    }

    /** One line per GPU with NVLinks ("GPU0: 18 NVLinks up (NVLink 4.0), 18 to NVSwitches"); GPUs alike share a line. */
    static List<String> linkLines(GpuMatrix m) {
        Map<String, List<String>> byText = new LinkedHashMap<>();
        for (GpuMatrix.GpuLinks l : m.links()) {
            if (l.unknown() != null || l.active() == null || l.active() + l.inactiveLinks().size() == 0) continue;
            List<String> where = new ArrayList<>();
            if (l.toSwitches() > 0) where.add(l.toSwitches() + " to NVSwitches");
            if (l.toGpus() > 0) where.add(l.toGpus() + " to GPUs");
            if (l.toOther() > 0) where.add(l.toOther() + " to a CPU (IBM NPU)");
            String text = l.active() + " NVLink" + (l.active() == 1 ? "" : "s") + " up"
                    + (l.versions().isEmpty() ? "" : " (NVLink " + String.join(", ", l.versions()) + ")")
                    + (where.isEmpty() ? "" : ", " + String.join(", ", where))
                    + (l.inactiveLinks().isEmpty() ? "" : "; " + l.inactiveLinks().size() + " down");
            byText.computeIfAbsent(text, x -> new ArrayList<>()).add(l.gpu());
        }
        List<String> lines = new ArrayList<>();
        byText.forEach((text, gpus) -> lines.add(String.join(", ", gpus) + ": " + text));
        if (lines.isEmpty() && m.notes().isEmpty()) lines.add("no NVLink: GPUs reach each other over PCIe only");
        return lines;
    }

    /** The NVLink pairs, those alike in one row: an 8-GPU board is one row, not 28. */
    static Optional<Block> alike(GpuMatrix m) {
        Map<List<String>, List<String>> alike = new LinkedHashMap<>();
        for (GpuMatrix.Pair p : m.pairs()) {
            if (!p.nvlink()) continue;
            alike.computeIfAbsent(List.of(String.valueOf(p.nvlinks()), p.via(), String.join(", ", p.versions())), x -> new ArrayList<>()).add(p.key());
        }
        if (alike.isEmpty()) return Optional.empty();
        int pairs = m.pairs().size();
        List<List<Text>> rows = new ArrayList<>();
        for (var e : alike.entrySet()) {
            List<String> keys = e.getValue();
            rows.add(row(keys.size() == pairs ? "all " + pairs : keys.size() <= 4 ? String.join(", ", keys) : keys.size() + " pairs",
                    e.getKey().get(0), e.getKey().get(1), e.getKey().get(2)));
        }
        return Optional.of(new Block.Table(List.of(left("pairs"), MachineDocument.right("NVLinks"), left("path"), left("NVLink version")), rows));
    }
}
