package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import hostside.testing.CliRun;

/**
 * The host name a recording holds is input from that machine: sethostname(2) takes "." or "..",
 * and a hostile recording can hold escapes and line breaks. Every command still runs on it, and a
 * snapshot's top folder, which tar and every shell show, is a plain name.
 */
class HostNameTest {
    @TempDir
    Path tmp;

    /** The H200 recording with {@code name} as its host name (printf's %s: the bytes as given, a newline after). */
    private Path recordingNamed(String name) throws Exception {
        return PlantedRecording.of(tmp, "mkdir -p proc/sys/kernel; printf '%s\\n' '" + name + "' > proc/sys/kernel/hostname");
    }

    /** Every member's name in a .tar.gz. */
    private static List<String> members(Path tarGz) throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(tarGz)); TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null; ) names.add(e.getName());
        }
        return names;
    }

    /**
     * A name of dots has no short name before its first dot: it crashed every command ("an
     * internal error", exit 1: the short name was taken from an empty split). It is no name now,
     * and each command falls back as for a recording without one: report names its files after
     * the recording's folder, snapshot its top folder "hostside-snapshot".
     */
    @ParameterizedTest
    @ValueSource(strings = {".", "..", "...."})
    void aHostNameOfDotsIsNoNameAndEveryCommandRuns(String name) throws Exception {
        Path root = recordingNamed(name);
        CliRun machine = CliRun.of("machine", "--root", root.toString());
        assertThat(machine.code()).as(machine.err()).isZero();
        assertThat(machine.out()).contains("H200");

        Path out = Files.createDirectories(tmp.resolve("reports"));
        CliRun report = CliRun.of("report", "--root", root.toString(), "--out", out.toString());
        assertThat(report.code()).as(report.err()).isZero();
        assertThat(out.resolve("rec.json")).isRegularFile();

        Path snap = tmp.resolve("snap.tar.gz");
        CliRun snapshot = CliRun.of("snapshot", "--root", root.toString(), "-o", snap.toString());
        assertThat(snapshot.code()).as(snapshot.err()).isZero();
        assertThat(members(snap)).allSatisfy(m -> assertThat(m).startsWith("hostside-snapshot/"));
    }

    /**
     * A host name holding an escape (ESC ] 52 writes a terminal's clipboard), a bell and a line
     * break was the snapshot's top folder as it was: every member's name carried them into tar's
     * listing and any shell that unpacked it. The top folder is a plain name or "hostside-snapshot".
     */
    @Test
    void aSnapshotsTopFolderIsAPlainNameWhateverTheHostName() throws Exception {
        Path root = recordingNamed("node\u001b]52;c;aGk=\u0007\nrm -rf x");
        Path snap = tmp.resolve("snap.tar.gz");
        CliRun run = CliRun.of("snapshot", "--root", root.toString(), "-o", snap.toString());
        assertThat(run.code()).as(run.err()).isZero();
        List<String> names = members(snap);
        assertThat(names).isNotEmpty().allSatisfy(m -> assertThat(m).startsWith("hostside-snapshot/").doesNotContainPattern("[\\p{Cntrl}]"));
    }

    @Test
    void aPlainHostNamesShortNameIsTheTopFolder() throws Exception {
        Path root = recordingNamed("gpu-node_17.example.com");
        Path snap = tmp.resolve("snap.tar.gz");
        CliRun run = CliRun.of("snapshot", "--root", root.toString(), "-o", snap.toString());
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(members(snap)).allSatisfy(m -> assertThat(m).startsWith("gpu-node_17/"));
    }
}
