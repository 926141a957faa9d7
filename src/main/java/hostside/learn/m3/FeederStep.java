package hostside.learn.m3;

import static hostside.learn.Figs.count;
import static hostside.learn.Figs.f;
import static hostside.learn.Figs.in;
import static hostside.learn.Figs.n;
import static hostside.learn.Figs.pct;
import static hostside.learn.Figs.ratio;
import static hostside.learn.Figs.x;

import java.util.List;
import java.util.Optional;

import hostside.core.Severity;
import hostside.core.Unit;
import hostside.cpu.CpuRules;
import hostside.cpu.MeasuredVerdicts;
import hostside.cpu.measure.CpuTarget;
import hostside.cpu.measure.LaunchJitter;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs.Value;
import hostside.learn.Inputs;
import hostside.learn.Judgement;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.report.Report;

/**
 * Module 3's feeder step: the CPU side of one training step as the thread that feeds the GPU
 * lives it. A syscall, a context switch when it blocks, a futex wake-up by a DataLoader worker on
 * another core, the kernel launch; then launches at a fixed cadence in the drill's four
 * conditions (quiet, a hog on every core, the feeder pinned away from the hogs, a CUDA graph)
 * drawn as a timeline against their intended ticks with this machine's p50, p99 and p99.9
 * lateness, and what a late launch costs the GPU.
 * <p>
 * The figures are the report's (hostside cpu): syscall_getppid, context_switch_same_core and
 * _cross_core, futex_wakeup_cross_core, launch_jitter_CONDITION with _p99, _p999, _missed_ticks,
 * _launch_p50 and _launch_p99. A machine without a GPU runs no launch condition: its quiet and
 * noisy rows are the timer conditions (timer_jitter_quiet, _noisy, the same loop without the
 * launch), and the launch figures are typical ones, said to be. Whether a syscall is slow, what
 * the hogs did and whether pinning helps are the report's findings of M3-SYSCALL, M3-TIMER (with
 * M3-JITTER-DISTURBED) and M3-PIN where it drew them, which weigh the samples' spread and the
 * machine's load; only without them does a frame judge the medians, by the drill's own thresholds
 * (MeasuredVerdicts).
 */
public final class FeederStep implements Stepper {
    /**
     * What a typical figure here is typical of: the project's reference H200 run (the report of 2026-12-04 in
     * docs/measurements/2026-12-04-compare), rounded; the run the drills were checked against.
     */
    static final String TYPICAL = "hostside's H200 reference run";
    /** Above this a trivial syscall is slow, as the CPU drill judges it. */
    static final double SLOW_SYSCALL_NS = MeasuredVerdicts.SLOW_SYSCALL_NS;
    /** The drill's cadence: one launch every 100 us, 10,000 a second. */
    static final double PERIOD_US = CpuTarget.DEFAULT_PERIOD_NS / 1e3;
    /** Kernels in the drill's CUDA graph; a step of this many kernels is what the remedies are weighed on. */
    static final int KERNELS = LaunchJitter.GRAPH_KERNELS;
    /** A remedy that shortens a step by less than this share of it is no reason to change a loop (the I/O verdicts' rule). */
    static final double MATERIAL = hostside.io.MeasuredVerdicts.MATERIAL;
    /** The kernel's default timer slack for a normal (SCHED_OTHER) thread, what the drill records as timerSlackNs. */
    static final double TIMER_SLACK_US = 50;
    /** Ticks drawn in a timeline, and which of them are drawn at p99 and p99.9 (the rest at p50). */
    static final int TICKS = 10, AT_P99 = 3, AT_P999 = 6;

    static final int W = Svg.WIDTH, H = Svg.HEIGHT;

    @Override
    public String key() {
        return "feeder-step";
    }

    @Override
    public int module() {
        return 3;
    }

    @Override
    public String title() {
        return "A training step's CPU side: syscall, switch, wake-up, launch, and launch jitter";
    }

