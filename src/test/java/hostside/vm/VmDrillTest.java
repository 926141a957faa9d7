package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.vm.facts.VmFacts;
import hostside.harness.TestFile;

class VmDrillTest {
    static final long MiB = 1L << 20, GiB = 1L << 30;

    static VmFacts withAvailable(Long available) {
        VmFacts.Meminfo m = new VmFacts.Meminfo(null, available, null, null, null, null, null, null, null, null, null);
        return new VmFacts(null, null, null, List.of(), m, null, null, List.of(), Map.of(), null, List.of());
    }

    @Test
    void theDefaultFileIsOneGibWhenMemoryAndDiskAllow() {
        assertThat(VmDrill.fileSize(new VmDrill.FileOptions(null, null, null), VmDrill.budget((Long) (64 * GiB)), 100 * GiB)).isEqualTo(GiB);
    }

    @Test
    void theDefaultFileShrinksToAQuarterOfAvailableMemory() {
        assertThat(VmDrill.fileSize(new VmDrill.FileOptions(null, null, null), VmDrill.budget((Long) (2 * GiB)), 100 * GiB)).isEqualTo(512 * MiB);
    }

    @Test
    void theDefaultFileShrinksToHalfTheDiskBeyondTheMargin() {
        long usable = TestFile.MARGIN + 600 * MiB;
        assertThat(VmDrill.fileSize(new VmDrill.FileOptions(null, null, null), VmDrill.budget((Long) (64 * GiB)), usable)).isEqualTo(300 * MiB);
    }

    @Test
    void theDefaultFileNeverGoesBelowSixtyFourMib() {
        // a nearly full disk: 64 MiB is asked for, and TestFile.create then says there is no room
        assertThat(VmDrill.fileSize(new VmDrill.FileOptions(null, null, null), VmDrill.budget((Long) (64 * GiB)), 10 * MiB)).isEqualTo(64 * MiB);
        assertThat(VmDrill.fileSize(new VmDrill.FileOptions(null, null, null), VmDrill.budget((Long) (100 * MiB)), 100 * GiB)).isEqualTo(64 * MiB);
    }

    @Test
    void sizeGivenIsTakenAsItIs() {
        assertThat(VmDrill.fileSize(new VmDrill.FileOptions(null, 5 * GiB, null), VmDrill.budget((Long) (GiB)), 10 * MiB)).isEqualTo(5 * GiB);
    }

    @Test
    void unknownAvailableMemoryBudgetsAGibOfFourGib() {
        assertThat(VmDrill.budget((Long) null)).isEqualTo(GiB);
    }

    @Test
    void withoutAMemoryCgroupTheBudgetIsAQuarterOfMemAvailable(@org.junit.jupiter.api.io.TempDir java.nio.file.Path empty) throws Exception {
        java.nio.file.Files.createDirectories(empty.resolve("proc"));
        hostside.fs.FsRoot fs = hostside.fs.FsRoot.open(empty.toString());
        assertThat(VmDrill.budget(fs, withAvailable(8 * GiB))).isEqualTo(2 * GiB);
        assertThat(VmDrill.budget(fs, withAvailable(null))).isEqualTo(GiB);
    }
}
