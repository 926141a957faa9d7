package hostside.cpu.measure;

import java.lang.foreign.MemorySegment;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.Graph;
import hostside.gpu.cuda.Module;
import hostside.libc.Sched;

/**
 * One tick of the feeder: sleep to the deadline, note the wake-up, launch (on a GPU), and
 * record lateness, launch time, gap and skipped ticks, in the part of the run it falls in.
 */
final class Ticker {
    private final Feeder.Series s;
    private final MemorySegment ts;
    private final long period, perSegment;
    private final GpuBench b;
    private final Module.Prepared launch;
    private final Graph g;
    private Schedule ticks;
    private long previous, inPhase, count;

    Ticker(Feeder.Series s, MemorySegment ts, long period, long perSegment, GpuBench b, Module.Prepared launch, Graph g) {
        this.s = s;
        this.ts = ts;
        this.period = period;
        this.perSegment = perSegment;
        this.b = b;
        this.launch = launch;
        this.g = g;
    }

    /**
     * A fresh cadence whose first deadline is {@code first}, segments from the first tick. Its
     * first gap is counted from the tick before {@code first}, as though that had been on time,
     * not from a wake-up before the restart; so every tick records a gap and the code takes the
     * same path in warm-up and recording.
     */
    void restart(long first) {
        ticks = new Schedule(first, period);
        previous = first - period;
        inPhase = 0;
    }

    /** One tick; returns when it woke. */
    long tick() {
        long deadline = ticks.deadline();
        Sched.sleepUntil(deadline, ts);
        long woke = System.nanoTime();
        long t0 = woke, t1 = woke;
        if (b != null) {
            t0 = System.nanoTime();
            if (g != null) g.launch(b.stream);
            else launch.launch();
            t1 = System.nanoTime();
        }
        long skipped = ticks.advance(woke);
        long late = Math.min(LaunchJitter.MAX_NS, Math.max(0, woke - deadline));
        int part = (int) Math.min(LaunchJitter.SEGMENTS - 1, inPhase / perSegment);
        s.late().recordValue(late);
        s.segmentLate()[part].recordValue(late);
        if (b != null) s.launch().recordValue(Math.min(LaunchJitter.MAX_NS, t1 - t0));
        s.gap().recordValue(Math.min(LaunchJitter.MAX_NS, Math.max(0, t0 - previous)));
        s.missed()[0] += skipped;
        s.segmentMissed()[part] += skipped;
        previous = t0;
        inPhase++;
        // A GPU that falls behind would turn launch time into queue-full waits: drain now and then.
        if (b != null && (++count & 1023) == 0) b.stream.synchronize();
        return woke;
    }
}
