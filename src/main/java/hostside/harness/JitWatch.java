package hostside.harness;

/**
 * Whether the JIT has gone quiet: the JVM's total compilation time has not moved for a while.
 * Read during warm-ups, and around a recording, never inside one: a warm-up ends when the code it
 * runs is compiled (the launch-jitter feeder, the memory kernels), and a jitter recording keeps
 * how long the JIT compiled while it ran.
 */
public final class JitWatch {
    /**
     * Looked up once: asking the ManagementFactory each time, every 64 ticks of a jitter warm-up,
     * kept the JIT compiling its lookup for a second more (warm-ups of 1.4 s instead of 0.45 on the
     * dev VM) and into the recording.
     */
    private static final java.lang.management.CompilationMXBean BEAN = java.lang.management.ManagementFactory.getCompilationMXBean();
    private static final boolean COUNTED = BEAN != null && BEAN.isCompilationTimeMonitoringSupported();
    private long lastTotal = -1, lastChange;

    /** The JVM's total compilation time so far, ms; -1 where the JVM does not count it. */
    public static long totalMs() {
        return COUNTED ? BEAN.getTotalCompilationTime() : -1;
    }

    /** Whether no compilation has ended for {@code ns} before {@code now}; true where the JVM does not count compilation time. */
    public boolean quietFor(long now, long ns) {
        long total = totalMs();
        return total < 0 || settled(total, now, ns);
    }

    /** The rule apart from the bean: a new total restarts the clock. */
    public boolean settled(long total, long now, long ns) {
        if (total != lastTotal) {
            lastTotal = total;
            lastChange = now;
        }
        return now - lastChange >= ns;
    }
}
