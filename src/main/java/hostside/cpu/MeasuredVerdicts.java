package hostside.cpu;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import hostside.core.Distribution;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Versus;
import hostside.cpu.measure.LaunchJitter;
import hostside.harness.Result;
import hostside.machine.Host;
import hostside.process.MachineLoad;

/**
 * What Module 3's measurements mean for the threads that feed a GPU: a finding of one of
 * {@link CpuRules}' rules each. On a machine that was busy as the drill began, each is unknown:
 * its figures are said, never a fix drawn from them.
 */
public final class MeasuredVerdicts {
    /**
     * Above this a trivial syscall is slow: hostside's own line between the H200 VM's 125-137 ns and
     * the dev VM's 1218 ns (docs/measurements/2026-12-02-cpu.md, CpuRules.CPU_FIGURES).
     */
    public static final double SLOW_SYSCALL_NS = 800;
    /** M3-PIN: pinning helps where it takes this share of the unpinned tail off (a third: unpinned 1.5x pinned), beyond both spreads. */
    public static final double PIN_TAIL_GAIN = 0.5;
    /** M3-PIN: or where at least this share of ticks was missed unpinned, and pinning halves them. */
    public static final double PIN_MISSED_SHARE = 0.01;

    private MeasuredVerdicts() {}

    /** What one rule concluded, before the machine's load is weighed. */
    record Judged(Rule rule, Severity severity, String text, List<Evidence> evidence) {
        Judged(Rule rule, Severity severity, String text, Result... read) {
            this(rule, severity, text, java.util.Arrays.stream(read).map(MeasuredVerdicts::evidence).toList());
        }

        /** As a finding: an unknown one, its figures said and no fix, where {@code load} was busy. */
        Finding finding(MachineLoad load) {
            // busy, it says the figures it read and nothing drawn from them: no verdict, no advice
            return rule.measured(severity, "CPU", text, Evidence.said(evidence), evidence, MachineLoad.busyReasons(load));
        }
    }

    /** A result's median as a finding's evidence. */
    static Evidence evidence(Result r) {
        return Evidence.of(r.key(), r.value().median(), r.unit());
    }

    /** Every rule's finding, on a machine whose load as the drill began was {@code load} (null: not read, a recording's). */
    public static List<Finding> of(Host machine, List<Result> results, boolean gpu, MachineLoad load) {
        return judge(machine, results, gpu).stream().map(j -> j.finding(load)).toList();
    }

    static List<Judged> judge(Host machine, List<Result> results, boolean gpu) {
        List<Judged> v = new ArrayList<>();
        syscall(results, machine.isVm()).ifPresent(v::add);
        switches(results).ifPresent(v::add);
        jitter(results, gpu).ifPresent(v::add);
        launchShare(results).ifPresent(v::add);
        pinned(results).ifPresent(v::add);
        graph(results).ifPresent(v::add);
        return v;
    }

