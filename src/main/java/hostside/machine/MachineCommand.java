package hostside.machine;

import hostside.core.Finding;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import hostside.core.Json;
import hostside.cli.MachineOptions;
import hostside.fs.FsRoot;
import hostside.gpu.bench.Target;
import hostside.harness.TestCase;
import hostside.core.Style;
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
        try (hostside.cli.Progress progress = hostside.cli.Progress.forStderr(spec.commandLine().getErr())) {
            run = run(fs, tests, together, progress);
        }
        if (options.json) out.print(Json.write(run.json()));
        else out.print(new MachineView(run, Style.forTerminal()).render());
        out.flush();
        return 0;
    }

    /** Facts, then the GPU drill, each case reported to {@code progress}. */
    public static MachineRun run(FsRoot fs, List<TestCase<Target>> tests, List<TestCase<List<Target>>> together,
                                 hostside.harness.ProgressSink progress) {
        MachineFacts facts = MachineReader.read(fs);
        GpuDrill.GpuSection gpu = GpuDrill.run(fs, facts, tests, together, progress);
        GpuMatrix matrix = GpuMatrix.of(fs, facts, gpu);
        List<Finding> found = new ArrayList<>(matrix.findings());
        found.addAll(PeerVerdicts.of(facts, gpu, matrix));
        return new MachineRun(withFindings(withLinksUnderLoad(facts, gpu), found), gpu, matrix);
    }

    /** The facts with findings that needed more than sysfs (the GPU matrix's, from NVML). */
    static MachineFacts withFindings(MachineFacts facts, List<Finding> more) {
        if (more.isEmpty()) return facts;
        List<Finding> findings = new ArrayList<>(facts.findings());
        findings.addAll(more);
        return new MachineFacts(facts.schema(), facts.host(), facts.topology(), facts.pci(), facts.affinity(), facts.iommu(),
                facts.kernelCmdline(), findings, facts.unknowns());
    }

    /**
     * An idle GPU's slow link is only a suspicion (a warning); the reading under load settles it:
     * at the maximum it was power saving, below it is a fault with a cost.
     */
    static MachineFacts withLinksUnderLoad(MachineFacts facts, GpuDrill.GpuSection gpu) {
        List<Finding> findings = new ArrayList<>(facts.findings());
        for (GpuDrill.GpuRun r : gpu.runs()) {
            PciLink load = r.linkUnderLoad();
            if (load == null || load.speedGTs() == null) continue;
            boolean suspected = findings.removeIf(f -> f.subject().equals(r.gpu()) && f.code().equals(Finding.IDLE_LINK_BELOW_MAX));
            if (!suspected) continue;
            if (load.belowMaxSpeed() || load.belowMaxWidth()) {
                findings.add(Finding.bad(r.gpu(), String.format(Locale.ROOT, "%s stays at %s of %s under load: at most %.1f GB/s per direction instead of %.1f",
                        r.gpu(), load.current(), load.max(), load.currentGBs(), load.maxGBs())));
            } else {
                findings.add(Finding.info(r.gpu(), r.gpu() + "'s link idles below its maximum and runs at " + load.current()
                        + " under load: power saving, not a fault"));
            }
        }
        return new MachineFacts(facts.schema(), facts.host(), facts.topology(), facts.pci(), facts.affinity(), facts.iommu(),
                facts.kernelCmdline(), findings, facts.unknowns());
    }
}
