package hostside.vm.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import hostside.fs.FsRoot;
import hostside.harness.TestFile;

/** Which measurements a machine's settings rule out, and the reason each gives. */
class ApplicabilityTest {
    static HostTarget target(String thp, long hugePage, String fsType) {
        return new HostTarget(FsRoot.live(), 4096, hugePage, thp, 1L << 30, "a quarter of available memory", Path.of("/var/tmp"), fsType,
                new TestFile.Lazy(Path.of("/var/tmp"), "vm", 64L << 20), 8L << 20);
    }

    @Test
    void hugePageCasesDoNotRunWhereThpIsNeverOrMissing() {
        for (String mode : new String[] {"never", "unavailable"}) {
            HostTarget t = target(mode, mode.equals("never") ? 2L << 20 : 0, "ext4");
            assertThat(new AnonTouch(true).notApplicable(t)).hasValue("THP is " + mode + " on this machine: no huge pages to ask for");
            assertThat(new TlbReach(true).notApplicable(t)).hasValue("THP is " + mode + " on this machine: no huge pages to back the walk");
            assertThat(new AnonTouch(false).notApplicable(t)).as("base pages always run").isEmpty();
            assertThat(new TlbReach(false).notApplicable(t)).isEmpty();
        }
    }

    @Test
    void hugePageCasesRunWithMadviseOrAlways() {
        for (String mode : new String[] {"madvise", "always"}) {
            HostTarget t = target(mode, 2L << 20, "ext4");
            assertThat(new AnonTouch(true).notApplicable(t)).isEmpty();
            assertThat(new TlbReach(true).notApplicable(t)).isEmpty();
        }
        assertThat(new AnonTouch(true).notApplicable(target("madvise", 0, "ext4"))).as("no PMD size known").isPresent();
    }

    @Test
    void coldReadsDoNotRunOnFilesystemsInMemory() {
        for (String fs : new String[] {"tmpfs", "ramfs"}) {
            HostTarget t = target("madvise", 2L << 20, fs);
            assertThat(new FileRead(false, true).notApplicable(t)).get().asString().contains("is on " + fs).contains("--dir on a disk");
            assertThat(new FileRead(true, true).notApplicable(t)).isPresent();
            assertThat(new FileRead(false, false).notApplicable(t)).as("warm reads still run").isEmpty();
        }
        assertThat(new FileRead(true, true).notApplicable(target("madvise", 2L << 20, "xfs"))).isEmpty();
    }
}
