package hostside.io.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.harness.Result;
import hostside.harness.Status;
import hostside.harness.TestData;
import hostside.harness.TestFile;

/** The write measurement's files: made through TestFile, every page different, never made again after the exit cleanup. */
class WriteTestTest {
    @TempDir
    Path dir;

    static final long MiB = 1L << 20;

    IoTarget target(long writeBytes) {
        return new IoTarget(dir, "ext4", () -> dir.resolve("unused"), 64 * MiB, writeBytes, 4096, 100_000_000L, null, null, null);
    }

    static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void onTmpfsFsyncIsNotRunForItHasNoDiskToReach() {
        IoTarget tmpfs = new IoTarget(dir, "tmpfs", () -> dir.resolve("f"), 64 * MiB, 64 * MiB, 4096, 1, null, null, null);
        assertThat(new WriteTest(true).notApplicable(tmpfs)).get().asString().contains("tmpfs").contains("fsync has no disk to reach");
        assertThat(new WriteTest(false).notApplicable(tmpfs)).as("how fast tmpfs takes the bytes is still worth knowing").isEmpty();
        IoTarget disk = new IoTarget(dir, "ext4", () -> dir.resolve("f"), 64 * MiB, 64 * MiB, 4096, 1, null, null, null);
        assertThat(new WriteTest(true).notApplicable(disk)).isEmpty();
    }

    @Test
    void aRunMeasuresAndLeavesNothing() throws IOException {
        for (WriteTest w : List.of(new WriteTest(false), new WriteTest(true))) {
            Result r = w.run(target(8 * MiB));
            assertThat(r.status()).as(w.key()).isEqualTo(Status.OK);
            assertThat(r.value().median()).as(w.key()).isPositive();
            assertThat(r.value().samples()).as(w.key()).isBetween(WriteTest.SAMPLING.samples(), WriteTest.SAMPLING.maxSamples());
            assertThat(r.settling()).as(w.key() + ": the runner hands the loop's ending to the result").isNull(); // run() directly: no runner
            assertThat(r.anchor()).as(w.key() + ": a warm-up job written, synced and removed, then the measured one, as hostside's samples")
                    .isEqualTo("fio --rw=write --bs=1M --ioengine=psync --iodepth=1 --direct=0 --fallocate=none --iomem_align=4096 --size=" + 8 * MiB
                            + " --name=warmup --end_fsync=1 --unlink=1 --name=" + w.key() + " --stonewall --end_fsync=" + (w.fsync() ? 1 : 0));
            WriteTest.WriteDetail d = (WriteTest.WriteDetail) r.detail();
            assertThat(d.bytes()).isEqualTo(8 * MiB);
            if (w.fsync()) assertThat(d.fsyncMs().samples()).isEqualTo(r.value().samples());
            else assertThat(d.fsyncMs()).as("no fsync, no fsync time").isNull();
            assertThat(names(dir)).as(w.key()).isEmpty();
        }
    }

    @Test
    void afterTheExitCleanupRanItMakesNoFile() throws IOException {
        TestFile file = TestFile.scratch(dir, "io-write");
        file.exitCleanup(); // Ctrl-C while the measurement runs: the hook removed everything
        assertThatThrownBy(() -> new WriteTest(false).run(target(8 * MiB), file)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("none is made again");
        assertThat(names(dir)).as("nothing re-created").isEmpty();
        file.close();
    }

    @Test
    void everyPageOfAWrittenFileDiffersAndNoneIsInThePreviousFile() throws IOException {
        Set<ByteBuffer> pages = new HashSet<>();
        try (TestFile file = TestFile.scratch(dir, "io-write"); Arena arena = Arena.ofConfined()) {
            var block = arena.allocate(WriteTest.BLOCK, 4096);
            for (int sample = 0; sample < 2; sample++) {
                new WriteTest(false).writeOnce(file, new TestData(block), 8 * MiB);
                byte[] b = Files.readAllBytes(file.path());
                assertThat(b).hasSize((int) (8 * MiB));
                for (int p = 0; p < b.length; p += 4096) pages.add(ByteBuffer.wrap(b, p, 4096).slice());
                file.delete();
            }
        }
        assertThat(pages).as("2 files of 2048 pages, all different").hasSize(2 * 2048);
        assertThat(names(dir)).isEmpty();
    }
}
