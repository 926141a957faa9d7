package hostside.cpu.trace;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Run by {@link JvmExitCleanupTest} in a JVM of its own: traces {@code sleep 60} with a long
 * limit and prints the PIDs of strace and sleep once both run, so that the test can end this
 * JVM mid-trace. Arguments: the folder for strace's files, and "summary" or "timed".
 */
public final class TraceUntilKilled {
    public static void main(String[] args) throws Exception {
        Tracer tracer = new Tracer(Strace.locate(), Path.of(args[0]));
        Thread watcher = Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                List<ProcessHandle> all = ProcessHandle.current().descendants().toList();
                ProcessHandle strace = all.stream().filter(h -> h.info().command().orElse("").endsWith("strace")).findFirst().orElse(null);
                ProcessHandle sleep = all.stream().filter(h -> h.info().command().orElse("").endsWith("sleep")).findFirst().orElse(null);
                if (strace != null && sleep != null) {
                    System.out.println("running " + strace.pid() + " " + sleep.pid());
                    System.out.flush();
                    return;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Target sleep = Target.command(List.of("sleep", "60"));
        TraceLimits limits = TraceLimits.of(Duration.ofSeconds(60));
        if (args[1].equals("summary")) tracer.summary(sleep, limits);
        else tracer.timed(sleep, limits);
        watcher.join();
        System.out.println("finished");
    }
}
