package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.fs.FsRoot;
import hostside.harness.MemoryCap;
import hostside.harness.TestFile;

class VmDrillTest {
    static final long MiB = 1L << 20, GiB = 1L << 30;

    @Test
    void theDefaultFileIsOneGibWhenMemoryAndDiskAllow() {
        assertThat(VmDrill.fileSize(new VmDrill.Options(null, null, null), VmDrill.budget((Long) (64 * GiB)), 100 * GiB)).isEqualTo(GiB);
    }

    @Test
    void theDefaultFileShrinksToAQuarterOfAvailableMemory() {
        assertThat(VmDrill.fileSize(new VmDrill.Options(null, null, null), VmDrill.budget((Long) (2 * GiB)), 100 * GiB)).isEqualTo(512 * MiB);
    }

    @Test
    void theDefaultFileShrinksToHalfTheDiskBeyondTheMargin() {
        long usable = TestFile.MARGIN + 600 * MiB;
        assertThat(VmDrill.fileSize(new VmDrill.Options(null, null, null), VmDrill.budget((Long) (64 * GiB)), usable)).isEqualTo(300 * MiB);
    }

    @Test
    void theDefaultFileNeverGoesBelowSixtyFourMib() {
        // a nearly full disk: 64 MiB is asked for, and TestFile.create then says there is no room
        assertThat(VmDrill.fileSize(new VmDrill.Options(null, null, null), VmDrill.budget((Long) (64 * GiB)), 10 * MiB)).isEqualTo(64 * MiB);
        assertThat(VmDrill.fileSize(new VmDrill.Options(null, null, null), VmDrill.budget((Long) (100 * MiB)), 100 * GiB)).isEqualTo(64 * MiB);
    }

    @Test
    void sizeGivenIsTakenAsItIs() {
        assertThat(VmDrill.fileSize(new VmDrill.Options(null, 5 * GiB, null), VmDrill.budget((Long) (GiB)), 10 * MiB)).isEqualTo(5 * GiB);
    }

    @Test
    void unknownAvailableMemoryBudgetsAGibOfFourGib() {
        assertThat(VmDrill.budget((Long) null)).isEqualTo(GiB);
    }

    @Test
    void withoutAMemoryCgroupTheBudgetIsAQuarterOfMemAvailable(@org.junit.jupiter.api.io.TempDir java.nio.file.Path empty) throws Exception {
        java.nio.file.Files.createDirectories(empty.resolve("proc"));
        assertThat(VmDrill.budget(FsRoot.open(empty.toString()))).as("nothing readable: a quarter of 4 GiB").isEqualTo(GiB);
        java.nio.file.Files.writeString(empty.resolve("proc/meminfo"), "MemTotal: 16777216 kB\nMemAvailable: 8388608 kB\n");
        assertThat(VmDrill.budget(FsRoot.open(empty.toString()))).isEqualTo(2 * GiB);
    }

    @Test
    void aCallersCapBindsWhereItIsBelowAQuarterOfAvailableMemoryAndSaysWhy() {
        MemoryCap cap = new MemoryCap(256 * MiB, "the report's share for any one measurement");
        VmDrill.Budget capped = VmDrill.Budget.of(GiB, cap);
        assertThat(capped.bytes()).isEqualTo(256 * MiB);
        assertThat(capped.why()).isEqualTo("the report's share for any one measurement");
        VmDrill.Budget small = VmDrill.Budget.of(128 * MiB, cap);
        assertThat(small.bytes()).as("a machine shorter than the cap").isEqualTo(128 * MiB);
        assertThat(small.why()).startsWith("a quarter of available memory (128.0 MiB of 512.0 MiB");
        assertThat(VmDrill.Budget.of(GiB, null).bytes()).isEqualTo(GiB);
        assertThat(VmDrill.fileSize(new VmDrill.Options(null, null, null, cap), capped.bytes(), 100 * GiB)).as("mapped whole by the mmap case").isEqualTo(256 * MiB);
    }
}
