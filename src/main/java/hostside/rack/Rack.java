package hostside.rack;

import java.util.List;

import hostside.cpu.facts.CpuFacts;
import hostside.cpu.facts.CpuFactsReader;
import hostside.fs.FsRoot;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Target;
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
    public record RackRun(Platform platform, List<RackCheck> checklist, MachineRun machine) {}

    /** The copy engine and SM copies both ways: the pairs whose ratio the module is about. */
    public static List<TestCase<Target>> tests() {
        return List.of(new Copies.CePinned(true), new Copies.CePinned(false), new SmAccess.SmCopy(true), new SmAccess.SmCopy(false));
    }

    /** Reads the facts, runs the copies where a GPU is, and judges the checklist. A recording runs nothing. */
    public static RackRun run(FsRoot fs, ProgressSink progress) {
        // STREAM's Triad with every CPU and per node: the checklist's memory_bandwidth item
        List<TestCase<MemoryTarget>> memory = MemoryDrill.tests().stream().filter(t -> t.key().equals(MemoryCases.TRIAD)).toList();
        MachineRun m = MachineDrill.run(fs, memory, null, tests(), List.of(), progress);
        VmFacts vm = VmDrill.facts(fs);
        CpuFacts cpu = CpuFactsReader.read(fs, m.facts());
        RackFacts facts = RackFactsReader.read(fs, m.facts());
        Platform platform = Platform.of(m.facts(), facts);
        List<RackCheck> checks = RackChecklist.of(new RackChecklist.Inputs(platform, m.facts(), vm, cpu, facts, m.memory(), null));
        return new RackRun(platform, checks, m);
    }
}
