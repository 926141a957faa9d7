package hostside.learn.m3;

import static hostside.learn.Figs.count;
import static hostside.learn.Figs.f;
import static hostside.learn.Figs.in;
import static hostside.learn.Figs.n;
import static hostside.learn.Figs.pct;
import static hostside.learn.Figs.ratio;
import static hostside.learn.Figs.x;

import java.util.ArrayList;
import java.util.List;

import hostside.cpu.measure.CpuTarget;
import hostside.cpu.measure.LaunchJitter;
import hostside.learn.Figs;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Inputs.Value;
import hostside.learn.Stepper;
import hostside.learn.Svg;

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
 * launch), and the launch figures are typical ones, said to be. The thresholds are the drill's
 * verdicts' (hostside.cpu.MeasuredVerdicts).
 */
public final class FeederStep implements Stepper {
    /**
     * What a typical figure here is typical of: the project's reference H200 run (the report of 2026-12-04 in
     * docs/measurements/2026-12-04-issue20-compare), rounded; the run the drills were checked against.
     */
    static final String TYPICAL = "hostside's H200 reference run";
    /** Above this a trivial syscall is slow, as the CPU drill judges it (bare metal pays 0.1-0.5 us). */
    static final double SLOW_SYSCALL_NS = hostside.cpu.MeasuredVerdicts.SLOW_SYSCALL_NS;
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