    /**
     * One jitter condition's figures.
     *
     * @param name    quiet, noisy, pinned, graph
     * @param label   its name in a drawing
     * @param what    what ran, in words
     * @param timer   whether the row is the timer condition (no GPU: no launch on the tick)
     * @param kernels kernels one launch starts (the graph's 10, else 1)
     */
    record Cond(String name, String label, String what, boolean timer, int kernels, Value p50, Value p99, Value p999, Value missed,
                Value launchP50, Value launchP99) {
        /** The feeder's time for a step of {@link #KERNELS} kernels at p99: how late it woke plus the launch calls that start them. */
        double stepUs() {
            return p99.value() + launchP50.value() * KERNELS / kernels;
        }
    }

    /** Typical figures per condition: p50, p99, p99.9 (us), missed ticks (%), launch call p50 and p99 (us). */
    static Cond cond(Inputs in, String name, String label, String what, boolean gpu, double... typ) {
        String launch = "launch_jitter_" + name, timerKey = "timer_jitter_" + name;
        // without a GPU the launch conditions do not run: the quiet and noisy rows are the timer conditions, measured there
        boolean timer = !gpu && in.value(timerKey, 0, Unit.US, "").mine();
        String key = timer ? timerKey : launch;
        return new Cond(name, label, what, timer, name.equals("graph") ? KERNELS : 1,
                in(in.value(key, typ[0], Unit.US, TYPICAL), Unit.US), in(in.value(key + "_p99", typ[1], Unit.US, TYPICAL), Unit.US),
                in(in.value(key + "_p999", typ[2], Unit.US, TYPICAL), Unit.US), in.value(key + "_missed_ticks", typ[3], Unit.PERCENT, TYPICAL),
                in(in.value(launch + "_launch_p50", typ[4], Unit.US, TYPICAL), Unit.US), in(in.value(launch + "_launch_p99", typ[5], Unit.US, TYPICAL), Unit.US));
    }

