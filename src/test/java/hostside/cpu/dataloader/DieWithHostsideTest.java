package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import hostside.harness.Children;

/**
 * The bundled scripts end at once when their parent is not the one hostside names
 * (HOSTSIDE_PARENT_PID): had hostside died before the script's prctl(PR_SET_PDEATHSIG), the
 * script would have been adopted already and the signal would never come.
 */
class DieWithHostsideTest {
    @ParameterizedTest
    @ValueSource(strings = {"cow_workers.py --standalone --max-seconds 60", "fork_vs_spawn.py --probe"})
    void aScriptWhoseParentIsNotHostsideExits(String script) throws Exception {
        String name = script.split(" ")[0];
        String python = Python.find().orElseThrow(() -> new AssertionError("python3 is needed (installed here and in CI)"));
        try (Python.Script s = Python.Script.extract(name)) {
            List<String> cmd = new java.util.ArrayList<>(List.of(python, s.file().toString()));
            cmd.addAll(List.of(script.split(" ")).subList(1, script.split(" ").length));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put(Children.PARENT_ENV, "1"); // not our pid: as if hostside had died and init adopted the script
            Process p = pb.start();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the script exits by itself").isTrue();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.exitValue()).as("output: " + out).isEqualTo(1);
            assertThat(out).as("it stopped before its first event").doesNotContain("\"event\"");
        }
    }

    @org.junit.jupiter.api.Test
    void theRightParentRunsTheScript() throws Exception {
        String name = "cow_workers.py";
        String python = Python.find().orElseThrow(() -> new AssertionError("python3 is needed (installed here and in CI)"));
        try (Python.Script s = Python.Script.extract(name)) {
            ProcessBuilder pb = new ProcessBuilder(python, s.file().toString(), "--standalone", "--bytes", "65536", "--workers", "1",
                    "--passes", "1", "--pass-ms", "0", "--max-seconds", "60").redirectErrorStream(true);
            pb.environment().put(Children.PARENT_ENV, Long.toString(ProcessHandle.current().pid()));
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(List.of(out.split("\n"))).as("output: " + out).anyMatch(l -> l.contains("\"event\": \"done\""));
        }
    }
}
