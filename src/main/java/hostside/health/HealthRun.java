package hostside.health;

import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Evidence;
import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.doc.Document;
import hostside.gpu.nvml.NvmlHealth;
import hostside.gpu.nvml.NvmlTypes;
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
            String gpus = facts.nvidiaGpusOnBus() + " NVIDIA GPU" + (facts.nvidiaGpusOnBus() == 1 ? "" : "s");
            Evidence e = Evidence.fact("NVML", facts.nvml().notRun());
            if (facts.live()) {
                j.add(HealthRules.NOT_JUDGED.unknown("GPUs", "the PCI bus shows " + gpus + " but NVML could not be used: " + facts.nvml().notRun(),
                        List.of(e)));
            } else {
                j.add(HealthRules.NOT_JUDGED.finding(Severity.INFO, "GPUs", "the recording shows " + gpus + " on its bus but not what NVML"
                        + " answered, so their health is not judged: " + facts.nvml().notRun(), e));
            }
        }
        LinkChecks.check(facts.links(), j);
        HostChecks.check(facts, j);
        XidChecks.check(facts.xids(), facts.live(), j);
        List<Finding> sorted = j.findings.stream().sorted(Comparator.comparing(Finding::severity)).toList();
        return new HealthRun(HealthLine.of(sorted, j.passed.size(), gpusNotJudged(facts)), facts, sorted, j.passed);
    }

    /**
     * Whether the GPUs could not be judged at all: NVML not used while the bus shows NVIDIA GPUs, or
     * NVML refusing this user. A machine without NVIDIA GPUs and without the driver has none to judge.
     */
    public boolean gpusNotJudged() {
        return gpusNotJudged(facts);
    }

    static boolean gpusNotJudged(HealthFacts facts) {
        NvmlHealth n = facts.nvml();
        if (n.notRun() == null) return false;
        return facts.nvidiaGpusOnBus() > 0 || Integer.valueOf(NvmlTypes.NVML_ERROR_NO_PERMISSION).equals(n.notRunCode());
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