    @Override
    public List<Frame> frames(Inputs in) {
        Value sys = in(in.value("syscall_getppid", 95, Unit.NS, TYPICAL), Unit.NS);
        Value same = in(in.value("context_switch_same_core", 1050, Unit.NS, TYPICAL), Unit.US);
        Value cross = in(in.value("context_switch_cross_core", 4400, Unit.NS, TYPICAL), Unit.US);
        Value wake = in(in.value("futex_wakeup_cross_core", 5350, Unit.NS, TYPICAL), Unit.US);
        boolean gpu = in.value("launch_jitter_quiet", 0, Unit.US, "").mine();
        List<Cond> conds = List.of(
                cond(in, "quiet", "quiet", "nothing else running", gpu, 54, 57, 68, 0.005, 3.7, 7.1),
                cond(in, "noisy", "noisy (hogs)", "a CPU hog process on every core", gpu, 54, 58, 68, 1.4, 4.0, 8.0),
                cond(in, "pinned", "pinned", "the feeder alone on a GPU-local core, the hogs on the others", gpu, 54, 58, 195, 1.3, 4.0, 8.4),
                cond(in, "graph", "CUDA graph", "one CUDA graph of " + KERNELS + " kernels per tick, nothing else running", gpu, 54, 59, 93, 0.16, 1.7, 3.5));
        Cond quiet = conds.get(0), noisy = conds.get(1), pinned = conds.get(2), graph = conds.get(3);
        // a report without launch figures is a machine without a GPU; without a report every figure says it is typical
        boolean report = sys.mine() || quiet.p99().mine();
        String noGpu = gpu || !report ? "" : " This machine has no GPU, so the launch figures here are typical ones, not this machine's.";

        Frames fr = new Frames();

        fr.add("The feeder's step, on the CPU",
                "One Python thread feeds the GPU: each step it takes a batch that a DataLoader worker prepared, makes syscalls, sleeps when the "
                        + "batch is not ready, is woken by the worker, then launches the step's kernels. The next frames price each part with "
                        + (report ? "the figures of " + in.machine() + "." : "typical figures: there is no report of this machine.") + noGpu,
                null, FeederDrawings.overview(), sys, same, cross, wake);

        Optional<Report.Concluded> syscall = in.finding(CpuRules.SYSCALL, sys);
        fr.add("A syscall: into the kernel and back",
                f("A trivial syscall (getppid) costs %s. ", sys.shown())
                        + Judgement.quoteOr(syscall, sys.value() > SLOW_SYSCALL_NS
                        ? "That is slow (the H200 VM's took 125-137 ns; a VM whose syscalls trap to the hypervisor pays more)."
                        : "That is cheap.")
                        + " The step's queue reads, sleeps and allocations each pay it. Its kernel launches do not: the CUDA driver submits them from user space, without a syscall.",
                syscallPredict(sys, syscall), FeederDrawings.syscall(sys), sys);

        fr.add("It blocks: a context switch",
                f("When the batch is not ready the feeder sleeps in the kernel and another thread runs. Handing work between two threads costs %s on "
                        + "one core and %s across cores (half a futex ping-pong). Each DataLoader batch handed through a queue, and each pin-memory "
                        + "hand-over, pays it; fewer, larger batches pay it less often.", same.shown(), cross.shown()),
                null, FeederDrawings.switches(same, cross), same, cross);

        fr.add("A worker wakes it: a futex across cores",
                f("The worker on another core puts the batch in the queue and calls FUTEX_WAKE; the feeder runs %s later. Ten thousand such "
                        + "hand-overs a second would spend %s of every second waiting for wake-ups alone.", wake.shown(), pct(wake.value() * 1e4 / 1e6 * 100)),
                null, FeederDrawings.wakeup(wake), wake);

        double budgetUs = quiet.launchP50().value() + wake.value() + sys.value() / 1e3;
        fr.add("The kernels go to the GPU",
                f("A launch call (cuLaunchKernel) takes %s at p50 and %s at p99: it queues the kernel and returns, and the GPU runs it later. "
                        + "At %s launches a second each launch has %s us of the feeder's time; one launch with one wake-up by a worker and one "
                        + "syscall uses %s us of it.", quiet.launchP50().shown(), quiet.launchP99().shown(), count(1e6 / PERIOD_US), n(PERIOD_US), n(budgetUs)) + noGpu,
                null, FeederDrawings.budget(sys, wake, quiet), quiet.launchP50(), quiet.launchP99(), wake, sys);

        fr.add(count(1e6 / PERIOD_US) + " launches a second, quiet",
                f("The drill's feeder sleeps to a deadline every %s us and launches: how late it wakes is how late the kernel reaches the GPU. "
                                + "Quiet, %s wake %s late at p50, %s at p99 and %s at p99.9; %s of the ticks had passed before it woke. "
                                + "Up to %s us of that is typically the thread's timer slack: the kernel may wake a normal thread that late on purpose.",
                        n(PERIOD_US), quiet.timer() ? "timer wake-ups (no GPU: the timer alone)" : "launches", quiet.p50().shown(), quiet.p99().shown(),
                        quiet.p999().shown(), pct(quiet.missed()), n(TIMER_SLACK_US)),
                null, FeederDrawings.timeline(conds, 1), quiet.p50(), quiet.p99(), quiet.p999(), quiet.missed());

        // the hogs' effect is M3-TIMER's to judge; a disturbed quiet run is M3-JITTER-DISTURBED's, the worse said first
        Optional<Report.Concluded> timer = in.finding(CpuRules.JITTER_DISTURBED, quiet.p99(), noisy.p99()).or(() -> in.finding(CpuRules.TIMER, quiet.p99(), noisy.p99()));
        fr.add("A CPU hog on every core",
                f("With a hog process spinning on every core, p99 lateness is %s against %s quiet, %s as much; p99.9 is %s, %s quiet's. "
                                + "And %s of the ticks are missed outright, against %s quiet.%s",
                        noisy.p99().shown(), quiet.p99().shown(), x(ratio(noisy.p99().value(), quiet.p99().value())), noisy.p999().shown(),
                        x(ratio(noisy.p999().value(), quiet.p999().value())), pct(noisy.missed()), pct(quiet.missed()),
                        timer.map(c -> " " + Judgement.quote(c)).orElse(disturbed(quiet, noisy))),
                hogPredict(quiet, noisy, timer), FeederDrawings.timeline(conds, 2), noisy.p99(), quiet.p99(), noisy.p999(), quiet.p999(), noisy.missed(), quiet.missed());

        Optional<Report.Concluded> pin = in.finding(CpuRules.PIN, pinned.p99(), noisy.p99());
        fr.add("The feeder pinned away from the hogs",
                f("Pinned alone on a GPU-local core with the hogs on the others, p99 is %s and p99.9 %s with %s of ticks missed, against %s, %s "
                        + "and %s unpinned. %s", pinned.p99().shown(), pinned.p999().shown(), pct(pinned.missed()), noisy.p99().shown(),
                        noisy.p999().shown(), pct(noisy.missed()), Judgement.quoteOr(pin, (pinned.p99().mine() && noisy.p99().mine() ? "Here" : "In these typical figures")
                        + (pinHelps(noisy, pinned)
                        ? " pinning helps: pin the thread that feeds the GPU (os.sched_setaffinity, taskset) and keep DataLoader workers off its core."
                        : " pinning alone does not help: the noise is not from threads on the same core."))),
                remedyPredict(quiet, noisy, pinned, graph, pin), FeederDrawings.timeline(conds, 3), pinned.p99(), pinned.p999(), pinned.missed(), noisy.p99(), noisy.p999(), noisy.missed());

        double separate = quiet.launchP50().value() * KERNELS;
        fr.add("A CUDA graph: " + KERNELS + " kernels, one launch",
                f("A CUDA graph replays %d kernels with one launch call: %s, against %s us for %d separate launches at %s each (%s less CPU per "
                                + "kernel). Its wake-ups are as late as any, p99 %s: a graph saves launch calls, not lateness. Capture steady steps with "
                                + "torch.cuda.graphs when the CPU cannot keep up.", KERNELS, graph.launchP50().shown(), n(separate), KERNELS,
                        quiet.launchP50().shown(), x(ratio(separate, graph.launchP50().value())), graph.p99().shown()) + noGpu,
                null, FeederDrawings.timeline(conds, 4), graph.launchP50(), quiet.launchP50(), graph.p99());

        fr.add("What a late launch costs the GPU",
                f("Launches are queued ahead, so a late one leaves the GPU idle only when its queue has run dry: when kernels are short and the "
                                + "feeder is the bottleneck. Then every microsecond late is a microsecond idle, and at %s launches a second a missed tick is "
                                + "a whole %s us period without work: %s of them with hogs on every core here, %s quiet.",
                        count(1e6 / PERIOD_US), n(PERIOD_US), pct(noisy.missed()), pct(quiet.missed())),
                null, FeederDrawings.summary(conds), quiet.p99(), noisy.p99(), pinned.p99(), graph.p99(), noisy.missed(), quiet.missed());

        return fr.list();
    }

