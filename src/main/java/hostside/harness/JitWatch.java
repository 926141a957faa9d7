package hostside.harness;

/**
 * Whether the JIT has gone quiet: the JVM's total compilation time has not moved for a while.
 * Read during warm-ups only, never while recording: a warm-up ends when the code it runs is
 * compiled (the launch-jitter feeder, the memory kernels).
 */
public final class JitWatch {
    private final java.lang.management.CompilationMXBean bean = java.lang.management.ManagementFactory.getCompilationMXBean();
    private long lastTotal = -1, lastChange;

    /** The JVM's total compilation time so far, ms; -1 where the JVM does not count it. */
    public static long totalMs() {
        var b = java.lang.management.ManagementFactory.getCompilationMXBean();
        return b == null || !b.isCompilationTimeMonitoringSupported() ? -1 : b.getTotalCompilationTime();
    }

    public boolean quietFor(long now, long ns) {
        if (bean == null || !bean.isCompilationTimeMonitoringSupported()) return true;
        return settled(bean.getTotalCompilationTime(), now, ns);
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
