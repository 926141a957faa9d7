package hostside.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM for {@link ChildrenTest} to SIGKILL: starts a shell with two background sleeps through
 * {@link Children}, prints "running SHELL SLEEP SLEEP WATCHDOG", and waits to be killed.
 */
public final class ChildrenHolder {
    public static void main(String[] args) throws Exception {
        Child c = Children.start(new ProcessBuilder("/bin/sh", "-c", "sleep 300 & sleep 300 & wait"));
        List<ProcessHandle> below;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        do {
            below = c.process().descendants().toList();
            Thread.sleep(10);
        } while (below.size() < 2 && System.nanoTime() < end);
        List<String> pids = new ArrayList<>(List.of(Long.toString(c.pid())));
        below.forEach(h -> pids.add(Long.toString(h.pid())));
        pids.add(Long.toString(Children.watchdogPid()));
        System.out.println("running " + String.join(" ", pids));
        System.out.flush();
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }
}
