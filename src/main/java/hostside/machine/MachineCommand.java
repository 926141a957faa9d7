package hostside.machine;

import java.util.concurrent.Callable;

import hostside.cli.Json;
import hostside.cli.MachineOptions;
import hostside.report.Style;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "machine", mixinStandardHelpOptions = true,
        description = {"Module 1: how the box is wired. Packages, cores, core kinds, caches, NUMA nodes and",
                "distances, the PCIe tree with link speeds, GPU/NIC affinity (nvidia-smi topo -m terms),",
                "the IOMMU and the kernel options that matter."})
public final class MachineCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        MachineFacts facts = MachineReader.read(options.open());
        var out = spec.commandLine().getOut();
        if (options.json) out.print(Json.write(facts));
        else out.print(new MachineView(facts, Style.forTerminal()).render());
        out.flush();
        return 0;
    }
}
