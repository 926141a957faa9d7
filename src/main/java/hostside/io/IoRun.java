package hostside.io;

import java.util.List;

import hostside.harness.Result;
import hostside.core.Finding;

/**
 * One run of Module 4's I/O drill.
 *
 * @param machine   the host's name, kernel, architecture and whether it is a VM
 * @param facts     block devices, the data folders' file systems, NICs, RDMA, GPUDirect
 * @param findings  what the storage and network facts mean for training
 * @param file      the file read: its path, size and file system ("" when nothing was measured)
 * @param results   the read and write measurements
 * @param verdicts  what the measurements mean, one line each
 */
public record IoRun(hostside.machine.Host machine, hostside.io.facts.IoFacts facts, List<Finding> findings, FileUsed file, List<Result> results, List<String> verdicts) {
    /** The file the reads went to, and where it lives. */
    public record FileUsed(String path, long bytes, String filesystem, boolean ownTestFile) {}

    /** The JSON of this run, under CONTRACT's schema name: what {@code hostside io --json} prints and the report embeds. */
    public com.fasterxml.jackson.databind.node.ObjectNode json() {
        var n = hostside.core.Json.MAPPER.createObjectNode();
        n.put("schema", hostside.core.Schema.CURRENT);
        n.put("kind", "io");
        n.setAll((com.fasterxml.jackson.databind.node.ObjectNode) hostside.core.Json.MAPPER.valueToTree(this));
        return n;
    }
}
