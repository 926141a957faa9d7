package hostside.checklist;

import java.util.function.IntConsumer;

/** A clock that jumps to each deadline at once, and lets the test change the machine before each sample after the first. */
final class FakeTicker implements Ticker {
    private long now = 1_000_000_000L;
    private int sample;
    private final IntConsumer beforeSample;

    /** {@code beforeSample} hears 1, 2, ... before the second, third, ... sample is read. */
    FakeTicker(IntConsumer beforeSample) {
        this.beforeSample = beforeSample;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /** 2026-12-02T12:00:00Z plus the time this clock has run. */
    @Override
    public long epochMillis() {
        return 1_796_212_800_000L + (now - 1_000_000_000L) / 1_000_000;
    }

    @Override
    public void sleepUntil(long deadline) {
        now = Math.max(now, deadline);
        beforeSample.accept(++sample);
    }
}
