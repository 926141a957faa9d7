package hostside.cpu;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.cpu.facts.CpuFacts;
import hostside.doc.Document;
import hostside.harness.DrillRun;
import hostside.harness.Result;
import hostside.machine.Host;

/**
 * One run of Module 3. Its JSON ({@link #json()}) reads back into an equal record once the drill's
 * cases are registered ({@link hostside.harness.DetailTypes}, {@link CpuDrill#cases()}); the keys
 * it derives (schema, kind, figures) are not read.
 *
 * @param findings   what the facts mean (IRQs on feeder CPUs, governors, quotas...)
 * @param dataloader copy-on-write growth of forked workers (list vs numpy) and fork vs spawn with CUDA
 * @param verdicts   what the measurements mean, one line each
 */
@JsonIgnoreProperties({"schema", "kind", "figures", "load"}) // derived, or (load) set beside it by the command line
public record CpuRun(Host machine, CpuFacts facts, List<Finding> findings, CpuDrill.Measured measured, List<Result> dataloader, List<Finding> verdicts) implements DrillRun {
    public CpuRun {
        findings = List.copyOf(findings);
        dataloader = List.copyOf(dataloader);
        verdicts = List.copyOf(verdicts);
    }

    /** The facts' findings, then the measured ones. */
    @Override
    public List<Finding> conclusions() {
        return DrillRun.both(findings, verdicts);
    }

    @Override
    public Document document() {
        return CpuDocument.of(this);
    }

    /**
     * Every measured figure, typed: each result that ran (the scheduler cases pinned to CPUs about
     * those CPUs, the rest about the machine), the kernel's share of a syscall, and per jitter
     * condition its lateness p99 and p99.9, its share of missed ticks and its launch time.
     */
    @Override
    public List<Figure> figures() {
        return CpuFigures.of(this);
    }

    /** The JSON of this run, under the schema name hostside/2 (docs/schema): what {@code hostside cpu --json} prints and the report embeds. */
    @Override
    public ObjectNode json() {
        return Json.document("cpu", this, figures());
    }
}
