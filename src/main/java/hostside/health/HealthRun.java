package hostside.health;

import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.doc.Document;
import hostside.harness.DrillRun;

/**
 * One run of {@code hostside health}: what was read, every finding, and the checks that looked
 * and found nothing wrong.
 *
 * @param verdict  the one line at the top (as {@code --format line} prints it)
 * @param facts    what was read
 * @param findings every finding, worst first
 * @param passed   the checks that read their facts and found nothing
 */
@JsonIgnoreProperties({"schema", "kind", "figures"}) // derived: its JSON reads back into an equal run
public record HealthRun(String verdict, HealthFacts facts, List<Finding> findings, List<Passed> passed) implements DrillRun {
    public HealthRun {
        findings = List.copyOf(findings);
        passed = List.copyOf(passed);
    }

    /** A check that read its facts and found nothing: the rule and what it was about ("GPU0"). */
    public record Passed(String id, String subject) {}

    /** The facts judged by every health rule. */
    public static HealthRun of(HealthFacts facts) {
        Judged j = new Judged();
        GpuChecks.check(facts.nvml(), j);
        if (facts.nvml().notRun() != null && facts.nvidiaGpusOnBus() > 0 && j.findings.isEmpty()) {
            j.add(HealthRules.NOT_JUDGED.unknown("GPUs", "the PCI bus shows " + facts.nvidiaGpusOnBus() + " NVIDIA GPU"
                    + (facts.nvidiaGpusOnBus() == 1 ? "" : "s") + " but NVML could not be used: " + facts.nvml().notRun(), List.of()));
        }
        LinkChecks.check(facts.links(), j);
        HostChecks.check(facts, j);
        XidChecks.check(facts.xids(), j);
        List<Finding> sorted = j.findings.stream().sorted(Comparator.comparing(Finding::severity)).toList();
        return new HealthRun(HealthLine.of(sorted, j.passed.size()), facts, sorted, j.passed);
    }

    /** Whether the GPUs could not be judged at all: GPUs on the bus, or NVML refusing, and no GPU read. */
    public boolean gpusNotJudged() {
        return facts.nvml().gpus().isEmpty() && findings.stream().anyMatch(f -> f.id().equals(HealthRules.NOT_JUDGED.id()) && f.subject().equals("GPUs"));
    }

    /** The worst severity found, OK where nothing was. */
    public Severity worst() {
        return findings.stream().map(Finding::severity).min(Comparator.naturalOrder()).orElse(Severity.OK);
    }

    @Override
    public List<Finding> conclusions() {
        return findings;
    }

    /** None: health reads counters and states, it measures no figure. */
    @Override
    public List<Figure> figures() {
        return List.of();
    }

    @Override
    public Document document() {
        return HealthDocument.of(this);
    }

    @Override
    public ObjectNode json() {
        return Json.document("health", this, figures());
    }
}