    static final int W = 640, H = 260;

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
        boolean timer = !gpu && in.value(timerKey, 0, "us", "").mine();
        String key = timer ? timerKey : launch;
        return new Cond(name, label, what, timer, name.equals("graph") ? KERNELS : 1,
                in(in.value(key, typ[0], "us", TYPICAL), "us"), in(in.value(key + "_p99", typ[1], "us", TYPICAL), "us"),
                in(in.value(key + "_p999", typ[2], "us", TYPICAL), "us"), in.value(key + "_missed_ticks", typ[3], "%", TYPICAL),
                in(in.value(launch + "_launch_p50", typ[4], "us", TYPICAL), "us"), in(in.value(launch + "_launch_p99", typ[5], "us", TYPICAL), "us"));
    }

    @Override
    public List<Frame> frames(Inputs in) {
        Value sys = in(in.value("syscall_getppid", 95, "ns", TYPICAL), "ns");
        Value same = in(in.value("context_switch_same_core", 1050, "ns", TYPICAL), "us");
        Value cross = in(in.value("context_switch_cross_core", 4400, "ns", TYPICAL), "us");
        Value wake = in(in.value("futex_wakeup_cross_core", 5350, "ns", TYPICAL), "us");
        boolean gpu = in.value("launch_jitter_quiet", 0, "us", "").mine();
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
                null, overview(), sys, same, cross, wake);

        fr.add("A syscall: into the kernel and back",
                f("A trivial syscall (getppid) costs %s. ", sys.shown())
                        + (sys.value() > SLOW_SYSCALL_NS
                        ? "That is slow: bare metal with today's mitigations pays 0.1-0.5 us, a VM or heavy mitigations more; every syscall of the step pays it."
                        : "That is cheap enough that launches and syncs, not syscalls, set the pace; the step's queue reads, sleeps and allocations each pay it."),
                syscallPredict(sys), syscall(sys), sys);

        fr.add("It blocks: a context switch",
                f("When the batch is not ready the feeder sleeps in the kernel and another thread runs. Handing work between two threads costs %s on "
                        + "one core and %s across cores (half a futex ping-pong). Each DataLoader batch handed through a queue, and each pin-memory "
                        + "hand-over, pays it; fewer, larger batches pay it less often.", same.shown(), cross.shown()),
                null, switches(same, cross), same, cross);

        fr.add("A worker wakes it: a futex across cores",
                f("The worker on another core puts the batch in the queue and calls FUTEX_WAKE; the feeder runs %s later. Ten thousand such "
                        + "hand-overs a second would spend %s of every second waiting for wake-ups alone.", wake.shown(), pct(wake.value() * 1e4 / 1e6 * 100)),
                null, wakeup(wake), wake);

        double budgetUs = quiet.launchP50().value() + wake.value() + sys.value() / 1e3;
        fr.add("The kernels go to the GPU",
                f("A launch call (cuLaunchKernel) takes %s at p50 and %s at p99: it queues the kernel and returns, and the GPU runs it later. "
                        + "At %s launches a second each launch has %s us of the feeder's time; one launch with one wake-up by a worker and one "
                        + "syscall uses %s us of it.", quiet.launchP50().shown(), quiet.launchP99().shown(), count(1e6 / PERIOD_US), n(PERIOD_US), n(budgetUs)) + noGpu,
                null, budget(sys, wake, quiet), quiet.launchP50(), quiet.launchP99(), wake, sys);

        fr.add(count(1e6 / PERIOD_US) + " launches a second, quiet",
                f("The drill's feeder sleeps to a deadline every %s us and launches: how late it wakes is how late the kernel reaches the GPU. "
                                + "Quiet, %s wake %s late at p50, %s at p99 and %s at p99.9; %s of the ticks had passed before it woke. "
                                + "Up to %s us of that is typically the thread's timer slack: the kernel may wake a normal thread that late on purpose.",
                        n(PERIOD_US), quiet.timer() ? "timer wake-ups (no GPU: the timer alone)" : "launches", quiet.p50().shown(), quiet.p99().shown(),
                        quiet.p999().shown(), pct(quiet.missed()), n(TIMER_SLACK_US)),
                null, timeline(conds, 1), quiet.p50(), quiet.p99(), quiet.p999(), quiet.missed());

        fr.add("A CPU hog on every core",
                f("With a hog process spinning on every core, p99 lateness is %s against %s quiet, %s as much; p99.9 is %s, %s quiet's. "
                                + "And %s of the ticks are missed outright, against %s quiet.%s",
                        noisy.p99().shown(), quiet.p99().shown(), x(ratio(noisy.p99().value(), quiet.p99().value())), noisy.p999().shown(),
                        x(ratio(noisy.p999().value(), quiet.p999().value())), pct(noisy.missed()), pct(quiet.missed()), disturbed(quiet, noisy)),
                hogPredict(quiet, noisy), timeline(conds, 2), noisy.p99(), quiet.p99(), noisy.p999(), quiet.p999(), noisy.missed(), quiet.missed());

        fr.add("The feeder pinned away from the hogs",
                f("Pinned alone on a GPU-local core with the hogs on the others, p99 is %s and p99.9 %s with %s of ticks missed, against %s, %s "
                        + "and %s unpinned. %s", pinned.p99().shown(), pinned.p999().shown(), pct(pinned.missed()), noisy.p99().shown(),
                        noisy.p999().shown(), pct(noisy.missed()), pinHelps(noisy, pinned)
                        ? "Pinning helps here: pin the thread that feeds the GPU (os.sched_setaffinity, taskset) and keep DataLoader workers off its core."
                        : "Pinning alone does not help here: the noise is not from threads on the same core."),
                remedyPredict(quiet, noisy, pinned, graph), timeline(conds, 3), pinned.p99(), pinned.p999(), pinned.missed(), noisy.p99(), noisy.p999(), noisy.missed());

        double separate = quiet.launchP50().value() * KERNELS;
        fr.add("A CUDA graph: " + KERNELS + " kernels, one launch",
                f("A CUDA graph replays %d kernels with one launch call: %s, against %s us for %d separate launches at %s each (%s less CPU per "
                                + "kernel). Its wake-ups are as late as any, p99 %s: a graph saves launch calls, not lateness. Capture steady steps with "
                                + "torch.cuda.graphs when the CPU cannot keep up.", KERNELS, graph.launchP50().shown(), n(separate), KERNELS,
                        quiet.launchP50().shown(), x(ratio(separate, graph.launchP50().value())), graph.p99().shown()) + noGpu,
                null, timeline(conds, 4), graph.launchP50(), quiet.launchP50(), graph.p99());

        fr.add("What a late launch costs the GPU",
                f("Launches are queued ahead, so a late one leaves the GPU idle only when its queue has run dry: when kernels are short and the "
                                + "feeder is the bottleneck. Then every microsecond late is a microsecond idle, and at %s launches a second a missed tick is "
                                + "a whole %s us period without work: %s of them with hogs on every core here, %s quiet.",
                        count(1e6 / PERIOD_US), n(PERIOD_US), pct(noisy.missed()), pct(quiet.missed())),
                null, summary(conds), quiet.p99(), noisy.p99(), pinned.p99(), graph.p99(), noisy.missed(), quiet.missed());

        return fr.list();
    }

    // ---- predictions ----

    static Frame.Predict syscallPredict(Value sys) {
        int answer = sys.value() < 100 ? 0 : sys.value() <= SLOW_SYSCALL_NS ? 1 : 2;
        return new Frame.Predict("How long does a trivial syscall (getppid) take on this machine?",
                List.of("under 100 ns", "100 to 800 ns", "over 800 ns"), answer,
                f("It took %s; bare metal with today's CPU-vulnerability mitigations pays 0.1-0.5 us, and above 0.8 us a syscall is slow (many VMs).", sys.shown()));
    }

    /** Quiet against noisy p99, in three bands; a decrease is in the first. */
    static Frame.Predict hogPredict(Cond quiet, Cond noisy) {
        double r = ratio(noisy.p99().value(), quiet.p99().value());
        int answer = r < 2 ? 0 : r <= 10 ? 1 : 2;
        String why = f("p99 went from %s quiet to %s with the hogs: %s.", quiet.p99().shown(), noisy.p99().shown(), x(r));
        why += answer == 0
                ? f(" The scheduler still wakes the feeder promptly; the hogs show in the missed ticks instead: %s against %s.", pct(noisy.missed()),
                        pct(quiet.missed()))
                : " The feeding thread competes with the hogs (in training: DataLoader workers and other processes) for CPU time.";
        return new Frame.Predict("With a CPU hog on every core, how much does the p99 lateness grow here?",
                List.of("less than 2x", "2x to 10x", "more than 10x"), answer, why);
    }

    /**
     * Which remedy shortens a step of {@link #KERNELS} kernels more: pinning (against the noisy run it
     * is measured beside) or a CUDA graph (against the quiet run, as it ran); neither when both gain
     * less than {@link #MATERIAL} of the step they shorten.
     */
    static Frame.Predict remedyPredict(Cond quiet, Cond noisy, Cond pinned, Cond graph) {
        double pinGain = noisy.stepUs() - pinned.stepUs(), graphGain = quiet.stepUs() - graph.stepUs();
        boolean pin = pinGain > MATERIAL * noisy.stepUs(), gr = graphGain > MATERIAL * quiet.stepUs();
        int answer = !pin && !gr ? 2 : pin && (!gr || pinGain >= graphGain) ? 0 : 1;
        String why = f("For a step of %d kernels at p99 (lateness plus launch calls): pinning takes it from %s us (hogs, unpinned) to %s us, a gain of %s us; "
                        + "a CUDA graph from %s us (quiet, %d launches) to %s us, a gain of %s us.", KERNELS, n(noisy.stepUs()), n(pinned.stepUs()), n(pinGain),
                n(quiet.stepUs()), KERNELS, n(graph.stepUs()), n(graphGain));
        why += answer == 2 ? " Neither gains a tenth of the step here." : "";
        boolean mine = quiet.p99().mine() && noisy.p99().mine() && pinned.p99().mine() && graph.p99().mine() && graph.launchP50().mine();
        why += mine ? " All from launch figures measured here." : " These launch figures are typical, not this machine's (" + TYPICAL + ").";
        return new Frame.Predict("Which shortens a step of " + KERNELS + " kernels more on this machine: pinning the feeder, or a CUDA graph?",
                List.of("pinning the feeder", "a CUDA graph", "neither, by a tenth of the step"), answer, why);
    }

    /** As hostside.cpu.MeasuredVerdicts.pinned, on medians: a third off the p99 or p99.9, or half the missed ticks where at least 1% were missed. */
    static boolean pinHelps(Cond noisy, Cond pinned) {
        return noisy.p99().value() > 1.5 * pinned.p99().value() || noisy.p999().value() > 1.5 * pinned.p999().value()
                || noisy.missed().value() >= 1 && noisy.missed().value() > 2 * pinned.missed().value();
    }

    /** Said when the run under hogs came out earlier than the quiet one, which hogs cannot cause. */
    static String disturbed(Cond quiet, Cond noisy) {
        if (noisy.p99().value() * 1.1 >= quiet.p99().value()) return "";
        return " The hogs cannot make wake-ups earlier: something else ran during the quiet run, so read this pair with care (the report's findings say whether it was beyond noise).";
    }

    // ---- drawings ----

    /** The step's actors: a DataLoader worker, the feeder, the launch queue, the GPU. */
    static String overview() {
        Svg s = new Svg(W, H);
        s.text(W / 2.0, 22, "One training step, CPU side", "middle", "on");
        s.box(10, 90, 130, 60, "DataLoader worker\n(CPU 3)", "dim");
        s.box(240, 90, 150, 60, "main thread: the feeder\n(CPU 0)", "on");
        s.box(490, 60, 140, 40, "GPU launch queue", "dim");
        s.box(490, 150, 140, 40, "GPU: kernels run", "dim");
        s.arrow(140, 120, 240, 120, "", "on");
        s.text(190, 142, "batch, futex wake", "middle", "on");
        s.arrow(390, 110, 490, 80, "", "on");
        s.text(440, 70, "cuLaunchKernel", "middle", "on");
        s.arrow(560, 100, 560, 150, "", "dim");
        s.line(240, 200, 390, 200, "dim");
        s.text(315, 218, "syscalls, sleeps: the kernel", "middle", "dim");
        s.text(W / 2.0, 248, "next: what each hand-over costs on this machine", "middle", "dim");
        return s.render("The step's actors: a DataLoader worker hands a batch to the feeder thread, which launches kernels into the GPU's queue");
    }

    static String syscall(Value sys) {
        Svg s = new Svg(W, H);
        s.box(40, 40, 560, 60, "user space: the feeder thread (Python, PyTorch)", "on");
        s.box(40, 160, 560, 60, "kernel: entry, getppid, exit (mitigations on the way)", "dim");
        s.arrow(260, 100, 260, 160, "syscall", "hot");
        s.arrow(380, 160, 380, 100, "return", "on");
        s.text(400, 136, "round trip: " + n(sys.value()) + " " + sys.unit() + (sys.mine() ? "" : " (typical)"), "start", "hot");
        s.text(320, 245, "bare metal: 0.1-0.5 us; over 0.8 us is slow", "middle", "dim");
        return s.render("A syscall from the feeder into the kernel and back, " + n(sys.value()) + " " + sys.unit());
    }

    static String switches(Value same, Value cross) {
        Svg s = new Svg(W, H);
        s.text(160, 30, "same core", "middle", "on");
        s.box(60, 50, 200, 50, "CPU 0: feeder", "on");
        s.box(60, 150, 200, 50, "CPU 0: worker", "dim");
        s.arrow(120, 100, 120, 150, "", "on");
        s.arrow(200, 150, 200, 100, "", "on");
        s.text(160, 230, "switch: " + n(same.value()) + " us" + (same.mine() ? "" : " (typical)"), "middle", "on");
        s.text(480, 30, "across cores", "middle", "hot");
        s.box(380, 50, 200, 50, "CPU 0: feeder", "on");
        s.box(380, 150, 200, 50, "CPU 1: worker", "dim");
        s.arrow(440, 100, 440, 150, "", "hot");
        s.arrow(520, 150, 520, 100, "", "hot");
        s.text(480, 230, "hand-over: " + n(cross.value()) + " us" + (cross.mine() ? "" : " (typical)"), "middle", "hot");
        return s.render("A context switch costs " + n(same.value()) + " us on one core and " + n(cross.value()) + " us across cores");
    }

    static String wakeup(Value wake) {
        Svg s = new Svg(W, H);
        double x0 = 200, x1 = 560;
        s.text(8, 85, "worker, CPU 1", "start", "dim");
        s.text(8, 175, "feeder, CPU 0", "start", "on");
        s.bar(x0 - 80, 70, 80, 20, "dim");
        s.dot(x0, 80, 6, "hot");
        s.text(x0, 60, "FUTEX_WAKE", "middle", "hot");
        s.line(x0, 170, x1, 170, "dim");
        s.text((x0 + x1) / 2, 160, "asleep in FUTEX_WAIT, then woken", "middle", "dim");
        s.bar(x1, 160, 60, 20, "on");
        s.text(x1 + 30, 150, "runs", "middle", "on");
        s.arrow(x0, 90, x1, 160, n(wake.value()) + " us" + (wake.mine() ? "" : " (typical)"), "hot");
        s.text(W / 2.0, 235, "from the wake call to the sleeper running on its own core", "middle", "dim");
        return s.render("A futex wake-up across cores: the sleeper runs " + n(wake.value()) + " us after the wake call");
    }

    /** One launch's share of a period: the call, a worker's wake-up, a syscall; then the quiet p99 lateness beside it. */
    static String budget(Value sys, Value wake, Cond quiet) {
        Svg s = new Svg(W, H);
        double x0 = 40, w = 560, k = w / PERIOD_US;
        s.text(x0, 30, "one " + n(PERIOD_US) + " us period at " + count(1e6 / PERIOD_US) + " launches/s", "start", "on");
        s.bar(x0, 45, w, 36, "dim");
        double x = x0;
        double[] parts = {quiet.launchP50().value(), wake.value(), sys.value() / 1e3};
        String[] cls = {"on", "hot", "on"};
        for (int i = 0; i < parts.length; i++) {
            double pw = Math.min(parts[i] * k, x0 + w - x);
            s.bar(x, 45, pw, 36, cls[i]);
            x += pw;
        }
        s.text(x0, 100, f("launch %s us + wake-up %s us + syscall %s us", n(parts[0]), n(parts[1]), n(parts[2])), "start", "on");
        double left = PERIOD_US - parts[0] - parts[1] - parts[2];
        s.text(x0 + w - 6, 68, left > 0 ? "left: " + n(left) + " us" : "over by " + n(-left) + " us", "end", left > 0 ? "on" : "bad");
        s.text(x0, 150, "and how late the feeder wakes (quiet, p99):", "start", "on");
        double lw = Math.min(w, quiet.p99().value() * k);
        s.bar(x0, 165, lw, 36, quiet.p99().value() > PERIOD_US ? "bad" : "hot");
        String late = n(quiet.p99().value()) + " us" + (quiet.p99().value() > PERIOD_US ? ", past the period" : "");
        if (lw > w - 140) s.text(x0, 222, late, "start", "bad");
        else s.text(x0 + lw + 6, 188, late, "start", "hot");
        s.line(x0 + w, 40, x0 + w, 210, "on");
        s.text(x0 + w, 230, n(PERIOD_US) + " us: next launch due", "end", "on");
        return s.render("One launch's CPU costs against its " + n(PERIOD_US) + " us period, and the quiet p99 lateness beside them");
    }

    /**
     * The four conditions as timelines of {@link #TICKS} ticks, the first {@code revealed} drawn
     * (the last of them lit), the others ticks only: most launches at p50, one at p99, one at
     * p99.9; a wake-up past later ticks skips them, as the drill counts them missed.
     */
    static String timeline(List<Cond> conds, int revealed) {
        Svg s = new Svg(W, H);
        double x0 = 178, w = 450, k = w / (TICKS * PERIOD_US);
        s.text(8, 16, f("a tick every %s us (%s/s); launches at p50, %dth at p99, %dth at p99.9", n(PERIOD_US), count(1e6 / PERIOD_US),
                AT_P99 + 1, AT_P999 + 1), "start", "on");
        s.text(8, 32, "| tick   \u25ae launch   x missed tick   (quantiles placed, not a recording)", "start", "dim");
        for (int r = 0; r < conds.size(); r++) {
            Cond c = conds.get(r);
            double y = 44 + r * 48, base = y + 36;
            boolean shown = r < revealed, lit = r == revealed - 1;
            String cls = lit ? "on" : "dim";
            s.text(8, y + 12, c.label() + (c.timer() ? " (timer)" : ""), "start", shown ? cls : "dim");
            s.text(8, y + 26, shown ? "p99 " + n(c.p99().value()) + ", p99.9 " + n(c.p999().value()) + " us" : "?", "start", shown ? cls : "dim");
            if (shown) s.text(8, y + 40, "missed " + pct(c.missed().value()) + (c.p99().mine() ? "" : ", typical"), "start", cls);
            s.line(x0, base, x0 + w, base, "dim");
            for (int i = 0; i <= TICKS; i++) s.line(x0 + i * PERIOD_US * k, base - 4, x0 + i * PERIOD_US * k, base + 6, "dim");
            if (!shown) continue;
            double launchUs = c.timer() ? 0 : c.launchP50().value();
            int i = 0;
            while (i < TICKS) {
                double late = i == AT_P99 ? c.p99().value() : i == AT_P999 ? c.p999().value() : c.p50().value();
                double tick = i * PERIOD_US, wake = tick + late, end = TICKS * PERIOD_US;
                String mark = lit ? (i == AT_P99 || i == AT_P999 ? "hot" : "on") : "dim";
                double wx = x0 + Math.min(wake, end) * k;
                s.line(x0 + tick * k, base - 2, wx, base - 2, mark);
                if (wake >= end) {
                    s.text(x0 + w, y + 14, "... " + n(late) + " us late", "end", lit ? "bad" : "dim");
                    break;
                }
                s.bar(wx, base - 18, Math.max(5, launchUs * k), 16, mark);
                if (lit && (i == AT_P99 || i == AT_P999)) s.text(wx, y + 14, i == AT_P99 ? "p99" : "p99.9", "middle", "hot");
                int next = i + 1;
                while (next < TICKS && next * PERIOD_US <= wake) {
                    s.text(x0 + next * PERIOD_US * k, base + 12, "x", "middle", lit ? "bad" : "dim");
                    next++;
                }
                i = next;
            }
        }
        return s.render(f("Launch timelines, %d of 4 conditions shown: ticks every %s us, launches at this machine's p50, p99 and p99.9 lateness",
                revealed, n(PERIOD_US)));
    }

    /** p99 and p99.9 of the four conditions against the period, the scale capped at 20 periods. */
    static String summary(List<Cond> conds) {
        Svg s = new Svg(W, H);
        double max = PERIOD_US;
        for (Cond c : conds) max = Math.max(max, c.p999().value());
        max = Math.min(max * 1.15, 20 * PERIOD_US);
        double x0 = 150, w = 360, k = w / max; // room after the longest bar for "5910 (off scale)"
        s.text(8, 18, "lateness at p99 (upper bar) and p99.9 (lower bar), us", "start", "on");
        List<String> hot = new ArrayList<>();
        for (int r = 0; r < conds.size(); r++) {
            Cond c = conds.get(r);
            double y = 36 + r * 50;
            s.text(8, y + 14, c.label(), "start", "on");
            s.text(8, y + 30, "missed " + pct(c.missed().value()), "start", c.missed().value() >= 1 ? "bad" : "dim");
            double b99 = Math.min(w, c.p99().value() * k), b999 = Math.min(w, c.p999().value() * k);
            s.bar(x0, y + 4, b99, 14, "on");
            s.bar(x0, y + 22, b999, 14, c.p999().value() > PERIOD_US ? "bad" : "hot");
            s.text(x0 + b99 + 4, y + 15, n(c.p99().value()) + (c.p99().mine() ? "" : " (typical)"), "start", "on");
            s.text(x0 + b999 + 4, y + 33, n(c.p999().value()) + (c.p999().value() * k > w ? " (off scale)" : ""), "start", "hot");
            if (c.p999().value() > PERIOD_US) hot.add(c.label());
        }
        s.line(x0 + PERIOD_US * k, 30, x0 + PERIOD_US * k, 236, "bad");
        s.text(x0 + PERIOD_US * k, 252, n(PERIOD_US) + " us: the next launch is due", "middle", "bad");
        return s.render("Lateness at p99 and p99.9 in the four conditions against the " + n(PERIOD_US) + " us period"
                + (hot.isEmpty() ? "" : "; past it at p99.9: " + String.join(", ", hot)));
    }
}
