package hostside.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import hostside.core.Finding;
import hostside.core.Stats;
import hostside.core.Versus;
import hostside.cpu.measure.LaunchJitter;
import hostside.harness.Result;

/**
 * A quiet jitter condition that came out noisier than its noisy twin (the hogs') is a disturbed
 * run: something else took the CPUs while it ran, so neither figure is the machine's, and
 * nothing is read into the pair. "Noisier" follows the noise rule ({@link Versus}): a p99, p99.9
 * or count of missed ticks above the noisy one's by more than either run's own spread (the range
 * over its {@link LaunchJitter#SEGMENTS} segments).
 */
final class JitterNoise {
    private JitterNoise() {}

    /** The quiet and noisy keys of each pair: the timer's, the launch's. */
    static final List<List<String>> PAIRS = List.of(List.of("timer_jitter_quiet", "timer_jitter_noisy"), List.of("launch_jitter_quiet", "launch_jitter_noisy"));

    /** One finding per pair whose quiet run came out noisier than its noisy one. */
    static List<Finding> findings(List<Result> rs) {
        List<Finding> out = new ArrayList<>();
        for (List<String> pair : PAIRS) {
            Optional<Result> quiet = MeasuredVerdicts.jitterOk(rs, pair.get(0)), noisy = MeasuredVerdicts.jitterOk(rs, pair.get(1));
            if (quiet.isEmpty() || noisy.isEmpty()) continue;
            Result q = quiet.get(), n = noisy.get();
            disturbed(q, n).ifPresent(why -> out.add(CpuRules.JITTER_DISTURBED.unknown("jitter",
                    pair.get(0) + " came out noisier than " + pair.get(1) + " (" + why + "): something else ran during the quiet run, so neither"
                            + " is this machine's figure and the pair is not interpreted; run again with nothing else running",
                    List.of(MeasuredVerdicts.evidence(q), MeasuredVerdicts.evidence(n)))));
        }
        return out;
    }

    /**
     * Why {@code quiet} is noisier than {@code noisy} beyond both spreads ("p99 120 us (100-150)
     * against 60 us (55-70)"); empty when it is not, and when either run kept no segments (a
     * report from before them): without a spread there is no telling noise from a disturbance.
     */
    static Optional<String> disturbed(Result quiet, Result noisy) {
        LaunchJitter.Detail q = MeasuredVerdicts.d(quiet), n = MeasuredVerdicts.d(noisy);
        if (q.segments() == null || q.segments().size() < 2 || n.segments() == null || n.segments().size() < 2) return Optional.empty();
        List<String> why = new ArrayList<>();
        above("p99", "us", q, n, LaunchJitter.Detail::p99Us).ifPresent(why::add);
        above("p99.9", "us", q, n, LaunchJitter.Detail::p999Us).ifPresent(why::add);
        above("missed ticks per segment", "", q, n, LaunchJitter.Detail::missedPerSegment).ifPresent(why::add);
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
    }

    private static Optional<String> above(String what, String unit, LaunchJitter.Detail q, LaunchJitter.Detail n, Function<LaunchJitter.Detail, Stats> figure) {
        Stats a = figure.apply(q), b = figure.apply(n);
        if (Versus.of(a, b) != Versus.ABOVE) return Optional.empty();
        return Optional.of(what + " " + range(a, unit) + " against " + range(b, unit));
    }

    /** "120 us (100-150)": the figure with its spread. */
    static String range(Stats s, String unit) {
        String u = unit.isEmpty() ? "" : " " + unit;
        if (s.spread() == 0) return String.format(Locale.ROOT, "%.0f%s", s.median(), u);
        return String.format(Locale.ROOT, "%.0f%s (%.0f-%.0f)", s.median(), u, s.min(), s.max());
    }
}
