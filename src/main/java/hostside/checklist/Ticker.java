package hostside.checklist;

/**
 * The sampler's clock: when it is, and waiting until a moment. Injected so that a test can run
 * a window in no time, rewriting the recorded /proc between samples while it "waits".
 */
public interface Ticker {
    long nanoTime();

    /** Wall-clock time, milliseconds since the epoch: when the window began, for lining it up with other tools' logs. */
    long epochMillis();

    /** Returns at {@code deadline} (on {@link #nanoTime()}'s scale) or at once if it has passed. */
    void sleepUntil(long deadline) throws InterruptedException;

    static Ticker system() {
        return new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public long epochMillis() {
                return System.currentTimeMillis();
            }

            @Override
            public void sleepUntil(long deadline) throws InterruptedException {
                long left;
                while ((left = deadline - System.nanoTime()) > 0) Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            }
        };
    }
}
