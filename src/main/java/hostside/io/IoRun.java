package hostside.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.doc.Document;
import hostside.harness.DrillRun;
import hostside.harness.Result;
import hostside.io.facts.IoFacts;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;
import hostside.machine.Host;

/**
 * One run of Module 4's I/O drill.
 *
 * @param machine   the host's name, kernel, architecture and whether it is a VM
 * @param facts     block devices, the data folders' file systems, NICs, RDMA, GPUDirect
 * @param findings  what the storage and network facts mean for training
 * @param file      the file read: its path, size and file system; null when nothing was measured
 * @param results   the read and write measurements
 * @param verdicts  what the measurements mean: a finding of one of {@link IoRules}' rules each (a report from before
 *                  findings were typed holds lines of text, read as info findings of no rule)
 *
 * <p>Its JSON reads back into an equal run (a run of schema hostside/1 once the report's upgrade has rewritten it).
 */
@JsonIgnoreProperties({"schema", "kind", "figures", "container", "load"}) // derived, or set beside it by the report (container) or the command line (load)
public record IoRun(Host machine, IoFacts facts, List<Finding> findings, FileUsed file,
                    List<Result> results, List<Finding> verdicts) implements DrillRun {
    /** The file the reads went to, and where it lives. */
    public record FileUsed(String path, long bytes, String filesystem, boolean ownTestFile) {}

    /**
     * What every figure is about: the folder of the file read (the writes go there too), where
     * checkpoints live; the machine when no file was read.
     */
    public Scope scope() {
        if (file == null) return Scope.MACHINE;
        Path parent = Path.of(file.path()).getParent();
        return Scope.dir(parent == null ? file.path() : parent.toString());
    }

    /** The storage's findings, then the measured ones (a loader on the slower path). */
    @Override
    public List<Finding> conclusions() {
        return DrillRun.both(findings, verdicts);
    }

    @Override
    public Document document() {
        return IoDocument.of(this);
    }

    /**
     * Every measured figure, typed (docs/contract.md, Typed figures): each result's own, then the ones
     * its detail holds (a read's other unit, latency p50 and p99, page cache; a write's fsync time).
     */
    @Override
    public List<Figure> figures() {
        Scope scope = scope();
        List<Figure> out = new ArrayList<>();
        for (Result r : results) {
            if (r.figure(scope).isEmpty()) continue;
            out.add(r.figure(scope).get());
            switch (r.detail()) {
                case ReadTest.ReadDetail d -> out.addAll(d.figures(r, scope));
                case WriteTest.WriteDetail w -> out.addAll(w.figures(r, scope));
                case null, default -> { }
            }
        }
        return out;
    }

    /** The JSON of this run, under the schema name hostside/2 (docs/schema): what {@code hostside io --json} prints and the report embeds. */
    @Override
    public ObjectNode json() {
        return Json.document("io", this, figures());
    }
}
