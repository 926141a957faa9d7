package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk down a recording's dm/md stack ends at a depth of its own (issue 36): the disk under
 * the root file system with 10,000 devices chained through their slaves folders, one level of
 * recursion a device, overflowed the stack and printed a Java trace (4,000 did in a JVM started
 * with the default stack).
 */
class BlockStackTest {
    static final int CHAIN = 10_000;

    @TempDir
    Path tmp;

    @Test
    void ioReadsARecordingWhoseDiskStacksTenThousandDevices() throws Exception {
        Path rec = PlantedRecording.of(tmp, "mkdir -p sys/block/vda/slaves; touch sys/block/vda/slaves/dm-1");
        Path block = rec.resolve("sys/block");
        for (int i = 1; i <= CHAIN; i++) {
            Path dm = Files.createDirectories(block.resolve("dm-" + i + "/slaves"));
            Files.createFile(dm.resolve("dm-" + (i + 1)));
            // empty: a device no data dir rests on is then passed over quickly, as an unused nbd is
            Files.writeString(dm.resolveSibling("size"), "0\n");
        }
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = assertTimeoutPreemptively(Duration.ofMinutes(2),
                () -> Main.run(new String[] {"io", "--root", rec.toString(), "--json"}, new PrintWriter(out, true), new PrintWriter(err, true)));
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\"name\" : \"vda\"");
    }
}
