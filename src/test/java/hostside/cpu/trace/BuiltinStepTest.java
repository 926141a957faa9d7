package hostside.cpu.trace;

import static hostside.cpu.trace.StraceTest.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in step: python3 with torch runs the bundled script, anything less says why not. */
class BuiltinStepTest {
    @TempDir
    Path dir;

    @Test
    void noPython() throws IOException {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        BuiltinStep s = BuiltinStep.probe(bin.toString(), Duration.ofSeconds(5));
        assertThat(s.pythonTorchStep()).isEmpty();
        assertThat(s.target()).isEmpty();
        assertThat(s.reason()).isEqualTo("no python3");
        assertThat(s.describe()).isEqualTo("no built-in step: no python3");
    }

    @Test
    void pythonWithoutTorch() throws IOException {
        script(dir, "python3", """
                echo /usr/bin/python3
                echo "Traceback (most recent call last):" >&2
                echo '  File "<string>", line 1, in <module>' >&2
                echo "ModuleNotFoundError: No module named 'torch'" >&2
                exit 1""");
        BuiltinStep s = BuiltinStep.probe(dir.toString(), Duration.ofSeconds(10));
        assertThat(s.pythonTorchStep()).isEmpty();
        assertThat(s.reason()).isEqualTo("torch not installed");
    }

    @Test
    void torchThatFailsToImportSaysHow() throws IOException {
        script(dir, "python3", "echo 'OSError: libcudart.so.13: cannot open shared object file' >&2; exit 1");
        assertThat(BuiltinStep.probe(dir.toString(), Duration.ofSeconds(10)).reason())
                .isEqualTo("python3 -c 'import torch' failed: OSError: libcudart.so.13: cannot open shared object file");
    }

    @Test
    void pythonWithTorchRunsTheScriptByItsRealPath() throws IOException {
        script(dir, "python3", "echo /opt/torch/.venv/bin/python3; echo 2.11.0+cu130; echo True");
        BuiltinStep s = BuiltinStep.probe(dir.toString(), Duration.ofSeconds(10));
        assertThat(s.reason()).isEmpty();
        assertThat(s.torchVersion()).isEqualTo("2.11.0+cu130");
        assertThat(s.cuda()).isTrue();
        List<String> cmd = s.pythonTorchStep().orElseThrow();
        assertThat(cmd).containsExactly("/opt/torch/.venv/bin/python3", "-c", BuiltinStep.script(), "--steps", "50");
        Target t = s.target().orElseThrow();
        assertThat(t.describe()).isEqualTo("built-in step (train_step.py, 50 steps, torch 2.11.0+cu130, CUDA)");
        assertThat(((Target.Command) t).argv()).isEqualTo(cmd);
    }

    @Test
    void aProbeThatHangsIsKilled() throws IOException, InterruptedException {
        Path pidFile = dir.resolve("pid");
        script(dir, "python3", "echo $$ > " + pidFile + "; exec sleep 60");
        long t0 = System.nanoTime();
        BuiltinStep s = BuiltinStep.probe(dir + ":" + System.getenv("PATH"), Duration.ofSeconds(1));
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(15);
        assertThat(s.reason()).isEqualTo("python3 -c 'import torch' took longer than 1 s");
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the hung probe is gone").isFalse();
    }

    @Test
    void thisMachine() {
        BuiltinStep s = BuiltinStep.probe();
        if (s.pythonTorchStep().isPresent()) {
            assertThat(s.reason()).isEmpty();
            assertThat(s.torchVersion()).isNotBlank();
        } else {
            assertThat(s.reason()).isIn("no python3", "torch not installed").as("or a failed import: " + s.reason());
        }
    }

    @Test
    void theBundledScript() {
        String py = BuiltinStep.script();
        assertThat(py).contains("DataLoader(", "TensorDataset(", "num_workers=a.workers", "pin_memory=cuda", "nn.Sequential(",
                "default=50", "torch.cuda.is_available()");
        assertThat(py).contains("MARK = \"" + TraceParser.MARK + "\"").contains("mark(\"steps-begin\")").contains("mark(f\"steps-end/{timed}\")");
    }

    @Test
    void theBundledScriptIsValidPython() throws IOException, InterruptedException {
        assumeTrue(Strace.onPath("python3", System.getenv("PATH")).isPresent(), "no python3 here");
        Path f = dir.resolve("train_step.py");
        Files.writeString(f, BuiltinStep.script());
        Process p = new ProcessBuilder("python3", "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())", f.toString())
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(out).isZero();
    }
}
