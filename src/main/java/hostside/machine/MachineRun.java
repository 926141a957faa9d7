package hostside.machine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.doc.Document;
import hostside.harness.DetailFigures;
import hostside.harness.DrillRun;
import hostside.harness.Result;

/**
 * One run of Module 1: the facts, what the GPU drill read and measured, the GPU-to-GPU matrix that
 * joins the two (the PCIe tree from the facts, the NVLinks from the drill's NVML read), and the CPU
 * memory measurements (null in a document made before they existed, or when none was asked for).
 */
public record MachineRun(MachineFacts facts, GpuDrill.GpuSection gpu, GpuMatrix gpuMatrix, MemoryDrill.MemorySection memory) implements DrillRun {

    public MachineRun(MachineFacts facts, GpuDrill.GpuSection gpu) {
        this(facts, gpu, GpuMatrix.of(facts, gpu), null);
    }

    public MachineRun(MachineFacts facts, GpuDrill.GpuSection gpu, GpuMatrix gpuMatrix) {
        this(facts, gpu, gpuMatrix, null);
    }

    /**
     * The facts' findings (with the host memory's measured ones beside them), each GPU's nearest NIC
     * for GPUDirect RDMA, then each GPU's copies and launches.
     */
    @Override
    public List<Finding> conclusions() {
        List<Finding> all = new ArrayList<>(facts.findings());
        if (facts.affinity() != null) all.addAll(facts.affinity().verdicts());
        if (gpu != null) for (GpuDrill.GpuRun g : gpu.runs()) all.addAll(g.verdicts());
        return all;
    }

    @Override
    public Document document() {
        return MachineDocument.of(this);
    }

    /**
     * Every measured figure, typed (docs/contract.md, Typed figures): the memory figures with their scopes
     * (the machine, a node, a pair of nodes, a CPU), each GPU's results about that GPU
     * (by PCI address), the all-GPU results about the machine, and beside each the figures its
     * detail holds (the bidirectional copy's other direction, a sweep's peak and half-peak sizes,
     * each GPU's share of an all-at-once copy, one figure per ordered pair of GPUs). Facts are not
     * figures: nothing here was read from sysfs.
     */
    @Override
    public List<Figure> figures() {
        List<Figure> f = new ArrayList<>();
        if (memory != null) f.addAll(memory.figures());
        if (gpu == null) return f;
        for (GpuDrill.GpuRun r : gpu.runs()) {
            for (Result x : r.results()) f.addAll(DetailFigures.of(x, Scope.gpu(r.pciAddress())));
        }
        for (Result x : gpu.allGpus()) f.addAll(DetailFigures.of(x, Scope.MACHINE));
        return f;
    }

    /**
     * Module 1's document (docs/schema/machine.schema.json): the facts, with the GPU drill beside it under "gpu", the matrix under
     * "gpuMatrix", the memory measurements under "memory", and every figure, flat, under "figures".
     */
    @Override
    @JsonValue
    public ObjectNode json() {
        ObjectNode n = Json.MAPPER.valueToTree(facts);
        n.set("gpu", Json.MAPPER.valueToTree(gpu));
        n.set("gpuMatrix", Json.MAPPER.valueToTree(gpuMatrix));
        if (memory != null) n.set("memory", Json.MAPPER.valueToTree(memory));
        n.set("figures", Json.MAPPER.valueToTree(figures()));
        return n;
    }

    /**
     * Reads {@link #json()} back: the facts are the top level (docs/schema/machine.schema.json), "gpu" and
     * "gpuMatrix" beside them; "figures" is derived, so it is made again rather than read. A
     * document without a matrix (none had one before the GPU matrix existed) gets it from the facts.
     * Details read as their records once the drill's cases are registered ({@link hostside.harness.DetailTypes}).
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static MachineRun read(ObjectNode n) throws IOException {
        ObjectNode facts = n.deepCopy();
        facts.remove(List.of("gpu", "gpuMatrix", "memory", "figures", "load")); // load: set beside it by the command line
        MachineFacts f = Json.MAPPER.treeToValue(facts, MachineFacts.class); // the top level: a failure's path is already the JSON's
        // each part through Json.at, so that a failure names its part ("data.gpu.runs[0]", not "data.runs[0]")
        GpuDrill.GpuSection g = n.hasNonNull("gpu") ? Json.at(n, "gpu", () -> Json.MAPPER.treeToValue(n.get("gpu"), GpuDrill.GpuSection.class)) : null;
        GpuMatrix m = n.hasNonNull("gpuMatrix") ? Json.at(n, "gpuMatrix", () -> Json.MAPPER.treeToValue(n.get("gpuMatrix"), GpuMatrix.class)) : GpuMatrix.of(f, g);
        MemoryDrill.MemorySection mem = n.hasNonNull("memory")
                ? Json.at(n, "memory", () -> Json.MAPPER.treeToValue(n.get("memory"), MemoryDrill.MemorySection.class)) : null;
        return new MachineRun(f, g, m, mem);
    }
}