    // ---- predictions ----

    /** The syscall's band: a figure, not a verdict; whether it is slow is the report's M3-SYSCALL where it drew one. */
    static Frame.Predict syscallPredict(Value sys, Optional<Report.Concluded> judged) {
        int answer = sys.value() < 100 ? 0 : sys.value() <= SLOW_SYSCALL_NS ? 1 : 2;
        return new Frame.Predict("How long does a trivial syscall (getppid) take on this machine?",
                List.of("under 100 ns", "100 to 800 ns", "over 800 ns"), answer,
                f("It took %s; the H200 VM's took 125-137 ns, this project's dev VM's 1218 ns", sys.shown())
                        + judged.map(c -> ". " + Judgement.quote(c)).orElse(", and above 0.8 us hostside calls a syscall slow."));
    }

    /**
     * Quiet against noisy p99, in three bands; a decrease is in the first. Where the report did not
     * judge the runs (busy, or a disturbed quiet run) the answer is that it cannot be told, and no
     * cause is offered; where it did, its finding is the why.
     */
    static Frame.Predict hogPredict(Cond quiet, Cond noisy, Optional<Report.Concluded> judged) {
        double r = ratio(noisy.p99().value(), quiet.p99().value());
        boolean unjudged = Judgement.unjudged(judged);
        int answer = unjudged ? 3 : r < 2 ? 0 : r <= 10 ? 1 : 2;
        String why = f("p99 went from %s quiet to %s with the hogs: %s.", quiet.p99().shown(), noisy.p99().shown(), x(r));
        why += judged.isPresent() ? " " + Judgement.quote(judged.get()) : answer == 0
                ? f(" The scheduler still wakes the feeder promptly; the hogs show in the missed ticks instead: %s against %s.", pct(noisy.missed()),
                        pct(quiet.missed()))
                : " The feeding thread competes with the hogs (in training: DataLoader workers and other processes) for CPU time.";
        return new Frame.Predict("With a CPU hog on every core, how much does the p99 lateness grow here?",
                List.of("less than 2x", "2x to 10x", "more than 10x", "cannot tell: the report did not judge these runs"), answer, why);
    }

