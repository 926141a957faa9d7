package hostside.harness;

/**
 * What a drill's cases run against, made only when the first case runs (never on a recording: no
 * GPU opened, no test file written) and closed on every exit path: a GPU context released, a test
 * file removed.
 */
public interface DrillTarget<C> extends AutoCloseable {
    /** Made once, when the cases begin. */
    C make();

    /** Releases what {@link #make()} made; nothing when it never ran. */
    @Override
    void close();
}
