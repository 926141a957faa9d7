package hostside.cpu.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The workload to trace when the user names none: hostside's bundled {@code train_step.py} (a
 * small MLP, a DataLoader with 2 workers over a synthetic TensorDataset, pinned memory and the
 * GPU when CUDA is there) run by a python3 that has torch. Where there is none, {@link #reason()}
 * says why and the caller traces a fallback of its own.
 *
 * <p>The script travels as {@code python3 -c SCRIPT}, so nothing is written to disk, and
 * python3 is named by its real path ({@code sys.executable}), so that a pyenv or conda shim's
 * own processes stay out of the trace.
 */
public final class BuiltinStep {
    public static final String SCRIPT = "train_step.py";
    public static final int STEPS = 50;
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);
    static final String PROBE = "import sys; print(sys.executable); import torch; print(torch.__version__); print(torch.cuda.is_available())";

    private final Optional<Path> python;
    private final String torchVersion;
    private final boolean cuda;
    private final String reason;

    private BuiltinStep(Optional<Path> python, String torchVersion, boolean cuda, String reason) {
        this.python = python;
        this.torchVersion = torchVersion;
        this.cuda = cuda;
        this.reason = reason;
    }

    /** Looks for python3 on this process's PATH and asks it to import torch (at most {@link #PROBE_TIMEOUT}). */
    public static BuiltinStep probe() {
        return probe(System.getenv("PATH"), PROBE_TIMEOUT);
    }

    public static BuiltinStep probe(String pathEnv, Duration timeout) {
        Optional<Path> py = Strace.onPath("python3", pathEnv);
        if (py.isEmpty()) return absent("no python3");
        Processes.Output o;
        try {
            o = Processes.run(List.of(py.get().toString(), "-c", PROBE), Map.of("PATH", pathEnv), timeout);
        } catch (UncheckedIOException e) {
            return absent("no python3 (" + py.get() + " cannot be run)");
        }
        if (o.timedOut()) return absent("python3 -c 'import torch' took longer than " + timeout.toSeconds() + " s");
        List<String> out = o.stdout().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (o.exitCode() != 0 || out.size() < 3) {
            if (o.stderr().contains("No module named 'torch'") || o.stderr().contains("No module named torch")) return absent("torch not installed");
            String last = o.stderr().lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("exit status " + o.exitCode()).strip();
            return absent("python3 -c 'import torch' failed: " + (last.length() > 120 ? last.substring(0, 117) + "..." : last));
        }
        Path exe = out.get(0).isEmpty() ? py.get() : Path.of(out.get(0));
        return new BuiltinStep(Optional.of(exe), out.get(1), Boolean.parseBoolean(out.get(2).toLowerCase(java.util.Locale.ROOT)), "");
    }

    private static BuiltinStep absent(String why) {
        return new BuiltinStep(Optional.empty(), "", false, why);
    }

    /** The command that runs the built-in step, where python3 with torch is present. */
    public Optional<List<String>> pythonTorchStep() {
        return python.map(p -> List.of(p.toString(), "-c", script(), "--steps", Integer.toString(STEPS)));
    }

    /** The same as a {@link Target}, shown as "built-in step (train_step.py, torch 2.11.0, CUDA)". */
    public Optional<Target> target() {
        return pythonTorchStep().map(cmd -> Target.command(cmd, describe()));
    }

    /** Why there is no built-in step here ("no python3", "torch not installed"); "" when there is one. */
    public String reason() {
        return reason;
    }

    public String torchVersion() {
        return torchVersion;
    }

    /** Whether torch saw a CUDA device (the step then runs there, with pinned memory). */
    public boolean cuda() {
        return cuda;
    }

    public String describe() {
        if (python.isEmpty()) return "no built-in step: " + reason;
        return "built-in step (" + SCRIPT + ", " + STEPS + " steps, torch " + torchVersion + ", " + (cuda ? "CUDA" : "CPU") + ")";
    }

    /** The bundled script's text. */
    public static String script() {
        try (InputStream in = BuiltinStep.class.getResourceAsStream(SCRIPT)) {
            if (in == null) throw new IllegalStateException(SCRIPT + " is missing from hostside's resources");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
