package hostside.machine;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.cli.Json;

/** One run of Module 1: the facts, and what the GPU drill read and measured. */
public record MachineRun(MachineFacts facts, GpuDrill.GpuSection gpu) {

    /** The facts JSON of CONTRACT.md with the GPU drill beside it under "gpu". */
    public ObjectNode json() {
        ObjectNode n = Json.MAPPER.valueToTree(facts);
        n.set("gpu", Json.MAPPER.valueToTree(gpu));
        return n;
    }
}
