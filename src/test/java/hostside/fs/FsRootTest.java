package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.core.BadInputException;

class FsRootTest {
    @TempDir
    Path tmp;

    @Test
    void aRootThatDoesNotExistIsBadInput() {
        assertThatThrownBy(() -> FsRoot.open(tmp.resolve("nope").toString()))
                .isInstanceOf(BadInputException.class).hasMessageContaining("no such file");
    }

    @Test
    void aFileThatIsNotATarballIsBadInput() throws IOException {
        Path f = Files.writeString(tmp.resolve("notes.txt"), "hello, not a tarball\n");
        assertThatThrownBy(() -> FsRoot.open(f.toString())).isInstanceOf(BadInputException.class).hasMessageContaining("not a tarball");
    }

    @Test
    void aTruncatedTarballIsBadInput() throws IOException {
        byte[] whole = Files.readAllBytes(Fixtures.h200());
        Path cut = Files.write(tmp.resolve("cut.tar.gz"), java.util.Arrays.copyOf(whole, whole.length / 3));
        assertThatThrownBy(() -> FsRoot.open(cut.toString())).isInstanceOf(BadInputException.class).hasMessageContaining("cut.tar.gz");
    }

    @Test
    void aFolderWithoutSysOrProcIsBadInput() throws IOException {
        Files.createDirectories(tmp.resolve("a/b"));
        Files.createDirectories(tmp.resolve("a/c"));
        assertThatThrownBy(() -> FsRoot.open(tmp.resolve("a").toString())).isInstanceOf(BadInputException.class)
                .hasMessageContaining("no sys/ or proc/");
    }

    @Test
    void aFolderHoldingOneMachineFolderIsAccepted() throws IOException {
        Files.createDirectories(tmp.resolve("box/sys/devices"));
        Files.writeString(tmp.resolve("box/sys/x"), "1\n");
        assertThat(FsRoot.open(tmp.toString()).text("/sys/x")).contains("1");
    }

    @Test
    void absoluteSymlinksStayInsideTheRecording() throws IOException {
        Path root = tmp.resolve("m");
        Files.createDirectories(root.resolve("sys/devices/pci0000:00/0000:00:01.0"));
        Files.writeString(root.resolve("sys/devices/pci0000:00/0000:00:01.0/class"), "0x030200\n");
        Files.createDirectories(root.resolve("sys/bus/pci/devices"));
        Files.createSymbolicLink(root.resolve("sys/bus/pci/devices/0000:00:01.0"), Path.of("/sys/devices/pci0000:00/0000:00:01.0"));
        Files.createSymbolicLink(root.resolve("sys/rel"), Path.of("devices/../devices/pci0000:00"));
        FsRoot fs = FsRoot.open(root.toString());
        assertThat(fs.text("/sys/bus/pci/devices/0000:00:01.0/class")).contains("0x030200");
        assertThat(fs.realPath("/sys/bus/pci/devices/0000:00:01.0")).contains("/sys/devices/pci0000:00/0000:00:01.0");
        assertThat(fs.list("/sys/rel")).containsExactly("0000:00:01.0");
        assertThat(fs.readLink("/sys/rel")).contains("devices/../devices/pci0000:00");
    }

    @Test
    void symlinkLoopsEndAsMissing() throws IOException {
        Path root = tmp.resolve("m");
        Files.createDirectories(root.resolve("sys"));
        Files.createSymbolicLink(root.resolve("sys/a"), Path.of("b"));
        Files.createSymbolicLink(root.resolve("sys/b"), Path.of("a"));
        FsRoot fs = FsRoot.open(root.toString());
        assertThat(fs.read("/sys/a/x").ok()).isFalse();
        assertThat(fs.exists("/sys/a")).isFalse();
    }

    @Test
    void missingAndFolderReadsSayWhy() throws IOException {
        Files.createDirectories(tmp.resolve("sys/d"));
        FsRoot fs = FsRoot.open(tmp.toString());
        assertThat(fs.read("/sys/none").why()).contains("missing");
        assertThat(fs.read("/sys/d").why()).contains("is a folder");
        assertThat(fs.list("/sys/none")).isEmpty();
    }

    @Test
    void aFileUnreadableWhenRecordedStaysUnreadableWithItsReason() throws IOException {
        Path tar = tmp.resolve("m.tar.gz");
        try (var out = new org.apache.commons.compress.archivers.tar.TarArchiveOutputStream(
                new java.util.zip.GZIPOutputStream(Files.newOutputStream(tar)))) {
            var e = new org.apache.commons.compress.archivers.tar.TarArchiveEntry("m/proc/meminfo");
            e.addPaxHeader(TarTree.UNREADABLE_KEY, "permission denied");
            out.putArchiveEntry(e);
            out.closeArchiveEntry();
            var ok = new org.apache.commons.compress.archivers.tar.TarArchiveEntry("m/sys/x");
            ok.setSize(2);
            out.putArchiveEntry(ok);
            out.write("1\n".getBytes());
            out.closeArchiveEntry();
        }
        FsRoot fs = FsRoot.open(tar.toString());
        assertThat(fs.read("/proc/meminfo").why()).isEqualTo("/proc/meminfo: permission denied");
        assertThat(fs.text("/sys/x")).contains("1");
    }

    @Test
    void tarballsReadLikeFolders() {
        FsRoot fs = FsRoot.open(Fixtures.h200().toString());
        assertThat(fs.isLive()).isFalse();
        assertThat(fs.text("/proc/self/status")).isPresent(); // proc/self -> 603
        assertThat(fs.text("/sys/bus/pci/devices/0000:00:06.0/max_link_speed")).contains("32.0 GT/s PCIe");
    }

    @Test
    void binaryFilesComeBackByteForByteAndAreRecorded() throws Exception {
        java.nio.file.Path cfg = tmp.resolve("sys/bus/pci/devices/0000:00:01.0/config");
        java.nio.file.Files.createDirectories(cfg.getParent());
        byte[] config = new byte[4096];
        for (int i = 0; i < config.length; i++) config[i] = (byte) (i * 31);
        java.nio.file.Files.write(cfg, config);
        java.nio.file.Files.createDirectories(tmp.resolve("proc"));
        FsRoot fs = FsRoot.open(tmp.toString());
        Recorder r = fs.record();
        org.assertj.core.api.Assertions.assertThat(fs.bytes("/sys/bus/pci/devices/0000:00:01.0/config")).hasValue(config);
        org.assertj.core.api.Assertions.assertThat(fs.bytes("/sys/bus/pci/devices/0000:00:02.0/config")).isEmpty();
        org.assertj.core.api.Assertions.assertThat(r.size()).as("the config space goes into a snapshot").isGreaterThanOrEqualTo(1);
        java.nio.file.Path tar = tmp.resolve("snap.tar.gz");
        r.writeTarGz(tar, "box");
        org.assertj.core.api.Assertions.assertThat(FsRoot.open(tar.toString()).bytes("/sys/bus/pci/devices/0000:00:01.0/config")).hasValue(config);
    }
}
