package hostside.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * A launcher run under a memory limit, as a user's shell, a batch system or a container sets one:
 * {@code bash -c 'LIMIT; exec LAUNCHER ARGS'} from a working directory of its own, so that what a
 * failing JVM leaves behind there (hs_err_pid*.log, replay_pid*.log, core) can be looked for.
 */
public final class Limited {
    private Limited() {}

    public record Run(int code, String out, String err) {}

    /** Runs {@code command} after the shell commands {@code limit} (ulimit -v N, ...), in {@code work}, with {@code env} added. */
    public static Run run(Path work, Map<String, String> env, String limit, List<String> command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", limit + "; exec \"$@\"", "bash"));
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("HOSTSIDE_") || k.contains("JAVA_OPTIONS") || k.equals("MALLOC_ARENA_MAX"));
        pb.environment().putAll(env);
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the launcher finished").isTrue();
        return new Run(p.exitValue(), out, err.get());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** What a failing JVM may have left in {@code dir}: hs_err_pid*.log, replay_pid*.log, core files. */
    public static List<String> crashLitter(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith("hs_err_pid") || n.startsWith("replay_pid") || n.startsWith("core")).sorted().toList();
        }
    }

    /**
     * A memory cgroup of its own with a limit, v1 (memory.limit_in_bytes) or v2 (memory.max),
     * removed on close; {@link #enter()} is the shell command that moves the shell into it. CI runs
     * as root where one can be made; elsewhere the test fails, unless
     * HOSTSIDE_ALLOW_NO_CONTAINER_TEST=1 says to skip it.
     */
    public static final class MemoryCgroup implements AutoCloseable {
        static final String ALLOW = "HOSTSIDE_ALLOW_NO_CONTAINER_TEST";
        final Path dir;

        private MemoryCgroup(Path dir) {
            this.dir = dir;
        }

        public static MemoryCgroup withLimit(long bytes) throws IOException {
            String name = "hostside-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
            Path v1 = Path.of("/sys/fs/cgroup/memory"), v2 = Path.of("/sys/fs/cgroup");
            Path subtree = v2.resolve("cgroup.subtree_control");
            try {
                if (Files.isDirectory(v1) && Files.exists(v1.resolve("memory.limit_in_bytes"))) {
                    Path d = Files.createDirectory(v1.resolve(name));
                    Files.writeString(d.resolve("memory.limit_in_bytes"), Long.toString(bytes));
                    return new MemoryCgroup(d);
                }
                if (Files.exists(subtree) && List.of(Files.readString(subtree).strip().split(" ")).contains("memory")) {
                    Path d = Files.createDirectory(v2.resolve(name));
                    Files.writeString(d.resolve("memory.max"), Long.toString(bytes));
                    Files.writeString(d.resolve("memory.swap.max"), "0");
                    return new MemoryCgroup(d);
                }
                unavailable("neither a v1 memory hierarchy at /sys/fs/cgroup/memory nor a v2 root that delegates memory");
            } catch (IOException e) {
                unavailable("cannot make a memory cgroup (" + e + ")");
            }
            throw new AssertionError("unreachable");
        }

        private static void unavailable(String why) {
            String message = why + ": this test needs root and a memory cgroup it can create, as CI has; set " + ALLOW + "=1 to skip it elsewhere";
            if ("1".equals(System.getenv(ALLOW))) Assumptions.abort(message);
            fail(message);
        }

        public String enter() {
            return "echo $$ > '" + dir.resolve("cgroup.procs") + "'";
        }

        @Override
        public void close() throws IOException {
            Files.deleteIfExists(dir); // rmdir: empty once the run has ended
        }
    }
}
