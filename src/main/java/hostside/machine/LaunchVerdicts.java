package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.gpu.bench.LaunchCost;
import hostside.gpu.bench.LaunchCost.LaunchDetail;
import hostside.gpu.bench.LaunchCost.Row;
import hostside.harness.Result;

/**
 * What a launch and a copy submission cost from each kind of core means for the thread that feeds
 * the GPU: on a hybrid CPU, whether it must stay off the small cores (with the taskset line that
 * keeps it on the big ones); on a uniform CPU, what each call costs. Two costs are compared only
 * when their ranges do not overlap, as every verdict of Module 1 compares them.
 */
final class LaunchVerdicts {
    private LaunchVerdicts() {}

    /**
     * @param kindCpus each core kind's CPUs by name, for the taskset line; a kind missing there is
     *                 named by the one CPU measured
     */
    static List<String> of(List<Result> rs, Map<String, CpuSet> kindCpus) {
        Optional<LaunchDetail> found = rs.stream().filter(r -> r.isOk() && r.detail() instanceof LaunchDetail d && !d.rows().isEmpty())
                .map(r -> (LaunchDetail) r.detail()).findFirst();
        if (found.isEmpty()) return List.of();
        List<Row> rows = found.get().rows();
        Row big = rows.getFirst();
        if (rows.size() == 1) {
            return List.of(String.format(Locale.ROOT, "a kernel launch costs %s us of host time, a pinned copy submission %s us (CPU %d%s)",
                    us(big.launchNs()), us(big.submitNs()), big.cpu(), big.kind().equals(LaunchCost.UNIFORM) ? "" : ", " + big.kind()));
        }
        List<String> v = new ArrayList<>();
        for (Row r : rows.subList(1, rows.size())) {
            String from = String.format(Locale.ROOT, "%s us from CPU %d vs %s us from CPU %d", us(r.launchNs()), r.cpu(), us(big.launchNs()), big.cpu());
            if (!r.launchNs().differsFrom(big.launchNs())) {
                v.add(String.format(Locale.ROOT, "launches from %s and %s are even within noise (%s); pinned copy submissions %s vs %s us",
                        plural(r.kind()), plural(big.kind()), from, us(r.submitNs()), us(big.submitNs())));
            } else if (r.launchNs().median() > big.launchNs().median()) {
                String submit = r.submitNs().differsFrom(big.submitNs()) && r.submitNs().median() > big.submitNs().median()
                        ? String.format(Locale.ROOT, ", pinned copy submissions %.1fx (%s vs %s us)", ratio(r.submitNs(), big.submitNs()),
                        us(r.submitNs()), us(big.submitNs()))
                        : "";
                CpuSet cpus = kindCpus.getOrDefault(big.kind(), CpuSet.of(big.cpu()));
                v.add(String.format(Locale.ROOT, "the feeder should not run on %s: launches cost %.1fx (%s)%s; keep the training loop's thread on %s (taskset -c %s)",
                        plural(r.kind()), ratio(r.launchNs(), big.launchNs()), from, submit, plural(big.kind()), cpus));
            } else {
                // a small kind that launches faster beyond the spread: said as measured, no advice against it
                v.add(String.format(Locale.ROOT, "launches from %s cost less than from %s (%s): the feeder loses nothing there",
                        plural(r.kind()), plural(big.kind()), from));
            }
        }
        return v;
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
