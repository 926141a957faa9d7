package hostside;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The command of the signal tests: SIGINT put back to its default exactly where this JVM ignores it. */
class HostsideJvmTest {
    @Test
    void envWrapsJavaOnlyWhereSigintIsIgnored() {
        List<String> cmd = HostsideJvm.command(List.of("-Dx=1"), "cpu", "--json");
        if (HostsideJvm.sigintIgnored()) {
            assertThat(cmd).startsWith("env", "--default-signal=INT");
        } else {
            assertThat(cmd.getFirst()).endsWith("/bin/java");
        }
        assertThat(cmd).containsSubsequence("--enable-native-access=ALL-UNNAMED", "-Dx=1", "-cp", "hostside.cli.Main", "cpu", "--json");
    }
}
