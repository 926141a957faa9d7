package hostside.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import hostside.core.Better;
import hostside.core.Distribution;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.SchedCosts;
import hostside.harness.Result;

/**
 * Module 3's typed figures: each result that ran, about the machine or about the CPUs it was
 * pinned to, and the figures a fleet compares that live inside the details: the kernel's share of
 * a syscall, and per jitter condition the tail of its lateness (p99, p99.9), the ticks it missed
 * (as a share and as refs timer's count) and, on a GPU, what a launch call costs.
 */
final class CpuFigures {
    private CpuFigures() {}

    static List<Figure> of(CpuRun run) {
        List<Figure> out = new ArrayList<>();
        if (run.measured() != null) {
            for (Result r : run.measured().results()) {
                r.figure(scope(r)).ifPresent(out::add);
                if (r.isOk() && r.detail() instanceof SchedCosts.Syscall.Detail d) out.add(kernelShare(r, d));
                if (r.isOk() && r.detail() instanceof LaunchJitter.Detail d) out.addAll(jitter(r, d));
            }
        }
        for (Result r : run.dataloader()) r.figure(Scope.MACHINE).ifPresent(out::add);
        return out;
    }

    /** The CPUs a scheduler case was pinned to (one, or the pair); the machine for the rest. */
    static Scope scope(Result r) {
        return switch (r.detail()) {
            case SchedCosts.PingPong.Detail d -> Scope.cpus(d.cpus());
            case SchedCosts.Wakeup.Detail d -> Scope.cpus(d.cpus());
            case SchedCosts.Migration.Detail d -> Scope.cpus(d.cpus());
            case null, default -> Scope.MACHINE;
        };
    }

    /**
     * The syscall less the native call's own cost: the kernel's share. No peer measures it alone (a
     * C loop's figure includes its call, as syscall_getppid does), so it names none.
     */
    static Figure kernelShare(Result r, SchedCosts.Syscall.Detail d) {
        return one(r.key() + "_kernel", Unit.NS, d.kernelNs(), r.value().samples(),
                "the syscall's median less that of a native call that stays in user space (labs(3)); " + r.method(), null);
    }

    static List<Figure> jitter(Result r, LaunchJitter.Detail d) {
        List<Figure> out = new ArrayList<>();
        int wakes = r.value().samples();
        quantile(r, "_p99", d.lateNs(), Distribution::p99, "p99 of the wake-up lateness", wakes).ifPresent(out::add);
        quantile(r, "_p999", d.lateNs(), Distribution::p999, "p99.9 of the wake-up lateness", wakes).ifPresent(out::add);
        int ticks = wakes + (int) Math.min(Integer.MAX_VALUE - wakes, d.missedTicks());
        out.add(one(r.key() + "_missed_ticks", Unit.PERCENT, 100 * d.missedShare(wakes), ticks,
                "ticks already passed when the feeder woke, skipped as cyclictest skips them, % of all ticks; " + r.method(), r.anchor()));
        // the count refs timer prints ("missed ticks N"), for a run of the same length
        out.add(one(r.key() + "_missed_count", Unit.COUNT, d.missedTicks(), ticks,
                "ticks already passed when the feeder woke, skipped and counted as refs timer counts them, over " + wakes + " wake-ups; " + r.method(),
                r.anchor()));
        quantile(r, "_launch_p50", d.launchNs(), Distribution::p50, "p50 of the launch call's time", wakes).ifPresent(out::add);
        quantile(r, "_launch_p99", d.launchNs(), Distribution::p99, "p99 of the launch call's time", wakes).ifPresent(out::add);
        return out;
    }

    /** A quantile of a series in ns, as us; none where the series was not kept (no launches without a GPU). */
    private static Optional<Figure> quantile(Result r, String suffix, Distribution ns, ToDoubleFunction<Distribution> q, String what, int wakes) {
        if (ns == null) return Optional.empty();
        int samples = ns.count() > 0 ? (int) Math.min(Integer.MAX_VALUE, ns.count()) : wakes;
        return Optional.of(one(r.key() + suffix, Unit.US, q.applyAsDouble(ns) / 1e3, samples, what + ", us (HdrHistogram); " + r.method(), r.anchor()));
    }

    /** A figure that is one number of many samples (a quantile, a share): its min and max are itself. */
    private static Figure one(String key, Unit unit, double value, int samples, String method, String anchor) {
        return new Figure(key, Scope.MACHINE, value, unit, Better.LOWER, value, value, Math.max(1, samples), method, anchor);
    }
}
