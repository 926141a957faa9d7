package hostside.cli;

import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.machine.MachineFacts;
import hostside.rack.Rack;
import hostside.rack.RackDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "rack", mixinStandardHelpOptions = true,
        header = "Coherent superchips and NVLink racks: the rack checklist.",
        description = {"Module 5: coherent superchips and NVLink racks. The platform and its checklist (page size, THP, init_on_alloc, NUMA balancing, GPU memory as NUMA nodes or CDMM, node roles, a binding line per GPU, governor, power meter cap, IOMMU, PCI power, fabric manager, IMEX, GPUDirect and the items only a live machine answers), how each GPU sees host memory (its coherence class), and the copy engines against SMs reading and writing CPU memory.",
                "With --root, every item a recording can answer is answered; the rest say \"not run: recorded machine\"."})
public final class RackCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        FsRoot fs = options.open();
        Rack.RackRun run;
        try (Progress progress = Progress.forStderr(spec.commandLine().getErr())) {
            run = Rack.run(fs, progress);
        }
        var out = spec.commandLine().getOut();
        if (options.json) {
            ObjectNode n = Json.MAPPER.createObjectNode();
            n.put("schema", MachineFacts.SCHEMA);
            n.put("kind", "rack");
            n.set("platform", Json.MAPPER.valueToTree(run.platform()));
            n.set("checklist", Json.MAPPER.valueToTree(run.checklist()));
            n.set("fabricReadiness", Json.MAPPER.valueToTree(run.fabricReadiness())); // per GPU, every step with its time
            n.set("gpu", Json.MAPPER.valueToTree(run.machine().gpu()));
            n.set("figures", Json.MAPPER.valueToTree(run.machine().figures())); // the copy engines' and SMs' figures, typed as machine's
            out.print(Json.write(n));
        } else {
            out.print(new TextRenderer(Style.forTerminal()).render(RackDocument.of(run)));
        }
        out.flush();
        return 0;
    }
}
