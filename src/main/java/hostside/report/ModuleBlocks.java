package hostside.report;

import java.util.ArrayList;
import java.util.List;

import hostside.container.ContainerDocument;
import hostside.cpu.CpuDocument;
import hostside.cpu.CpuRun;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.harness.DrillRun;
import hostside.io.IoDocument;
import hostside.machine.MachineDocument;
import hostside.machine.MachineRun;
import hostside.rack.RackDocument;
import hostside.vm.VmDocument;
import hostside.vm.VmRun;

/**
 * A module's own document, drawn inside the report: each drill describes what it shows once, and
 * the report nests it under the module's heading (its subtitle, which names the machine the
 * report's title already names, is left out).
 */
final class ModuleBlocks {
    private ModuleBlocks() {}

    static List<Block> of(Object data) {
        return switch (data) {
            case null -> List.of();
            case MachineRun m -> MachineDocument.of(m).blocks();
            case VmRun v -> VmDocument.of(v).blocks();
            case CpuRun c -> CpuDocument.of(c).blocks();
            case Report.Storage s -> storage(s);
            case Report.Rack r -> RackDocument.blocks(r.platform(), r.checklist(), r.fabricReadiness());
            case DrillRun r -> r.document().blocks(); // a drill the report's pages do not name: its own document
            default -> throw new IllegalArgumentException("no module holds a " + data.getClass().getSimpleName());
        };
    }

    /** Module 4: storage and network, then the container's limits as a part of their own. */
    private static List<Block> storage(Report.Storage s) {
        List<Block> b = new ArrayList<>(IoDocument.of(s.io()).blocks());
        if (s.container() != null) {
            Document c = ContainerDocument.of(s.container());
            b.add(new Block.Section(c.title().replaceFirst("^hostside container: ", "Container: "), c.blocks()));
        }
        return b;
    }
}
