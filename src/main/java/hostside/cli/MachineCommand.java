package hostside.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.TextRenderer;
import hostside.gpu.bench.Target;
import hostside.harness.TestCase;
import hostside.machine.GpuDrill;
import hostside.machine.MachineDocument;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "machine", mixinStandardHelpOptions = true,
        header = "How the box is wired, and what copies to the GPUs cost.",
        description = {"Module 1: packages, cores, core kinds, caches, NUMA nodes and their distances, the PCIe tree with link speeds, GPU/NIC affinity (in nvidia-smi topo -m terms), the IOMMU and the kernel options that matter.",
                "Then each GPU's view of host memory and the copy measurements: pinned against pageable memory, copy engine against SMs, latency and a size sweep."})
public final class MachineCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Mixin
    hostside.cli.MeasureOptions measure;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        List<TestCase<?>> everything = new ArrayList<>(GpuDrill.tests());
        everything.addAll(GpuDrill.allGpuTests());
        everything.addAll(hostside.gpu.peer.PeerCopies.loopbacks());
        if (measure.list) {
            hostside.cli.MeasureOptions.printList(out, everything);
            return 0;
        }
        List<TestCase<Target>> tests = new ArrayList<>(measure.pick(GpuDrill.tests(), everything));
        // the self-checks run only by name: a plain run would spend minutes checking what needs no check
        if (!measure.only.isEmpty()) tests.addAll(measure.pick(hostside.gpu.peer.PeerCopies.loopbacks(), everything));
        List<TestCase<List<Target>>> together = measure.pick(GpuDrill.allGpuTests(), everything);
        MachineRun run;
        hostside.fs.FsRoot fs = options.open(); // unpacking a recording has its own progress line
        hostside.process.MachineLoad load = DrillLoad.before(fs, !tests.isEmpty() || !together.isEmpty());
        try (hostside.cli.Progress progress = hostside.cli.Progress.forStderr(spec.commandLine().getErr())) {
            hostside.harness.ProgressSink sink = DrillLoad.sayingBusy(progress, "machine", load, spec.commandLine().getErr());
            run = MachineDrill.run(fs, tests, together, sink);
        }
        if (options.json) out.print(Json.write(DrillLoad.json(run.json(), load)));
        else out.print(new TextRenderer(Style.forTerminal()).render(DrillLoad.document(MachineDocument.of(run), "machine", load)));
        out.flush();
        return 0;
    }

}
