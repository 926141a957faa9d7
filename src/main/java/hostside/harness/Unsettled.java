package hostside.harness;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Source;

/**
 * The rule every measuring drill judges its adaptive loops by: a figure whose median never came to
 * be known to its case's precision within the case's samples and time ({@link Settling}). That is
 * the machine speaking, not the tool: a longer run would have hidden it, so the run stops and says
 * so. Each drill holds its module's rule ({@code M<module>-UNSETTLED}) beside its other rules.
 */
public final class Unsettled {
    private Unsettled() {}

    /** Module {@code module}'s rule: warn where a case's median did not settle. */
    public static Rule rule(int module) {
        return Rule.of("M" + module + "-UNSETTLED", "measured figures whose median did not settle to its case's precision in its samples and time",
                EnumSet.of(Severity.WARN, Severity.UNKNOWN),
                "the machine's speed moved while it was measured (other work, a VM's neighbours, frequency or power changes): the figures beside"
                        + " it are one moment's, and a training step on this machine will vary as they did",
                "run again with nothing else on the machine; if it does not settle on a quiet machine, find the noise (`hostside cpu`'s timer"
                        + " jitter and its hogs' run, `top`, the VM's host) before trusting or tuning by these figures",
                Source.reasoned("the median's distribution-free interval (order statistics, at least 90% confidence) wider than the case's precision"
                        + " when its sample or time cap came, or early where its samples' spread put that precision out of reach: 1% for copies and"
                        + " memory bandwidth, the case's own elsewhere (harness.Sampling)"));
    }

    /**
     * The warning of {@code rule} about the results that did not settle; none where every adaptive
     * loop settled. Where {@code busy} names what kept the machine busy as the drill began, unknown:
     * the busy machine explains it, and says nothing of this one quiet.
     */
    public static Optional<Finding> finding(Rule rule, List<Result> results, String subject, List<String> busy) {
        List<Result> loose = results.stream().filter(Result::unsettled).toList();
        if (loose.isEmpty()) return Optional.empty();
        String each = String.join("; ", loose.stream().map(Unsettled::said).toList());
        List<Evidence> evidence = loose.stream().filter(r -> r.value() != null).map(r -> Evidence.of(r.key(), r.value().median(), r.unit())).toList();
        String said = loose.size() + " of " + results.stream().filter(r -> r.settling() != null).count() + " adaptive figures did not settle: " + each;
        return Optional.of(rule.measured(Severity.WARN, subject, said, said, evidence, busy));
    }

    /** {@code findings}, then {@code rule}'s warning about {@code results} where one did not settle. */
    public static List<Finding> adding(List<Finding> findings, Rule rule, List<Result> results, String subject, List<String> busy) {
        List<Finding> all = new ArrayList<>(findings);
        finding(rule, results, subject, busy).ifPresent(all::add);
        return all;
    }

    /** "seq_read_cold_qd1: 12 samples in 4.1 s, its median known to 7.3% (asked 5%), stopped at its time cap". */
    static String said(Result r) {
        Settling s = r.settling();
        String stop = switch (s.stop()) {
            case TIME_CAP -> "its time cap";
            case OUT_OF_REACH -> "its samples' spread (more would not have settled it)";
            default -> "its most samples";
        };
        return String.format(Locale.ROOT, "%s: %d samples in %.1f s, its median known to %.1f%% (asked %.1f%%), stopped at %s",
                r.key(), s.samples(), s.seconds(), s.halfWidth() * 100, s.within() * 100, stop);
    }
}
