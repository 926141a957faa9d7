package hostside.io.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** The disk's request counts: /sys/block/DISK/stat read, requests per read from two counts, one disk or none. */
class DiskRequestsTest {
    @TempDir
    Path dir;

    static final long MIB = 1 << 20;

    @Test
    void requestsPerReadFromTwoCounts() {
        var before = new DiskRequests.Count(1000, 80_000);
        // 4,090 MiB read in 4,090 requests (fio's whole reads), in 5,022 for 2,511 MiB (split in two), 0.25 (merged by four)
        assertThat(DiskRequests.perRead(before, new DiskRequests.Count(1000 + 4090, 80_000 + 4090 * 2048), MIB)).hasValue(1.0);
        assertThat(DiskRequests.perRead(before, new DiskRequests.Count(1000 + 5022, 80_000 + 2511 * 2048), MIB)).hasValue(2.0);
        assertThat(DiskRequests.perRead(before, new DiskRequests.Count(1000 + 64, 80_000 + 256 * 2048), MIB)).hasValue(0.25);
        assertThat(DiskRequests.perRead(before, new DiskRequests.Count(1001, 80_000 + 1000), MIB)).as("less than one read's bytes").isEmpty();
        assertThat(DiskRequests.perRead(before, new DiskRequests.Count(999, 90_000), MIB)).as("a counter went back").isEmpty();
        assertThat(DiskRequests.perRead(null, before, MIB)).isEmpty();
    }

    @Test
    void readsTheDisksStat() throws Exception {
        Path vda = Files.createDirectories(dir.resolve("sys/block/vda"));
        Files.createDirectories(dir.resolve("proc"));
        // Documentation/block/stat.rst's fields as the dev VM's vda gave them
        Files.writeString(vda.resolve("stat"), "  179342     5561 31190690   61520   260187   227389 88005656  1071352        0   420916  1290584        0        0        0        0    31204    157711\n");
        DiskRequests d = DiskRequests.of(FsRoot.open(dir.toString()), List.of("vda"), disk -> 254L).orElseThrow();
        assertThat(d.count()).hasValue(new DiskRequests.Count(179342, 31190690));
        assertThat(d.maxSegments()).isEqualTo(254L);
        assertThat(DiskRequests.of(FsRoot.open(dir.toString()), List.of("sdb"), disk -> null).orElseThrow().count()).as("no such disk").isEmpty();
        assertThat(DiskRequests.parse("1 2")).isEmpty();
        assertThat(DiskRequests.parse("a b c")).isEmpty();
    }

    @Test
    void onlyOneKnownDiskIsCounted() {
        FsRoot fs = FsRoot.live();
        assertThat(DiskRequests.of(fs, List.of("nvme0n1"), disk -> disk.equals("nvme0n1") ? 128L : null)).get()
                .extracting(DiskRequests::maxSegments).isEqualTo(128L);
        assertThat(DiskRequests.of(fs, List.of("nvme0n1", "nvme1n1"), disk -> 128L)).as("striped: no one count").isEmpty();
        assertThat(DiskRequests.of(fs, List.of(), disk -> 128L)).isEmpty();
        assertThat(DiskRequests.of(fs, null, disk -> 128L)).isEmpty();
        assertThat(DiskRequests.of(fs, List.of("../../etc"), disk -> 128L)).as("a name, never a path").isEmpty();
    }
}
