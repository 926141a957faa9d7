package hostside.cpu.measure;

import static hostside.cpu.measure.LaunchJitter.GRAPH_KERNELS;
import static hostside.cpu.measure.LaunchJitter.MAX_NS;
import static hostside.cpu.measure.LaunchJitter.SEGMENTS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.HdrHistogram.Histogram;

import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.Graph;
import hostside.gpu.cuda.Module;
import hostside.harness.JitWatch;
import hostside.libc.Sched;

/**
 * One jitter condition's feeder thread: its warm-up (a burst where the JVM has not compiled the
 * tick's branch yet, then ticks at the cadence until the JIT is quiet, {@link TickWarmup}) and its
 * recording of {@link CpuTarget#launches()} ticks, into a {@link Series}. {@link LaunchJitter} says
 * what the condition is and turns the series into its figures.
 */
final class Feeder {
    private Feeder() {}

    /**
     * The distributions of one run, in ns, with the ticks skipped, whether the time bound cut it
     * short, the warm-up (ticks, ns; whether the JIT had gone quiet by its end), and per segment
     * its lateness (at 1% precision: it serves the spread) and its missed ticks. Each segment has
     * its histogram from the start, so the loop only indexes: computing a segment's quantiles as
     * it closed, in the loop, took the feeder 0.1-0.5 ms of walking counts five times a run
     * (interpreted at first, then compiled mid-run), and under hogs each such stretch of CPU
     * made it wait a whole scheduler slice: tens of missed ticks that the C loop never has.
     */
    record Series(Histogram late, Histogram launch, Histogram gap, long[] slackNs, long[] missed, boolean[] cut, long[] warmup, boolean[] jitSettled,
                  Histogram[] segmentLate, long[] segmentMissed, long[] jitInRecordingMs) {
        static Series create() {
            Histogram[] parts = new Histogram[SEGMENTS];
            for (int k = 0; k < SEGMENTS; k++) parts[k] = new Histogram(MAX_NS, 2);
            return new Series(new Histogram(MAX_NS, 3), new Histogram(MAX_NS, 3), new Histogram(MAX_NS, 3), new long[1], new long[1],
                    new boolean[1], new long[2], new boolean[1], parts, new long[SEGMENTS], new long[] {-1});
        }

        /** The segments that hold a wake-up, in order (after the run: this walks the histograms). */
        List<LaunchJitter.Segment> segments() {
            List<LaunchJitter.Segment> out = new ArrayList<>(SEGMENTS);
            for (int k = 0; k < SEGMENTS; k++) {
                Histogram h = segmentLate[k];
                if (h.getTotalCount() > 0) out.add(new LaunchJitter.Segment(h.getTotalCount(), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), segmentMissed[k]));
            }
            return out;
        }

