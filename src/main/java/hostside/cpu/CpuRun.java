package hostside.cpu;

import java.util.List;

import hostside.cpu.facts.CpuFacts;
import hostside.core.Finding;
import hostside.machine.Host;

/**
 * One run of Module 3.
 *
 * @param findings  what the facts mean (IRQs on feeder CPUs, governors, quotas...)
 * @param dataloader copy-on-write growth of forked workers (list vs numpy) and fork vs spawn with CUDA
 * @param verdicts  what the measurements mean, one line each
 */
public record CpuRun(Host machine, CpuFacts facts, List<Finding> findings, CpuDrill.Measured measured,
                     List<hostside.harness.Result> dataloader, List<String> verdicts) {
    /** The JSON of this run, under CONTRACT's schema name: what {@code hostside cpu --json} prints and the report embeds. */
    public com.fasterxml.jackson.databind.node.ObjectNode json() {
        var n = hostside.core.Json.MAPPER.createObjectNode();
        n.put("schema", hostside.core.Schema.CURRENT);
        n.put("kind", "cpu");
        n.setAll((com.fasterxml.jackson.databind.node.ObjectNode) hostside.core.Json.MAPPER.valueToTree(this));
        return n;
    }
}
