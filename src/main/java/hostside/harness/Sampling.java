package hostside.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;

import hostside.core.Stats;

/**
 * The sample loop, owned by the harness as JMH's runner owns it: warm-ups run and are thrown away,
 * then the samples are kept. A test case says what one sample is; it never writes the loop. The
 * sample function gets the sample's number: negative during the warm-ups, 0 to samples-1 after.
 */
public record Sampling(int warmups, int samples) {
    public Sampling {
        if (warmups < 0 || samples < 1) throw new IllegalArgumentException(warmups + " warm-ups and " + samples + " samples");
    }

    /** The kept samples' figures, in order. */
    public double[] take(IntToDoubleFunction sample) {
        double[] kept = new double[samples];
        for (int i = -warmups; i < samples; i++) {
            double v = sample.applyAsDouble(i);
            if (i >= 0) kept[i] = v;
        }
        return kept;
    }

    /** The median, min and max of the kept samples. */
    public Stats stats(IntToDoubleFunction sample) {
        return Stats.of(take(sample));
    }

    /** Each kept sample's whole outcome, for a case that keeps more than one figure per sample (faults beside time). */
    public <T> List<T> each(IntFunction<T> sample) {
        List<T> kept = new ArrayList<>(samples);
        for (int i = -warmups; i < samples; i++) {
            T v = sample.apply(i);
            if (i >= 0) kept.add(v);
        }
        return kept;
    }
}