    /**
     * Which remedy shortens a step of {@link #KERNELS} kernels more: pinning (against the noisy run it
     * is measured beside) or a CUDA graph (against the quiet run, as it ran); neither when both gain
     * less than {@link #MATERIAL} of the step they shorten.
     */

    /**
     * As above, where the report's M3-PIN (when it drew one) says whether pinning helps at all: a
     * pinning the report found no help never wins here, and one it did not judge makes the answer
     * "cannot tell".
     */
    static Frame.Predict remedyPredict(Cond quiet, Cond noisy, Cond pinned, Cond graph, Optional<Report.Concluded> judged) {
        double pinGain = noisy.stepUs() - pinned.stepUs(), graphGain = quiet.stepUs() - graph.stepUs();
        boolean pin = pinGain > MATERIAL * noisy.stepUs() && judged.map(c -> c.severity() == Severity.WARN).orElse(true);
        boolean gr = graphGain > MATERIAL * quiet.stepUs();
        int answer = Judgement.unjudged(judged) ? 3 : !pin && !gr ? 2 : pin && (!gr || pinGain >= graphGain) ? 0 : 1;
        String why = f("For a step of %d kernels at p99 (lateness plus launch calls): pinning takes it from %s us (hogs, unpinned) to %s us, a gain of %s us; "
                        + "a CUDA graph from %s us (quiet, %d launches) to %s us, a gain of %s us.", KERNELS, n(noisy.stepUs()), n(pinned.stepUs()), n(pinGain),
                n(quiet.stepUs()), KERNELS, n(graph.stepUs()), n(graphGain));
        why += answer == 2 ? " Neither gains a tenth of the step here." : "";
        why += judged.map(c -> " " + Judgement.quote(c)).orElse("");
        boolean mine = quiet.p99().mine() && noisy.p99().mine() && pinned.p99().mine() && graph.p99().mine() && graph.launchP50().mine();
        why += mine ? " All from launch figures measured here." : " These launch figures are typical, not this machine's (" + TYPICAL + ").";
        return new Frame.Predict("Which shortens a step of " + KERNELS + " kernels more on this machine: pinning the feeder, or a CUDA graph?",
                List.of("pinning the feeder", "a CUDA graph", "neither, by a tenth of the step", "cannot tell: the report did not judge pinning"), answer, why);
    }

    /**
     * As MeasuredVerdicts.pinned, by its thresholds, on medians alone (figures without
     * the report's M3-PIN: typical ones): a third off the p99 or p99.9, or half the missed ticks
     * where at least 1% were missed.
     */
    static boolean pinHelps(Cond noisy, Cond pinned) {
        double tail = 1 + MeasuredVerdicts.PIN_TAIL_GAIN, missedPct = 100 * MeasuredVerdicts.PIN_MISSED_SHARE;
        return noisy.p99().value() > tail * pinned.p99().value() || noisy.p999().value() > tail * pinned.p999().value()
                || noisy.missed().value() >= missedPct && noisy.missed().value() > 2 * pinned.missed().value();
    }

    /** Said when the run under hogs came out earlier than the quiet one, which hogs cannot cause. */
    static String disturbed(Cond quiet, Cond noisy) {
        if (noisy.p99().value() * 1.1 >= quiet.p99().value()) return "";
        return " The hogs cannot make wake-ups earlier: something else ran during the quiet run, so read this pair with care (the report's findings say whether it was beyond noise).";
    }
}
