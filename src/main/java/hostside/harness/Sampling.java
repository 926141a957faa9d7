package hostside.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;
import java.util.function.ToDoubleFunction;

import hostside.core.Stats;

/**
 * The sample loop, owned by the harness as JMH's runner owns it: warm-ups run and are thrown away,
 * then the samples are kept. A test case says what one sample is; it never writes the loop. The
 * sample function gets the sample's number: negative during the warm-ups, 0 and up after.
 *
 * <p>A fixed loop keeps {@code samples} samples. An adaptive one ({@link #untilSettled}) keeps at
 * least {@code samples} and stops as soon as its median is known to the case's precision
 * ({@link MedianInterval#within}), or at {@code maxSamples}, or once its kept samples have taken
 * {@code cap}, or as soon as its samples are spread too widely for either to settle it
 * ({@link #OUT_OF_REACH}): a quiet machine gives the figure in few samples, and a noisy one does
 * not buy a longer run but says it did not settle ({@link Settling}, which {@link Runner} hands to
 * the case's result).
 *
 * @param warmups    samples run first and thrown away
 * @param samples    samples kept at least (all of them, for a fixed loop)
 * @param maxSamples samples kept at most; equal to {@code samples} for a fixed loop
 * @param within     how closely an adaptive loop's median must be known, as a share of it (0.01: within 1%); 0 for a fixed loop
 * @param cap        how long an adaptive loop's kept samples may take before it stops unsettled; zero for a fixed loop
 */
public record Sampling(int warmups, int samples, int maxSamples, double within, Duration cap) {
    public Sampling {
        if (warmups < 0 || samples < 1) throw new IllegalArgumentException(warmups + " warm-ups and " + samples + " samples");
        if (maxSamples < samples) throw new IllegalArgumentException("at most " + maxSamples + " samples, fewer than the least, " + samples);
        if (cap == null || cap.isNegative()) throw new IllegalArgumentException("a time cap must not be negative");
        if (maxSamples > samples && (!(within > 0) || cap.isZero())) {
            throw new IllegalArgumentException("an adaptive loop needs a precision and a time cap: within " + within + ", cap " + cap);
        }
    }

    /** A fixed loop: {@code warmups} thrown away, {@code samples} kept. */
    public Sampling(int warmups, int samples) {
        this(warmups, samples, samples, 0, Duration.ZERO);
    }

    /**
     * An adaptive loop: at least {@code least} samples (five at the fewest: fewer cannot give the median's
     * interval {@link MedianInterval#LEAST} confidence), at most {@code most}, stopping once the median is
     * known within {@code within} of itself, or once the kept samples have taken {@code cap}.
     */
    public static Sampling untilSettled(int warmups, int least, int most, double within, Duration cap) {
        return new Sampling(warmups, Math.max(least, 5), Math.max(most, Math.max(least, 5) + 1), within, cap);
    }

    public boolean adaptive() {
        return maxSamples > samples;
    }

    /**
     * {@code work} that runs a sample loop on a thread of its own (a case that must leave its
     * caller's CPU affinity alone), made to report how its loops ended to the case now running, as
     * a loop on the case's own thread does. The case joins that thread before it returns.
     */
    public static Runnable reportingToThisCase(Runnable work) {
        if (!Settling.LOG.isBound()) return work;
        List<Settling> log = Settling.LOG.get();
        return () -> ScopedValue.where(Settling.LOG, log).run(work);
    }

    /**
     * How many times its precision a loop's median would still be known to, at the most samples it
     * can reach, for the loop to stop now ({@link Settling.Stop#OUT_OF_REACH}). The estimate
     * ({@link MedianInterval#halfWidthAt}) rests on as few as five samples, so it stops only a loop
     * that would miss by far: more samples then buy time and no figure. On the H200 VM the loops that
     * ran to their caps had their medians known to 1.9-12% where 1% was asked (the pageable and
     * bidirectional copies) and to 6.2-34% where 5% was (random reads, writes, the scheduler's costs:
     * ping-pongs, wake-ups, getppid), 17.5-19.3 s of each report's 101-104 s
     * (docs/measurements/2026-12-07-h200-evening.md).
     */
    public static final double OUT_OF_REACH = 2;

