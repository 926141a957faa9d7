package hostside.cpu.dataloader;

import java.time.Duration;

import hostside.fs.FsRoot;

/** A JVM of its own that starts a long run and prints the pids it hears, for CleanupTest to stop. */
public final class CowChild {
    private CowChild() {}

    /** {@code args[0]}: the python3 to run. */
    public static void main(String[] args) throws Exception {
        DataLoaderTarget t = new DataLoaderTarget(FsRoot.live(), args[0], 4L << 20, 2, 1, Duration.ofSeconds(30),
                Duration.ofSeconds(60));
        CowSampler.run(t, DatasetKind.LIST, pid -> {
            System.out.println(pid);
            System.out.flush();
        });
    }
}