    static Optional<Result> ok(List<Result> rs, String key) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst();
    }

    /** A jitter result that ran, with its detail (one read back from an old report may lack it). */
    static Optional<Result> jitterOk(List<Result> rs, String key) {
        return ok(rs, key).filter(r -> r.detail() instanceof LaunchJitter.Detail);
    }

    static LaunchJitter.Detail d(Result r) {
        return (LaunchJitter.Detail) r.detail();
    }

    /** A quantile of a series in ns, given in us; NaN where the series was not kept (no launches without a GPU). */
    static double us(Distribution series, java.util.function.ToDoubleFunction<Distribution> quantile) {
        return series == null ? Double.NaN : quantile.applyAsDouble(series) / 1e3;
    }

    static Optional<Judged> syscall(List<Result> rs, boolean vm) {
        return ok(rs, "syscall_getppid").map(r -> {
            double ns = r.value().median();
            String s = String.format(Locale.ROOT, "A trivial syscall costs %.0f ns here", ns);
            if (ns > SLOW_SYSCALL_NS) {
                s += vm ? ": slow, as in VMs whose syscalls trap to the hypervisor (the H200 VM's took 125-137 ns); every read, futex hand-over and"
                        + " blocking wait of the training loop pays it, kernel launches do not (the driver submits them from user space)"
                        : ": slow for a machine that is no VM (the H200 VM's took 125-137 ns), as CPU-vulnerability mitigations make it; every read,"
                        + " futex hand-over and blocking wait of the training loop pays it";
            } else {
                s += ": cheap enough that the loop's reads, hand-overs and waits cost little each (kernel launches make none)";
            }
            return new Judged(CpuRules.SYSCALL, ns > SLOW_SYSCALL_NS ? Severity.WARN : Severity.OK, s, r);
        });
    }

    static Optional<Judged> switches(List<Result> rs) {
        Optional<Result> same = ok(rs, "context_switch_same_core"), cross = ok(rs, "context_switch_cross_core"), wake = ok(rs, "futex_wakeup_cross_core");
        if (same.isEmpty() && cross.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder("Handing work to another thread costs ");
        same.ifPresent(r -> s.append(String.format(Locale.ROOT, "%.1f us on one core", r.value().median() / 1e3)));
        cross.ifPresent(r -> s.append(same.isPresent() ? ", " : "").append(String.format(Locale.ROOT, "%.1f us across cores", r.value().median() / 1e3)));
        wake.ifPresent(r -> s.append(String.format(Locale.ROOT, " (a sleeping thread runs %.1f us after its wake-up)", r.value().median() / 1e3)));
        s.append(": each DataLoader batch handed through a queue, and each pin-memory hand-over, pays it; fewer, larger batches pay it less often");
        return Optional.of(new Judged(CpuRules.HANDOFF, Severity.INFO, s.toString(), Stream.of(same, cross, wake).flatMap(Optional::stream).toArray(Result[]::new)));
    }

    /**
     * The timer's tail, quiet and under hogs: from the timer conditions (refs timer's loop), or
     * from the launch conditions where those alone ran (a report from before the timer ones).
     * A quiet run noisier than the noisy one is a disturbed run: said, not interpreted.
     */
    static Optional<Judged> jitter(List<Result> rs, boolean gpu) {
        boolean timer = jitterOk(rs, "timer_jitter_quiet").isPresent();
        String qKey = timer ? "timer_jitter_quiet" : "launch_jitter_quiet", nKey = timer ? "timer_jitter_noisy" : "launch_jitter_noisy";
        Optional<Result> quiet = jitterOk(rs, qKey), noisy = jitterOk(rs, nKey);
        if (quiet.isEmpty()) return Optional.empty();
        Optional<String> disturbed = noisy.flatMap(n -> JitterNoise.disturbed(quiet.get(), n));
        if (disturbed.isPresent()) {
            return Optional.of(new Judged(CpuRules.TIMER, Severity.UNKNOWN, qKey + " came out noisier than " + nKey + " (" + disturbed.get()
                    + "): a disturbed run, not interpreted (see the findings)", quiet.get(), noisy.get()));
        }
        LaunchJitter.Detail q = d(quiet.get());
        double q99 = us(q.lateNs(), Distribution::p99);
        String what = timer ? "timer wake-ups" : gpu ? "launches" : "timer wake-ups (no GPU)";
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Quiet, the feeder's %s run %.0f us late at p99 (%.0f us at p50", what, q99,
                us(q.lateNs(), Distribution::p50)));
        if (q.timerSlackNs() > 0) s.append(String.format(Locale.ROOT, ", of which up to %.0f us is the thread's timer slack", q.timerSlackNs() / 1e3));
        s.append(')');
        double quietMissed = missedShare(quiet.get());
        boolean late = quietMissed >= 0.01;
        if (late) s.append(String.format(Locale.ROOT, " and %.0f%% of the ticks had passed before it woke: this machine's timer cannot hold that cadence", 100 * quietMissed));
        if (!timer && gpu && q.launchNs() != null) {
            s.append(String.format(Locale.ROOT, "; a launch call takes %.1f us at p50, %.1f us at p99", us(q.launchNs(), Distribution::p50), us(q.launchNs(), Distribution::p99)));
        }
        boolean competes = false;
        if (noisy.isPresent()) {
            Result r = noisy.get();
            LaunchJitter.Detail n = d(r);
            double n99 = us(n.lateNs(), Distribution::p99), n999 = us(n.lateNs(), Distribution::p999), missed = missedShare(r);
            s.append(String.format(Locale.ROOT, "; with a CPU hog on every core p99 becomes %.0f us (%.1fx), p99.9 %.0f us (%.1fx)", n99, n99 / q99, n999,
                    n999 / us(q.lateNs(), Distribution::p999)));
            // twice the quiet figure and beyond both runs' spreads: what the hogs did, not noise
            boolean tail = Versus.of(n.p99Us(), q.p99Us(), 1.0) == Versus.ABOVE || Versus.of(n.p999Us(), q.p999Us(), 1.0) == Versus.ABOVE;
            boolean misses = missed >= 0.01 && Versus.of(n.missedPerSegment(), q.missedPerSegment(), 1.0) == Versus.ABOVE;
            if (misses) s.append(String.format(Locale.ROOT, " and %.0f%% of the ticks are missed outright", 100 * missed));
            competes = tail || misses;
            s.append(competes ? ": the feeding thread competes with DataLoader workers and other processes for CPU time"
                    : ": even within noise of quiet (less than twice it, or inside either run's spread)");
        }
        Result[] read = noisy.map(n -> new Result[] {quiet.get(), n}).orElse(new Result[] {quiet.get()});
        return Optional.of(new Judged(CpuRules.TIMER, late || competes ? Severity.WARN : Severity.OK, s.toString(), read));
    }

    /**
     * What the launch adds to the timer's lateness: each launch condition against the timer
     * condition with the same company (quiet, hogs), by the noise rule; with the launch call's time.
     */
    static Optional<Judged> launchShare(List<Result> rs) {
        Optional<Result> lq = jitterOk(rs, "launch_jitter_quiet").filter(r -> d(r).launchNs() != null), tq = jitterOk(rs, "timer_jitter_quiet");
        if (lq.isEmpty() || tq.isEmpty()) return Optional.empty();
        LaunchJitter.Detail l = d(lq.get());
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "A launch call takes %.1f us at p50, %.1f us at p99; ", us(l.launchNs(), Distribution::p50),
                us(l.launchNs(), Distribution::p99)));
        s.append("launching on each tick moves the p99 lateness ").append(share(tq.get(), lq.get(), "quiet"));
        boolean changed = Versus.of(d(lq.get()).p99Us(), d(tq.get()).p99Us()) == Versus.BELOW;
        List<Result> read = new ArrayList<>(List.of(tq.get(), lq.get()));
        Optional<Result> ln = jitterOk(rs, "launch_jitter_noisy"), tn = jitterOk(rs, "timer_jitter_noisy");
        if (ln.isPresent() && tn.isPresent()) {
            s.append(", and ").append(share(tn.get(), ln.get(), "under hogs"));
            changed |= Versus.of(d(ln.get()).p99Us(), d(tn.get()).p99Us()) == Versus.BELOW;
            read.addAll(List.of(tn.get(), ln.get()));
        }
        // below the timer alone beyond both spreads is the machine changing between the runs: not a figure to read
        return Optional.of(new Judged(CpuRules.LAUNCH, changed ? Severity.UNKNOWN : Severity.INFO, s.toString(), read.toArray(Result[]::new)));
    }

    /** "from 60 us (timer alone) to 75 us quiet: the launch adds 15 us", or "...: even within noise". */
    static String share(Result timer, Result launch, String when) {
        Stats t = d(timer).p99Us(), l = d(launch).p99Us();
        String s = String.format(Locale.ROOT, "from %.0f us (timer alone) to %.0f us %s", t.median(), l.median(), when);
        return switch (Versus.of(l, t)) {
            case ABOVE -> s + String.format(Locale.ROOT, ": the launch adds %.0f us", l.median() - t.median());
            case BELOW -> s + ": lower than the timer alone beyond both runs' spreads, which a launch cannot make it: the machine changed between the two";
            case EVEN -> s + ": even within noise, the launch adds nothing the timer does not";
        };
    }

    /** Ticks skipped as a share of all ticks (woken or skipped); 0 where the run did not count them. */
    static double missedShare(Result r) {
        return d(r).missedShare(r.value().samples());
    }

    static Optional<Judged> pinned(List<Result> rs) {
        Optional<Result> noisy = jitterOk(rs, "launch_jitter_noisy"), pinned = jitterOk(rs, "launch_jitter_pinned");
        if (noisy.isEmpty() || pinned.isEmpty()) return Optional.empty();
        Result n = noisy.get(), pn = pinned.get();
        Distribution nLate = d(n).lateNs(), pLate = d(pn).lateNs();
        double n99 = us(nLate, Distribution::p99), p99 = us(pLate, Distribution::p99), n999 = us(nLate, Distribution::p999), p999 = us(pLate, Distribution::p999);
        double nMissed = missedShare(n), pMissed = missedShare(pn);
        Integer cpu = d(pn).feederCpu();
        String s = String.format(Locale.ROOT, "Pinned alone on CPU %s with the hogs elsewhere, p99 is %.0f us and p99.9 %.0f us", cpu, p99, p999)
                + (nMissed > 0 || pMissed > 0 ? String.format(Locale.ROOT, ", %.1f%% of ticks missed,", 100 * pMissed) : "")
                + String.format(Locale.ROOT, " against %.0f and %.0f us", n99, n999) + (nMissed > 0 || pMissed > 0 ? String.format(Locale.ROOT, ", %.1f%% missed,", 100 * nMissed) : "")
                + " unpinned";
        // a third off the tail, or half the missed ticks (where at least 1% were missed), is a difference a feeder feels,
        // and only beyond both runs' spreads
        LaunchJitter.Detail nd = d(n), pd = d(pn);
        boolean helps = Versus.of(nd.p99Us(), pd.p99Us(), PIN_TAIL_GAIN) == Versus.ABOVE || Versus.of(nd.p999Us(), pd.p999Us(), PIN_TAIL_GAIN) == Versus.ABOVE
                || nMissed >= PIN_MISSED_SHARE && Versus.of(nd.missedPerSegment(), pd.missedPerSegment(), 1.0) == Versus.ABOVE;
        if (helps) s += ": pin the thread that feeds the GPU (os.sched_setaffinity, taskset) and keep DataLoader workers off its core";
        else s += ": pinning alone does not help here (even within noise); the noise is not from threads on the same core";
        return Optional.of(new Judged(CpuRules.PIN, helps ? Severity.WARN : Severity.OK, s, n, pn));
    }

    static Optional<Judged> graph(List<Result> rs) {
        Optional<Result> quiet = jitterOk(rs, "launch_jitter_quiet"), graph = jitterOk(rs, "launch_jitter_graph");
        if (quiet.isEmpty() || graph.isEmpty() || d(graph.get()).kernelsPerLaunch() == null || d(graph.get()).launchNs() == null
                || d(quiet.get()).launchNs() == null) {
            return Optional.empty();
        }
        double one = us(d(quiet.get()).launchNs(), Distribution::p50), g = us(d(graph.get()).launchNs(), Distribution::p50);
        int n = d(graph.get()).kernelsPerLaunch();
        return Optional.of(new Judged(CpuRules.GRAPH, Severity.INFO, String.format(Locale.ROOT,
                "A CUDA graph of %d kernels launches in %.1f us, against %.1f us for %d separate launches (%.1fx less CPU per kernel):"
                + " capture steady steps with torch.cuda.graphs (CUDA graphs) when the CPU cannot keep up", n, g, one * n, n, one * n / g),
                quiet.get(), graph.get()));
    }
}