    /**
     * The samples a loop can still reach after {@code kept} samples in {@code elapsed} ns, at
     * {@code paceNs} a sample: its most samples, or as many as its time cap leaves, whichever comes first.
     */
    int reachable(int kept, long elapsed, long paceNs) {
        long more = (cap.toNanos() - elapsed) / Math.max(1, paceNs);
        return (int) Math.min(maxSamples, kept + Math.max(0, more));
    }

    /**
     * The least time the rest of a loop must still cost for it to be stopped early: cheaper samples
     * are taken, as they may settle it after all. On the dev VM, with every loop judged, the warm
     * sequential read (samples of 12 ms) stopped at five where it had settled at five and nine
     * samples before, for nothing saved (docs/measurements/2026-12-07-out-of-reach-devvm.md).
     */
    static final long WORTH_STOPPING_NS = 500_000_000L;

    /**
     * Whether the median of samples spread as {@code figures} are would still not be known within
     * {@link #OUT_OF_REACH} times the precision at {@code reachable} samples, while those samples
     * would take at least {@link #WORTH_STOPPING_NS} more at {@code paceNs} a sample: not worth the
     * rest of the loop. A loop that can reach no more samples than it has ends at its cap instead.
     */
    boolean outOfReach(double[] figures, int reachable, long paceNs) {
        int more = reachable - figures.length;
        return more > 0 && (double) more * paceNs >= WORTH_STOPPING_NS && MedianInterval.halfWidthAt(figures, reachable) > OUT_OF_REACH * within;
    }

    /** The kept samples' figures, in order. */
    public double[] take(IntToDoubleFunction sample) {
        return each(sample::applyAsDouble, d -> d).stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The median, min and max of the kept samples. */
    public Stats stats(IntToDoubleFunction sample) {
        return Stats.of(take(sample));
    }

    /**
     * Each kept sample's whole outcome, for a case that keeps more than one figure per sample (faults
     * beside time), in a fixed loop: an adaptive one must know each sample's figure ({@link #each(IntFunction, ToDoubleFunction)}).
     */
    public <T> List<T> each(IntFunction<T> sample) {
        if (adaptive()) throw new IllegalStateException("an adaptive loop settles on a figure: give each sample's");
        return each(sample, t -> 0);
    }

    /** Each kept sample's whole outcome; an adaptive loop settles on {@code figure} of each. */
    public <T> List<T> each(IntFunction<T> sample, ToDoubleFunction<T> figure) {
        for (int i = -warmups; i < 0; i++) sample.apply(i);
        List<T> kept = new ArrayList<>(samples);
        double[] figures = new double[maxSamples];
        long start = System.nanoTime();
        Settling.Stop stop = Settling.Stop.MOST_SAMPLES;
        for (int i = 0; i < maxSamples; i++) {
            T v = sample.apply(i);
            kept.add(v);
            if (!adaptive()) continue;
            figures[i] = figure.applyAsDouble(v);
            if (i + 1 < samples) continue;
            if (MedianInterval.of(Arrays.copyOf(figures, i + 1)).within(within)) {
                stop = Settling.Stop.SETTLED;
                break;
            }
            long elapsed = System.nanoTime() - start;
            if (elapsed >= cap.toNanos()) {
                stop = Settling.Stop.TIME_CAP;
                break;
            }
            long pace = elapsed / (i + 1);
            if (outOfReach(Arrays.copyOf(figures, i + 1), reachable(i + 1, elapsed, pace), pace)) {
                stop = Settling.Stop.OUT_OF_REACH;
                break;
            }
        }
        if (adaptive()) {
            MedianInterval interval = MedianInterval.of(Arrays.copyOf(figures, kept.size()));
            Settling.report(Settling.of(interval, maxSamples, stop, within, System.nanoTime() - start));
        }
        return kept;
    }
}
