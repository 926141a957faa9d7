package hostside.vm;

import java.util.List;

import hostside.harness.Result;
import hostside.core.Finding;
import hostside.vm.facts.VmFacts;

/**
 * One run of Module 2.
 *
 * @param machine   the host's name, kernel, architecture and whether it is a VM
 *
 * @param findings  what the facts mean for training (settings)
 * @param host      the host measurements
 * @param verdicts  what the measurements mean, one line each
 */
public record VmRun(hostside.machine.Host machine, VmFacts facts, List<Finding> findings, List<Result> host, VmGpu gpu, List<String> verdicts) {
    /** The JSON of this run, under CONTRACT's schema name: what {@code hostside vm --json} prints and the report embeds. */
    public com.fasterxml.jackson.databind.node.ObjectNode json() {
        var n = hostside.core.Json.MAPPER.createObjectNode();
        n.put("schema", hostside.core.Schema.CURRENT);
        n.put("kind", "vm");
        n.setAll((com.fasterxml.jackson.databind.node.ObjectNode) hostside.core.Json.MAPPER.valueToTree(this));
        return n;
    }
}
