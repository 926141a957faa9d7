package hostside.rack;

import java.util.ArrayList;
import java.util.List;

import hostside.cpu.facts.CpuFacts;
import hostside.cpu.facts.CpuFactsReader;
import hostside.fs.FsRoot;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.cuda.FabricReadiness;
import hostside.gpu.nvml.NvmlFacts;
import hostside.gpu.nvml.NvmlGpu;
import hostside.harness.ProgressSink;
import hostside.harness.TestCase;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;
import hostside.machine.MemoryDrill;
import hostside.memory.MemoryCases;
import hostside.memory.MemoryTarget;
import hostside.vm.VmDrill;
import hostside.vm.facts.VmFacts;

/**
 * Module 5: coherent superchips and NVLink racks. The platform, the rack checklist (../design/rack.md),
 * each GPU's coherence class, and copy engines against SMs reading and writing host memory.
 * {@link RackDocument} says what it shows.
 */
public final class Rack {
    private Rack() {}

    /**
     * @param platform  what kind of machine the verdicts were judged for
     * @param checklist one row per {@link RackItem}, in its order
     * @param machine   the facts and the GPU copies it was judged from
     */
    public record RackRun(Platform platform, List<RackCheck> checklist, List<FabricReadiness> fabricReadiness, MachineRun machine) {}

    /** The copy engine and SM copies both ways: the pairs whose ratio the module is about. */
    public static List<TestCase<Target>> tests() {
        return List.of(new Copies.CePinned(true), new Copies.CePinned(false), new SmAccess.SmCopy(true), new SmAccess.SmCopy(false));
    }

    /** Reads the facts, runs the copies where a GPU is, and judges the checklist. A recording runs nothing. */
    public static RackRun run(FsRoot fs, ProgressSink progress) {
        // STREAM's Triad with every CPU and per node: the checklist's memory_bandwidth item
        List<TestCase<MemoryTarget>> memory = MemoryDrill.tests().stream().filter(t -> t.key().equals(MemoryCases.TRIAD)).toList();
        MachineRun m = MachineDrill.run(fs, memory, null, tests(), List.of(), progress);
        return judge(fs, m, VmDrill.facts(fs), CpuFactsReader.read(fs, m.facts()));
    }

    /**
     * The checklist from what other drills already read and measured (the report's Module 1 run, its
     * vm and cpu facts): only the rack's own facts are read here, and on a live machine with a GPU
     * the fabric readiness test runs (milliseconds: one 2 MiB allocation a GPU).
     */
    public static RackRun judge(FsRoot fs, MachineRun m, VmFacts vm, CpuFacts cpu) {
        RackFacts facts = RackFactsReader.read(fs, m.facts());
        Platform platform = Platform.of(m.facts(), facts);
        List<FabricReadiness> readiness = List.of();
        RackChecklist.LiveChecks live = null;
        if (fs.isLive() && platform.kind() != Platform.Kind.NO_GPU) {
            if (m.gpu().notRun().isEmpty()) readiness = readiness(m.gpu().nvml());
            live = new RackChecklist.LiveChecks(RackLiveChecks.of(platform, m.facts(), m.gpu().nvml(), readiness, m.gpu()));
        }
        List<RackCheck> checks = RackChecklist.of(new RackChecklist.Inputs(platform, m.facts(), vm, cpu, facts, m.memory(), live));
        return new RackRun(platform, checks, readiness, m);
    }

    /**
     * NCCL's readiness test on every GPU CUDA sees, each with what NVML says of its fabric. The
     * clique's size is left unknown: this host's GPUs alone can under-count it (a GH200 NVL32 has
     * one GPU per host), and an under-count would skip the allocation that decides.
     */
    static List<FabricReadiness> readiness(NvmlFacts nvml) {
        if (!(Cuda.open() instanceof Cuda.Open.Ready ready)) return List.of();
        List<FabricReadiness> out = new ArrayList<>();
        CudaFacts cf;
        try {
            cf = CudaFacts.read(ready.cuda());
        } catch (CudaException e) {
            return List.of(); // the copies above already said why CUDA could not describe its GPUs
        }
        for (CudaFacts.CudaGpu g : cf.gpus()) {
            FabricReadiness.Fabric fabric = null;
            if (nvml != null && nvml.ran()) {
                fabric = nvml.gpus().stream().filter(n -> g.pciAddress().equals(n.pciBusId()) && n.fabric() != null
                                && n.fabric().state() != NvmlGpu.Fabric.State.UNDEFINED)
                        .findFirst().map(n -> new FabricReadiness.Fabric(FabricReadiness.Fabric.State.valueOf(n.fabric().state().name()),
                                n.fabric().hasCluster(), null))
                        .orElse(null);
            }
            out.add(FabricReadiness.check(ready.cuda(), g.ordinal(), fabric));
        }
        return out;
    }
}
