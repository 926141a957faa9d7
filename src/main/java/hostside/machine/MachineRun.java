package hostside.machine;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Json;

/**
 * One run of Module 1: the facts, what the GPU drill read and measured, and the GPU-to-GPU
 * matrix that joins the two (the PCIe tree from the facts, the NVLinks from the drill's NVML read).
 */
public record MachineRun(MachineFacts facts, GpuDrill.GpuSection gpu, GpuMatrix gpuMatrix) {

    public MachineRun(MachineFacts facts, GpuDrill.GpuSection gpu) {
        this(facts, gpu, GpuMatrix.of(facts, gpu));
    }

    /** The facts JSON of CONTRACT.md with the GPU drill beside it under "gpu" and the matrix under "gpuMatrix". */
    public ObjectNode json() {
        ObjectNode n = Json.MAPPER.valueToTree(facts);
        n.set("gpu", Json.MAPPER.valueToTree(gpu));
        n.set("gpuMatrix", Json.MAPPER.valueToTree(gpuMatrix));
        return n;
    }
}
