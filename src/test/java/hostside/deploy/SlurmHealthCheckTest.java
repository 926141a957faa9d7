package hostside.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/slurm/hostside-healthcheck's decisions, with stand-ins for hostside, sinfo and scontrol:
 * hostside answers a given line and exit, sinfo shows a given state and reason, scontrol records
 * what it was asked and changes the state as Slurm would. The script runs in the environment
 * slurmd gives it (SLURMD_NODENAME and nothing else, no PATH), its configuration from a file.
 * .ci/fleet-test runs it under a real slurmd and slurmctld.
 */
class SlurmHealthCheckTest {
    @TempDir
    Path tmp;
    Path stubs;

    static Path script() {
        return KubernetesManifestsTest.deploy().getParent().resolve("slurm/hostside-healthcheck");
    }

    record Run(int exit, String out, List<String> scontrol, String state) {}

    private Path exe(String name, String body) throws Exception {
        Path p = Files.writeString(stubs.resolve(name), "#!/bin/bash\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @BeforeEach
    void stubs() throws Exception {
        stubs = Files.createDirectories(tmp.resolve("stubs"));
        String d = stubs.toString();
        exe("hostside", "[ \"$1 $2 $3\" = 'health --format line' ] || { echo \"bad args: $*\" >&2; exit 7; }\n"
                + "shift 3; echo \"$*\" >" + d + "/hostside.args\n"
                + "cat " + d + "/line\nexit $(cat " + d + "/rc)\n");
        // sinfo -h -N -n NODE -o '%t %E': the state file holds exactly that line
        exe("sinfo", "[ \"$*\" = '-h -N -n node7 -o %t %E' ] || { echo \"bad args: $*\" >&2; exit 7; }\ncat " + d + "/state\n");
        exe("scontrol", "printf '%s|' \"$@\" >>" + d + "/scontrol.log; echo >>" + d + "/scontrol.log\n"
                + "case \"$3\" in State=DRAIN) r=\"${4#Reason=}\"; echo \"drain $r\" >" + d + "/state ;; State=RESUME) echo 'idle none' >" + d + "/state ;; esac\n"
                + "exit $(cat " + d + "/scontrol.rc 2>/dev/null || echo 0)\n");
        Files.writeString(tmp.resolve("healthcheck.conf"), "# as an admin writes it\nHOSTSIDE=" + stubs.resolve("hostside") + "\nSCONTROL=\""
                + stubs.resolve("scontrol") + "\"\nSINFO='" + stubs.resolve("sinfo") + "'\n");
    }

    Run run(int rc, String line, String state) throws Exception {
        return run(rc, line, state, Map.of());
    }

    Run run(int rc, String line, String state, Map<String, String> env) throws Exception {
        Files.writeString(stubs.resolve("rc"), Integer.toString(rc));
        Files.writeString(stubs.resolve("line"), line);
        Files.writeString(stubs.resolve("state"), state + "\n");
        Files.deleteIfExists(stubs.resolve("scontrol.log"));
        // slurmd's environment: SLURMD_NODENAME only (env -i); the configuration file is named for the test
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/env", "-i", "SLURMD_NODENAME=node7", "HOSTSIDE_HEALTHCHECK_CONF=" + tmp.resolve("healthcheck.conf"));
        env.forEach((k, v) -> pb.command().add(k + "=" + v));
        pb.command().addAll(List.of("/bin/bash", script().toString()));
        Process p = pb.redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes());
        Path log = stubs.resolve("scontrol.log");
        List<String> calls = Files.exists(log) ? Files.readAllLines(log) : List.of();
        return new Run(p.exitValue(), out, calls, Files.readString(stubs.resolve("state")).strip());
    }

    @Test
    void aBadFindingDrainsAnIdleNodeWithTheLineAsHostsidesReason() throws Exception {
        Run r = run(1, "bad: GPU0 M6-HEALTH-ROW-REMAP-FAILED row remapping failed (+1 more)\n", "idle none");
        assertThat(r.scontrol()).containsExactly("update|NodeName=node7|State=DRAIN|Reason=hostside: bad: GPU0 M6-HEALTH-ROW-REMAP-FAILED row remapping failed (+1 more)|");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("node7: draining: bad: GPU0");
    }

    @Test
    void aNodeDrainedByAnAdminKeepsItsReasonWhateverHostsideSays() throws Exception {
        Run bad = run(1, "bad: GPU0 something\n", "drain maintenance window");
        assertThat(bad.scontrol()).isEmpty();
        assertThat(bad.out()).contains("already drained for another reason (maintenance window), which is kept");
        Run ok = run(0, "ok: 31 checks\n", "drain maintenance window");
        assertThat(ok.scontrol()).isEmpty();
        assertThat(ok.state()).isEqualTo("drain maintenance window");
        assertThat(ok.out()).contains("left drained: its reason is not hostside's");
        // a reason that merely contains the word is not ours either
        assertThat(run(0, "ok\n", "drain NHC: hostside: told me").scontrol()).isEmpty();
    }

    @Test
    void aHealthyNodeDrainedOrDrainingByHostsideResumes() throws Exception {
        for (String state : List.of("drain hostside: bad: GPU0 x", "drng hostside: bad: GPU0 x", "drain* hostside: bad: GPU0 x")) {
            Run r = run(0, "ok: 31 checks, 2 warn\n", state);
            assertThat(r.scontrol()).as(state).containsExactly("update|NodeName=node7|State=RESUME|");
            assertThat(r.exit()).isZero();
        }
    }

    @Test
    void aHealthyNodeInServiceIsLeftAlone() throws Exception {
        for (String state : List.of("idle none", "mix none", "alloc none")) {
            Run r = run(0, "ok: 31 checks\n", state);
            assertThat(r.scontrol()).as(state).isEmpty();
            assertThat(r.exit()).isZero();
        }
    }

    @Test
    void theSameFindingAgainChangesNothingAndANewOneUpdatesTheReason() throws Exception {
        assertThat(run(1, "bad: GPU0 x\n", "drain hostside: bad: GPU0 x").scontrol()).isEmpty();
        assertThat(run(1, "bad: GPU1 y\n", "drain hostside: bad: GPU0 x").scontrol())
                .containsExactly("update|NodeName=node7|State=DRAIN|Reason=hostside: bad: GPU1 y|");
    }

    @Test
    void whenTheGpusCannotBeJudgedOrTheInputIsBadTheNodeStaysAsItIsAndSlurmdHearsOfIt() throws Exception {
        for (int rc : new int[] {2, 3}) {
            for (String state : List.of("idle none", "drain hostside: bad: GPU0 x")) {
                Run r = run(rc, "unknown: NVML does not initialise\n", state);
                assertThat(r.scontrol()).as(rc + " " + state).isEmpty();
                assertThat(r.exit()).isEqualTo(rc);
                assertThat(r.out()).contains("node7: left as it is: " + (rc == 3 ? "the GPUs could not be judged" : "bad input"));
            }
        }
    }

    @Test
    void aHangingHostsideIsCutOffBeforeSlurmdsSixtySecondsAndTheNodeLeftAlone() throws Exception {
        exe("hostside", "sleep 30\n");
        Run r = run(0, "", "idle none", Map.of("HOSTSIDE_TIMEOUT", "1"));
        assertThat(r.exit()).isEqualTo(124);
        assertThat(r.scontrol()).isEmpty();
        assertThat(r.out()).contains("took more than 1 s");
    }

    @Test
    void theReasonIsOnePrintableLineOfAtMostEightyCharacters() throws Exception {
        Run r = run(1, "bad: \u001b[2Jcleared " + "x".repeat(100) + "\nsecond line\n", "idle none");
        String reason = r.scontrol().getFirst().split("\\|")[3];
        assertThat(reason).startsWith("Reason=hostside: bad: [2Jcleared xxx").doesNotContain("\u001b").doesNotContain("second");
        assertThat(reason.substring("Reason=hostside: ".length())).hasSize(80);
    }

    @Test
    void extraArgumentsComeFromTheConfigurationAndTheEnvironmentWins() throws Exception {
        Files.writeString(tmp.resolve("healthcheck.conf"), "HOSTSIDE_HEALTH_ARGS=--fail-on warn --root /x.tar.gz\n", StandardOpenOption.APPEND);
        run(0, "ok\n", "idle none");
        assertThat(Files.readString(stubs.resolve("hostside.args")).strip()).isEqualTo("--fail-on warn --root /x.tar.gz");
        run(0, "ok\n", "idle none", Map.of("HOSTSIDE_HEALTH_ARGS", "--fail-on bad"));
        assertThat(Files.readString(stubs.resolve("hostside.args")).strip()).isEqualTo("--fail-on bad");
    }

    @Test
    void withoutHostsideOrWhenScontrolFailsItSaysSoAndExitsFour() throws Exception {
        Run none = run(1, "bad\n", "idle none", Map.of("HOSTSIDE", tmp.resolve("missing").toString()));
        assertThat(none.exit()).isEqualTo(4);
        assertThat(none.scontrol()).isEmpty();
        assertThat(none.out()).contains("no hostside to run");
        Files.writeString(stubs.resolve("scontrol.rc"), "1");
        Run failed = run(1, "bad: GPU0 x\n", "idle none");
        assertThat(failed.exit()).isEqualTo(4);
        assertThat(failed.out()).contains("failed");
    }

    /** 1 is also every hostside command's exit when it fails to run: without a finding's line, nothing is drained. */
    @Test
    void anExitOfOneWithoutAFindingsLineIsAFailureNotAFinding() throws Exception {
        for (String line : List.of("", "hostside: failed: out of memory\n", "ok: 3 checks passed\n")) {
            Run r = run(1, line, "idle none");
            assertThat(r.scontrol()).as(line).isEmpty();
            assertThat(r.exit()).as(line).isEqualTo(1);
            assertThat(r.out()).as(line).contains("left as it is: hostside health failed (exit 1)");
        }
        assertThat(run(1, "warn: M6-HEALTH-PERSISTENCE GPU0: persistence mode is off\n", "idle none").scontrol())
                .containsExactly("update|NodeName=node7|State=DRAIN|Reason=hostside: warn: M6-HEALTH-PERSISTENCE GPU0: persistence mode is off|");
    }

    @Test
    void aConfigurationLineItDoesNotReadIsReportedNotRun() throws Exception {
        Path marker = tmp.resolve("ran");
        Files.writeString(tmp.resolve("healthcheck.conf"), "touch " + marker + "\nFOO=bar\n", StandardOpenOption.APPEND);
        Run r = run(0, "ok\n", "idle none");
        assertThat(marker).doesNotExist();
        assertThat(r.out()).contains("ignoring a line").contains("FOO=bar");
        assertThat(r.exit()).isZero();
    }
}
