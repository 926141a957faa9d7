package hostside.rack;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Rule;
import hostside.cpu.CpuRun;
import hostside.cpu.facts.CpuFacts;
import hostside.cpu.facts.CpuFactsReader;
import hostside.doc.Document;
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
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.DrillRun;
import hostside.harness.Selection;
import hostside.harness.TestCase;
import hostside.machine.MachineDrill;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;
import hostside.machine.MachineRun;
import hostside.machine.MemoryDrill;
import hostside.memory.MemoryCases;
import hostside.memory.MemoryTarget;
import hostside.vm.VmDrill;
import hostside.vm.VmRun;
import hostside.vm.facts.VmFacts;

/**
 * Module 5: coherent superchips and NVLink racks. The platform, the rack checklist (../design/rack.md),
 * each GPU's coherence class, and copy engines against SMs reading and writing host memory.
 * {@link RackDocument} says what it shows.
 */
public final class Rack implements Drill<Rack.Options, Rack.RackRun> {
    /** The drill, as the registry and the commands drive it. */
    public static final Rack DRILL = new Rack();

    private Rack() {}

    /** None: the checklist asks nothing of its user. */
    public record Options() {}

    /**
     * @param platform  what kind of machine the verdicts were judged for
     * @param checklist one row per {@link RackItem}, in its order
     * @param machine   the facts and the GPU copies it was judged from
     */
    public record RackRun(Platform platform, List<RackCheck> checklist, List<FabricReadiness> fabricReadiness, MachineRun machine) implements DrillRun {
        /** The platform, the checklist, the readiness test per GPU with every step's time, and the copies it judged, typed as machine's. */
        @Override
        public ObjectNode json() {
            ObjectNode n = Json.MAPPER.createObjectNode();
            n.put("schema", MachineFacts.SCHEMA);
            n.put("kind", "rack");
            n.set("platform", Json.MAPPER.valueToTree(platform));
            n.set("checklist", Json.MAPPER.valueToTree(checklist));
            n.set("fabricReadiness", Json.MAPPER.valueToTree(fabricReadiness));
            n.set("gpu", Json.MAPPER.valueToTree(machine.gpu()));
            n.set("figures", Json.MAPPER.valueToTree(figures()));
            return n;
        }

        /** The copy engines' and SMs' figures, as Module 1 measured them. */
        @Override
        public List<Figure> figures() {
            return machine.figures();
        }

        /** Each item's finding; an item that does not apply or was not run is no conclusion about this machine. */
        @Override
        public List<Finding> conclusions() {
            return checklist.stream().map(RackCheck::finding).filter(Objects::nonNull).toList();
        }

        @Override
        public Document document() {
            return RackDocument.of(this);
        }
    }

    @Override
    public String key() {
        return "rack";
    }

    @Override
    public int module() {
        return 5;
    }

    @Override
    public String title() {
        return "Coherent superchips and NVLink racks";
    }

    @Override
    public List<TestCase<?>> cases() {
        List<TestCase<?>> all = new ArrayList<>(triad());
        all.addAll(tests());
        return all;
    }

    @Override
    public List<TestCase<?>> gpuCases() {
        return List.copyOf(tests());
    }

    /** The rack's own facts: the driver's parameters, IMEX, the fabric manager, against Module 1's. */
    @Override
    public RackFacts facts(FsRoot fs) {
        return RackFactsReader.read(fs, MachineReader.read(fs));
    }

    @Override
    public Options defaults() {
        return new Options();
    }

    @Override
    public List<Rule> rules() {
        return RackRules.all();
    }

    @Override
    public Class<RackRun> runType() {
        return RackRun.class;
    }

    /** After Module 1 (the report), it measures nothing: it judges what the drills before it read and measured. */
    @Override
    public boolean measures(DrillContext c) {
        return c.earlier().run(MachineRun.class).isEmpty() && Drill.super.measures(c);
    }

    /**
     * The checklist from the runs before it where Module 1 ran (and Modules 2 and 3's facts where they
     * did, else read now); alone, it reads the facts and runs its copies first.
     */
    @Override
    public RackRun run(DrillContext c, Options o) {
        FsRoot fs = c.fs();
        Optional<MachineRun> before = c.earlier().run(MachineRun.class);
        MachineRun m = before.orElseGet(() -> MachineDrill.DRILL.run(
                new DrillContext(fs, narrowed(c.cases()), c.progress(), c.load(), c.earlier()), MachineDrill.DRILL.defaults()));
        VmFacts vm = c.earlier().run(VmRun.class).map(VmRun::facts).orElseGet(() -> VmDrill.DRILL.facts(fs));
        CpuFacts cpu = c.earlier().run(CpuRun.class).map(CpuRun::facts).orElseGet(() -> CpuFactsReader.read(fs, m.facts()));
        return judge(fs, m, vm, cpu);
    }

    /** Of Module 1's cases, only the rack's: STREAM's Triad (the memory_bandwidth item) and the copies it compares. */
    static Selection narrowed(Selection asked) {
        return new Selection() {
            @Override
            public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
                List<TestCase<C>> mine = group.stream().filter(t -> t.key().equals(MemoryCases.TRIAD)
                        || tests().stream().anyMatch(x -> x.key().equals(t.key()))).toList();
                return asked.pick(mine);
            }
        };
    }

    /** STREAM's Triad with every CPU and per node: the checklist's memory_bandwidth item. */
    static List<TestCase<MemoryTarget>> triad() {
        return MemoryDrill.tests().stream().filter(t -> t.key().equals(MemoryCases.TRIAD)).toList();
    }

    /** The copy engine and SM copies both ways: the pairs whose ratio the module is about. */
    public static List<TestCase<Target>> tests() {
        return List.of(new Copies.CePinned(true), new Copies.CePinned(false), new SmAccess.SmCopy(true), new SmAccess.SmCopy(false));
    }

    /**
     * The checklist from what other drills already read and measured (the report's Module 1 run, its
     * vm and cpu facts): only the rack's own facts are read here, and on a live machine with a GPU
     * the fabric readiness test runs (milliseconds: one 2 MiB allocation a GPU).
     */
    static RackRun judge(FsRoot fs, MachineRun m, VmFacts vm, CpuFacts cpu) {
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
