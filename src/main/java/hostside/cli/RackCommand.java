package hostside.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.rack.Rack;

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
        return DrillCommand.run(spec, options, null, Rack.DRILL, Rack.DRILL.defaults());
    }
}
