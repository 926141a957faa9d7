package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.HostsideJvm;

/**
 * Output that could not be written is a failure: `machine --json > full-disk/m.json` used to exit 0
 * with a cut-off document, since a PrintWriter swallows write errors. /dev/full answers every write
 * with ENOSPC, as a full disk does.
 */
class StdoutLostTest {
    /** stderr without the progress line a slow read of the recording prints (over a second on a loaded 2-core machine): progress is not a failure's line. */
    static String withoutProgress(String err) {
        return err.lines().filter(l -> !l.matches("hostside: reading .*: [0-9.]+ s")).map(l -> l + "\n").reduce("", String::concat);
    }

    @Test
    void aFullDiskOnStdoutIsExitOneAndALine() throws Exception {
        Process p = new ProcessBuilder(HostsideJvm.command("machine", "--root", Fixtures.h200().toString(), "--json"))
                .redirectOutput(new File("/dev/full")).start();
        String err = withoutProgress(new String(p.getErrorStream().readAllBytes()));
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isEqualTo(1);
        assertThat(err.strip().lines()).as(err).hasSize(1);
        assertThat(err).startsWith("hostside: could not write the output to standard output (No space left on device)");
    }

    @Test
    void aReaderThatLeftIsExitOneWithoutALine() throws Exception {
        Process p = new ProcessBuilder(HostsideJvm.command("machine", "--root", Fixtures.h200().toString(), "--json")).start();
        p.getInputStream().close(); // the reader goes, as `| head -c 0` would: writes meet EPIPE
        String err = withoutProgress(new String(p.getErrorStream().readAllBytes()));
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isEqualTo(1);
        assertThat(err).isEmpty();
    }
}
