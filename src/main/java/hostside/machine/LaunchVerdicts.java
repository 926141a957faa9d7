package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.CpuSet;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.LaunchCost;
import hostside.gpu.bench.LaunchCost.LaunchDetail;
import hostside.gpu.bench.LaunchCost.Row;
import hostside.harness.Result;

/**
 * What a launch and a copy submission cost from each kind of core means for the thread that feeds
 * the GPU ({@link GpuRules#LAUNCH_CORES}): on a hybrid CPU, whether it must stay off the small cores
 * (with the taskset line that keeps it on the big ones); on a uniform CPU, what each call costs. Two
 * costs are compared only when their ranges do not overlap, as every verdict of Module 1 compares
 * them, and a kind is kept off only where it costs a fifth more.
 */
final class LaunchVerdicts {
    private LaunchVerdicts() {}

    /**
     * @param kindCpus each core kind's CPUs by name, for the taskset line; a kind missing there is
     *                 named by the one CPU measured
     * @param busy     what made the machine busy as the drill began; empty where it was quiet or not read
     */
    static List<Finding> of(List<Result> rs, Map<String, CpuSet> kindCpus, List<String> busy) {
        return GpuRules.Judged.findings(judge(rs, kindCpus), busy);
    }

    static List<GpuRules.Judged> judge(List<Result> rs, Map<String, CpuSet> kindCpus) {
        Optional<Result> found = rs.stream().filter(r -> r.isOk() && r.detail() instanceof LaunchDetail d && !d.rows().isEmpty()).findFirst();
        if (found.isEmpty()) return List.of();
        List<Row> rows = ((LaunchDetail) found.get().detail()).rows();
        Row big = rows.getFirst();
        if (rows.size() == 1) {
            String text = String.format(Locale.ROOT, "a kernel launch costs %s us of host time, a pinned copy submission %s us (CPU %d%s)",
                    us(big.launchNs()), us(big.submitNs()), big.cpu(), big.kind().equals(LaunchCost.UNIFORM) ? "" : ", " + big.kind());
            return List.of(new GpuRules.Judged(GpuRules.LAUNCH_CORES, Severity.INFO, "CPU " + big.cpu(), text, text, evidence(big)));
        }
        List<GpuRules.Judged> v = new ArrayList<>();
        for (Row r : rows.subList(1, rows.size())) {
            String from = String.format(Locale.ROOT, "%s us from CPU %d vs %s us from CPU %d", us(r.launchNs()), r.cpu(), us(big.launchNs()), big.cpu());
            List<Evidence> read = new ArrayList<>(evidence(r));
            read.addAll(evidence(big));
            String subject = r.kind();
            if (!r.launchNs().differsFrom(big.launchNs())) {
                String text = String.format(Locale.ROOT, "launches from %s and %s are even within noise (%s); pinned copy submissions %s vs %s us",
                        plural(r.kind()), plural(big.kind()), from, us(r.submitNs()), us(big.submitNs()));
                v.add(new GpuRules.Judged(GpuRules.LAUNCH_CORES, Severity.INFO, subject, text, text, read));
            } else if (r.launchNs().median() > big.launchNs().median()) {
                String submit = r.submitNs().differsFrom(big.submitNs()) && r.submitNs().median() > big.submitNs().median()
                        ? String.format(Locale.ROOT, ", pinned copy submissions %.1fx (%s vs %s us)", ratio(r.submitNs(), big.submitNs()),
                        us(r.submitNs()), us(big.submitNs()))
                        : "";
                String figures = String.format(Locale.ROOT, "launches from %s cost %.1fx those from %s (%s)%s", plural(r.kind()),
                        ratio(r.launchNs(), big.launchNs()), plural(big.kind()), from, submit);
                if (ratio(r.launchNs(), big.launchNs()) < GpuRules.LAUNCH_RATIO) {
                    // beyond the noise but small: said as measured, no advice against the kind
                    v.add(new GpuRules.Judged(GpuRules.LAUNCH_CORES, Severity.INFO, subject, figures, figures
                            + String.format(Locale.ROOT, ": under %.1fx, the feeder loses little there", GpuRules.LAUNCH_RATIO), read));
                    continue;
                }
                CpuSet cpus = kindCpus.getOrDefault(big.kind(), CpuSet.of(big.cpu()));
                v.add(new GpuRules.Judged(GpuRules.LAUNCH_CORES, Severity.WARN, subject, figures, String.format(Locale.ROOT,
                        "the feeder should not run on %s: launches cost %.1fx (%s)%s; keep the training loop's thread on %s (taskset -c %s)",
                        plural(r.kind()), ratio(r.launchNs(), big.launchNs()), from, submit, plural(big.kind()), cpus), read));
            } else {
                // a small kind that launches faster beyond the spread: said as measured, no advice against it
                String text = String.format(Locale.ROOT, "launches from %s cost less than from %s (%s): the feeder loses nothing there",
                        plural(r.kind()), plural(big.kind()), from);
                v.add(new GpuRules.Judged(GpuRules.LAUNCH_CORES, Severity.INFO, subject, text, text, read));
            }
        }
        return v;
    }

    /** One core's two costs as evidence, by the figures' keys (their scope, the CPU, is in the finding's text). */
    private static List<Evidence> evidence(Row r) {
        return List.of(Evidence.of(LaunchCost.LAUNCH, r.launchNs().median(), Unit.NS), Evidence.of(LaunchCost.SUBMIT, r.submitNs().median(), Unit.NS));
    }

    /** "E-core" to "E-cores", "big" to "big cores", "Cortex-A725" to "Cortex-A725 cores". */
    static String plural(String kind) {
        return kind.toLowerCase(Locale.ROOT).endsWith("core") ? kind + "s" : kind + " cores";
    }

    private static double ratio(Stats a, Stats b) {
        return a.median() / b.median();
    }

    private static String us(Stats ns) {
        return String.format(Locale.ROOT, "%.2f", ns.median() / 1000);
    }
}