        /** Forgets the warm-up's figures. */
        void reset() {
            late.reset();
            launch.reset();
            gap.reset();
            missed[0] = 0;
            for (Histogram h : segmentLate) h.reset();
            Arrays.fill(segmentMissed, 0);
        }
    }

    /** The feeder on its own thread (pinned when {@code cpu} >= 0), so the caller's affinity is left alone: its warm-up, then its recording. */
    static Series run(CpuTarget t, GpuBench gpu, boolean graph, int cpu) {
        Series s = Series.create();
        RuntimeException[] failure = new RuntimeException[1];
        Thread feeder = Thread.ofPlatform().name("hostside-feeder").unstarted(() -> {
            try {
                s.slackNs()[0] = Sched.timerSlackNs();
                if (cpu >= 0) Sched.pin(cpu);
                // a CUDA context is current per thread: this new thread must make the GPU's current
                if (gpu != null) gpu.gpu.makeCurrent();
                loop(t, gpu, graph, s);
            } catch (RuntimeException e) {
                failure[0] = e;
            }
        });
        feeder.start();
        try {
            feeder.join();
        } catch (InterruptedException e) {
            feeder.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        if (failure[0] != null) throw failure[0];
        return s;
    }

    private static void loop(CpuTarget t, GpuBench b, boolean graph, Series s) {
        try (Arena arena = Arena.ofConfined();
             Module.Prepared launch = b == null ? null : b.empty.prepare(b.stream, 1, 1);
             Graph g = b != null && graph ? Graph.capture(b.cuda, b.stream, () -> {
                 for (int k = 0; k < GRAPH_KERNELS; k++) launch.launch();
             }) : null) {
            long period = t.periodNs();
            int wakes = t.launches();
            TickWarmup.TickCode code = TickWarmup.TickCode.of(b != null, graph);
            MemorySegment timespec = arena.allocate(16);
            long perSegment = Math.max(1, (wakes + SEGMENTS - 1) / SEGMENTS);
            Ticker f = new Ticker(s, timespec, period, perSegment, b, launch, g);
            JitWatch jit = new JitWatch();
            // Warm-up runs the very code that records (Ticker.tick), recording into the same
            // histograms, which are then cleared: a branch first taken after warm-up would be
            // compiled then, and each compilation's deoptimisation handshake makes the feeder wait
            // for the VM thread, which CPU hogs starve for a whole slice (ms-long stalls on the
            // H200 machine). One tick is one call, so it is compiled within the warm-up; so is the
            // recording's loop, a method of its own (record) that the burst calls too. A branch
            // this JVM has not compiled yet is first called in a burst (TickWarmup.BURST_CALLS),
            // then warmed at the cadence until the JIT is quiet.
            long warmStart = System.nanoTime();
            int warmed = burst(new Ticker(s, timespec, TickWarmup.BURST_PERIOD_NS, perSegment, b, launch, g), TickWarmup.burstCalls(code), s);
            int warmupAtLeast = warmed + TickWarmup.leastTicks(wakes);
            jit.quietFor(System.nanoTime(), TickWarmup.JIT_QUIET_NS); // the JIT's quiet is counted from here
            f.restart(System.nanoTime() + 1_000_000);
            while (true) {
                long woke = f.tick();
                warmed++;
                boolean quiet = warmed >= warmupAtLeast && (warmed & 63) == 0 && jit.quietFor(woke, TickWarmup.JIT_QUIET_NS);
                if (quiet || warmed >= warmupAtLeast && woke - warmStart > TickWarmup.MAX_WARMUP_NS) {
                    s.warmup()[0] = warmed;
                    s.warmup()[1] = woke - warmStart;
                    s.jitSettled()[0] = quiet;
                    if (quiet) TickWarmup.COMPILED.add(code);
                    break;
                }
            }
            s.reset();
            // the recording's own cadence from here, as refs timer's continues: clearing the warm-up's
            // histograms (some 0.7 MB) may take longer than a period, which is no wake-up's lateness
            long jitBefore = JitWatch.totalMs();
            long recordingFrom = System.nanoTime(), bound = LaunchJitter.timeBoundNs(wakes, period);
            f.restart(recordingFrom + period);
            s.cut()[0] = record(f, wakes, recordingFrom, bound);
            long jitAfter = JitWatch.totalMs();
            if (jitBefore >= 0 && jitAfter >= 0) s.jitInRecordingMs()[0] = jitAfter - jitBefore;
            if (b != null) b.stream.synchronize();
        }
    }

    /**
     * {@code calls} calls of the recording ({@link #record}) over {@code burst}, whose deadlines have
     * all passed, a tick or two each ({@link #TWO_TICKS_EVERY}): the recording's and the tick's code
     * called as often as C2 asks, at once; returns the ticks made. The histograms are cleared every
     * {@link TickWarmup#BURST_RESET_EVERY} calls and at the end, so that the branches a recording
     * takes (a first value, a new minimum or maximum, the clearing itself) are in the profile C2
     * compiles: the burst's lateness alone is a near-constant 1 ms, and a branch it never takes is
     * compiled as a trap that the cadence then springs, inside the recording
     * (docs/measurements/2026-12-07-tick-burst-devvm.md).
     */
    static int burst(Ticker burst, int calls, Series s) {
        int ticked = 0;
        for (int k = 0; k < calls; k++) {
            if (k % TickWarmup.BURST_RESET_EVERY == 0) s.reset();
            burst.restart(System.nanoTime() - TickWarmup.BURST_PAST_NS);
            int ticks = k % TWO_TICKS_EVERY == 0 ? 2 : 1;
            record(burst, ticks, System.nanoTime(), Long.MAX_VALUE / 2);
            ticked += ticks;
        }
        if (calls > 0) s.reset();
        return ticked;
    }

    /**
     * How often the burst's call of {@link #record} makes two ticks rather than one: every eighth, so
     * that its loop's back edge is in the profile C2 compiles it from (never taken, it would be
     * compiled as a trap that a recording's second tick springs), while C2's threshold, counted in
     * calls, comes after some 5,600 ticks rather than 10,000. With two ticks every call the first
     * condition's warm-up took 1.18 s on the dev VM against 0.45 before (the burst's ticks run in
     * profiled code until C2 has compiled them).
     */
    static final int TWO_TICKS_EVERY = 8;

    /**
     * The recording: {@code wakes} ticks of {@code f}, stopping early once a wake-up comes more than
     * {@code boundNs} after {@code from}; whether it stopped so. A method of its own, called by the
     * burst a tick or two at a time ({@link #TWO_TICKS_EVERY}), so that the JIT compiles it as a method
     * before the first recording, which then runs compiled from its first tick. As a loop inside the
     * recording it ran interpreted until its back edges reached C1's threshold (60,000): by the third
     * condition of a drill, whose recording then compiled it on the stack (11 ms of compilation inside
     * launch_jitter_pinned's recording on an H100 VM, docs/measurements/2026-12-08-minute-cuts.md).
     */
    static boolean record(Ticker f, int wakes, long from, long boundNs) {
        for (int recorded = 0; recorded < wakes; recorded++) {
            if (f.tick() - from > boundNs) return true;
        }
        return false;
    }
}
