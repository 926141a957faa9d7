package hostside.io.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.harness.TestCase;

/** Keys, descriptions, applicability and the fio job each read names. */
class ReadTestTest {
    static IoTarget target(String fs, String uring) {
        return new IoTarget(Path.of("/var/tmp"), fs, () -> Path.of("/var/tmp/f"), 3L << 30, 1L << 30, 4096, 1_000_000_000L, uring, null, null);
    }

    @Test
    void everyCaseHasItsOwnKey() {
        List<String> keys = ReadTest.all().stream().map(TestCase::key).toList();
        assertThat(keys).doesNotHaveDuplicates().containsExactly("seq_read_cold_qd1", "seq_read_warm_qd1", "seq_read_direct_qd1",
                "seq_read_direct_uring_qd32", "rand_read_cold_qd1", "rand_read_warm_qd1", "rand_read_direct_qd1", "rand_read_direct_uring_qd1",
                "rand_read_direct_uring_qd32");
        assertThat(new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.DIRECT, ReadTest.Engine.IO_URING, 32).description())
                .isEqualTo("random 4 KiB reads with O_DIRECT (no page cache), io_uring at queue depth 32");
    }

    @Test
    void eachCaseNamesTheFioJobThatMeasuresTheSame() {
        IoTarget t = target("ext4", null);
        assertThat(new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.COLD, ReadTest.Engine.PSYNC, 1).fioOptions(t))
                .isEqualTo("--rw=read --bs=1M --size=3221225472 --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --fadvise_hint=0 --iomem=mmap --io_size=268435456");
        assertThat(new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.WARM, ReadTest.Engine.PSYNC, 1).fioOptions(t))
                .as("fio drops the cache by default: the warm job reads the file in first (pre_read, which clears invalidate), untimed")
                .isEqualTo("--rw=read --bs=1M --size=3221225472 --ioengine=psync --iodepth=1 --direct=0 --pre_read=1 --fadvise_hint=0 --iomem=mmap --time_based --runtime=5");
        assertThat(new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.WARM, ReadTest.Engine.PSYNC, 1).fioOptions(t))
                .contains("--direct=0 --pre_read=1 ").doesNotContain("invalidate");
        assertThat(new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.COLD, ReadTest.Engine.PSYNC, 1).fioOptions(t))
                .as("fio's default FADV_RANDOM changes readahead; hostside, like a Dataset, gives no hint, and names the job that gives none")
                .contains("--direct=0 --invalidate=1 --fadvise_hint=0 --iomem=mmap ");
        assertThat(new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.DIRECT, ReadTest.Engine.IO_URING, 32).fioOptions(t))
                .as("the hint does nothing to O_DIRECT: not named; the buffers one anonymous mapping, as hostside's")
                .isEqualTo("--rw=randread --bs=4k --size=3221225472 --ioengine=io_uring --iodepth=32 --direct=1 --invalidate=0 --iomem=mmap --norandommap --time_based --runtime=5");
        assertThat(new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.WARM, ReadTest.Engine.PSYNC, 1).fioOptions(t))
                .as("hostside draws every offset anew, as fio does without its map of blocks done").contains(" --norandommap ");
        assertThat(new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.WARM, ReadTest.Engine.PSYNC, 1).fioOptions(t)).doesNotContain("randommap");
    }

    @Test
    void wholeO_DirectBuffersNameFiosHugePageJobAndThePagesItNeeds() {
        IoTarget t = new IoTarget(Path.of("/var/tmp"), "ext4", () -> Path.of("/var/tmp/f"), 3L << 30, 1L << 30, 4096, 1_000_000_000L, null, null,
                new HugePage(2L << 20));
        ReadTest qd1 = new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.DIRECT, ReadTest.Engine.PSYNC, 1);
        ReadTest qd32 = new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.DIRECT, ReadTest.Engine.IO_URING, 32);
        assertThat(qd1.wholeBuffers(t)).isTrue();
        assertThat(qd1.fioOptions(t)).isEqualTo("--rw=read --bs=1M --size=3221225472 --ioengine=psync --iodepth=1 --direct=1 --invalidate=0"
                + " --iomem=shmhuge --hugepage-size=2097152 --time_based --runtime=5");
        assertThat(FioReadJob.hugePagesNeeded(qd1, t.hugePage(), 4096)).as("fio 3.42 with 1 reserved: no huge pages available").isEqualTo(2);
        assertThat(FioReadJob.hugePagesNeeded(qd32, t.hugePage(), 4096)).as("34 MiB and a page: 18 of 2 MiB (17 were refused)").isEqualTo(18);
        assertThat(qd32.method(t, "none")).contains("in 2 MiB transparent huge pages (MADV_HUGEPAGE)")
                .contains("as fio's --iomem=shmhuge (which needs 18 huge pages reserved: vm.nr_hugepages)");
        ReadTest rand = new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.DIRECT, ReadTest.Engine.IO_URING, 32);
        assertThat(rand.wholeBuffers(t)).as("a 4 KiB read is one page: one piece whatever the pages").isFalse();
        assertThat(rand.fioOptions(t)).contains("--iomem=mmap").doesNotContain("huge");
        ReadTest warm = new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.WARM, ReadTest.Engine.PSYNC, 1);
        assertThat(warm.wholeBuffers(t)).as("through the page cache the CPU copies: base pages, as fio's and a loader's").isFalse();
        assertThat(warm.method(t, null)).contains("as fio's --iomem=mmap");
        assertThat(qd1.wholeBuffers(target("ext4", null))).as("no huge page to use: base pages").isFalse();
    }

    @Test
    void theWarmCasesSayTheirCacheWasRefilledInOrderWhateverRanBefore() {
        IoTarget t = target("ext4", null);
        for (ReadTest.Pattern p : ReadTest.Pattern.values()) {
            assertThat(new ReadTest(p, ReadTest.Cache.WARM, ReadTest.Engine.PSYNC, 1).method(t, null))
                    .as("after rand_read_cold the cache holds 4 KiB folios: the warm figure depends on that unless the warm-up refills it")
                    .contains("the file's pages dropped then read once in order before the samples");
            assertThat(new ReadTest(p, ReadTest.Cache.COLD, ReadTest.Engine.PSYNC, 1).method(t, null)).doesNotContain("read once in order");
            assertThat(new ReadTest(p, ReadTest.Cache.DIRECT, ReadTest.Engine.PSYNC, 1).method(t, null)).doesNotContain("read once in order");
        }
    }

    @Test
    void everyCaseSaysItsBuffersAreMadeAsFiosAre() {
        IoTarget t = target("ext4", null);
        for (TestCase<IoTarget> c : ReadTest.all()) {
            assertThat(((ReadTest) c).method(t, null)).as(c.key()).contains("one buffer region for the reads in flight, as fio's --iomem=mmap")
                    .doesNotContain("physically apart");
        }
    }

    @Test
    void aSequentialSampleIsTheFileUpTo256MiBInWholeBlocks() {
        assertThat(target("ext4", null).sequentialSampleBytes()).isEqualTo(256L << 20);
        IoTarget small = new IoTarget(Path.of("/x"), "xfs", () -> Path.of("/x/f"), (200L << 20) + 123, 1L << 20, 4096, 1, null, null, null);
        assertThat(small.sequentialSampleBytes()).isEqualTo(200L << 20);
    }

    @Test
    void memoryFileSystemsAndRefusedRingsSayWhy() {
        IoTarget tmpfs = target("tmpfs", null);
        assertThat(new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.COLD, ReadTest.Engine.PSYNC, 1).notApplicable(tmpfs)).get().asString()
                .contains("tmpfs").contains("no cold read");
        assertThat(new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.DIRECT, ReadTest.Engine.PSYNC, 1).notApplicable(tmpfs)).isPresent();
        assertThat(new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.WARM, ReadTest.Engine.PSYNC, 1).notApplicable(tmpfs)).isEmpty();
        IoTarget noRing = target("ext4", "io_uring is refused (EPERM): kernel.io_uring_disabled, or a seccomp profile");
        assertThat(new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.DIRECT, ReadTest.Engine.IO_URING, 32).notApplicable(noRing)).get().asString()
                .startsWith("io_uring is refused");
        assertThat(new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.DIRECT, ReadTest.Engine.PSYNC, 1).notApplicable(noRing)).isEmpty();
    }
}
