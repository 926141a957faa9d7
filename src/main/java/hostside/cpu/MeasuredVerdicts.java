package hostside.cpu;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.core.Distribution;
import hostside.cpu.measure.LaunchJitter;
import hostside.harness.Result;

/** What Module 3's measurements mean for the threads that feed a GPU, one line each. */
public final class MeasuredVerdicts {
    /** Above this a trivial syscall is slow: bare metal with today's mitigations pays ~0.1-0.5 us. */
    static final double SLOW_SYSCALL_NS = 800;

    private MeasuredVerdicts() {}

    public static List<String> of(hostside.machine.Host machine, List<Result> results, boolean gpu) {
        List<String> v = new ArrayList<>();
        syscall(results, machine.isVm()).ifPresent(v::add);
        switches(results).ifPresent(v::add);
        jitter(results, gpu).ifPresent(v::add);
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

    static Optional<String> syscall(List<Result> rs, boolean vm) {
        return ok(rs, "syscall_getppid").map(r -> {
            double ns = r.value().median();
            String s = String.format(Locale.ROOT, "A trivial syscall costs %.0f ns here", ns);
            if (ns > SLOW_SYSCALL_NS) {
                s += vm ? ": slow, as in many VMs (bare metal pays 0.1-0.5 us); every launch, sync and futex of the training loop pays it"
                        : ": slow for bare metal (0.1-0.5 us is usual); check the CPU-vulnerability mitigations (/sys/devices/system/cpu/vulnerabilities)";
            } else {
                s += ": cheap enough that launches and syncs, not syscalls, set the pace";
            }
            return s;
        });
    }

    static Optional<String> switches(List<Result> rs) {
        Optional<Result> same = ok(rs, "context_switch_same_core"), cross = ok(rs, "context_switch_cross_core"), wake = ok(rs, "futex_wakeup_cross_core");
        if (same.isEmpty() && cross.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder("Handing work to another thread costs ");
        same.ifPresent(r -> s.append(String.format(Locale.ROOT, "%.1f us on one core", r.value().median() / 1e3)));
        cross.ifPresent(r -> s.append(same.isPresent() ? ", " : "").append(String.format(Locale.ROOT, "%.1f us across cores", r.value().median() / 1e3)));
        wake.ifPresent(r -> s.append(String.format(Locale.ROOT, " (a sleeping thread runs %.1f us after its wake-up)", r.value().median() / 1e3)));
        s.append(": each DataLoader batch handed through a queue, and each pin-memory hand-over, pays it; fewer, larger batches pay it less often");
        return Optional.of(s.toString());
    }

    static Optional<String> jitter(List<Result> rs, boolean gpu) {
        Optional<Result> quiet = jitterOk(rs, "launch_jitter_quiet"), noisy = jitterOk(rs, "launch_jitter_noisy");
        if (quiet.isEmpty()) return Optional.empty();
        LaunchJitter.Detail q = d(quiet.get());
        double q99 = us(q.lateNs(), Distribution::p99);
        String what = gpu ? "launches" : "timer wake-ups (no GPU)";
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Quiet, the feeder's %s run %.0f us late at p99 (%.0f us at p50", what, q99,
                us(q.lateNs(), Distribution::p50)));
        if (q.timerSlackNs() > 0) s.append(String.format(Locale.ROOT, ", of which up to %.0f us is the thread's timer slack", q.timerSlackNs() / 1e3));
        s.append(')');
        double quietMissed = missedShare(quiet.get());
        if (quietMissed >= 0.01) s.append(String.format(Locale.ROOT, " and %.0f%% of the ticks had passed before it woke: this machine's timer cannot hold that cadence", 100 * quietMissed));
        if (gpu && q.launchNs() != null) {
            s.append(String.format(Locale.ROOT, "; a launch call takes %.1f us at p50, %.1f us at p99", us(q.launchNs(), Distribution::p50), us(q.launchNs(), Distribution::p99)));
        }
        noisy.ifPresent(r -> {
            double n99 = us(d(r).lateNs(), Distribution::p99), missed = missedShare(r);
            s.append(String.format(Locale.ROOT, "; with a CPU hog on every core p99 becomes %.0f us (%.1fx)", n99, n99 / q99));
            if (missed >= 0.01 && missed >= 2 * quietMissed) s.append(String.format(Locale.ROOT, " and %.0f%% of the ticks are missed outright", 100 * missed));
            if (n99 > 2 * q99 || missed >= 0.01 && missed >= 2 * quietMissed) s.append(": the feeding thread competes with DataLoader workers and other processes for CPU time");
        });
        return Optional.of(s.toString());
    }

    /** Ticks skipped as a share of all ticks (woken or skipped); 0 where the run did not count them. */
    static double missedShare(Result r) {
        return d(r).missedShare(r.value().samples());
    }

    static Optional<String> pinned(List<Result> rs) {
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
        // a third off the tail, or half the missed ticks (where at least 1% were missed), is a difference a feeder feels
        boolean helps = p99 < 0.67 * n99 || p999 < 0.67 * n999 || nMissed >= 0.01 && pMissed < 0.5 * nMissed;
        if (helps) s += ": pin the thread that feeds the GPU (os.sched_setaffinity, taskset) and keep DataLoader workers off its core";
        else s += ": pinning alone does not help here; the noise is not from threads on the same core";
        return Optional.of(s);
    }

    static Optional<String> graph(List<Result> rs) {
        Optional<Result> quiet = jitterOk(rs, "launch_jitter_quiet"), graph = jitterOk(rs, "launch_jitter_graph");
        if (quiet.isEmpty() || graph.isEmpty() || d(graph.get()).kernelsPerLaunch() == null || d(graph.get()).launchNs() == null
                || d(quiet.get()).launchNs() == null) {
            return Optional.empty();
        }
        double one = us(d(quiet.get()).launchNs(), Distribution::p50), g = us(d(graph.get()).launchNs(), Distribution::p50);
        int n = d(graph.get()).kernelsPerLaunch();
        return Optional.of(String.format(Locale.ROOT, "A CUDA graph of %d kernels launches in %.1f us, against %.1f us for %d separate launches (%.1fx less CPU per kernel):"
                + " capture steady steps with torch.cuda.graphs (CUDA graphs) when the CPU cannot keep up", n, g, one * n, n, one * n / g));
    }
}
