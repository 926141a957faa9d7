package hostside.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;

/**
 * The walk up a recording's cgroup folders to the one that holds the cpuset ends (issue 36): a
 * cgroup file system mounted at "/" made the walk reach "/", whose parent is "/", for ever.
 */
class CpusetTest {
    @TempDir
    Path root;

    Cpuset read(String mounts, String cgroup) throws Exception {
        Path self = root.resolve("proc/self");
        Files.createDirectories(self);
        Files.createDirectories(root.resolve("sys"));
        Files.writeString(self.resolve("mounts"), mounts);
        Files.writeString(self.resolve("cgroup"), cgroup);
        FsRoot fs = FsRoot.open(root.toString());
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Cpuset.read(fs));
    }

    @Test
    void aCgroupFileSystemMountedAtTheRootWithoutCpusetFilesIsNoRestriction() throws Exception {
        Cpuset c = read("cgroup2 / cgroup2 rw,nosuid 0 0\n", "0::/job/step\n");
        assertThat(c.cpus()).isEmpty();
        assertThat(c.source()).isEmpty();
    }

    @Test
    void aCgroupFileSystemMountedAtTheRootIsReadUpToTheRoot() throws Exception {
        Files.createDirectories(root.resolve("job/step"));
        Files.writeString(root.resolve("cpuset.cpus.effective"), "0-3\n");
        Cpuset c = read("cgroup2 / cgroup2 rw,nosuid 0 0\n", "0::/job/step\n");
        assertThat(c.cpus()).contains(CpuSet.parseList("0-3"));
    }

    @Test
    void theUsualMountStillReadsTheNearestAncestor() throws Exception {
        Files.createDirectories(root.resolve("sys/fs/cgroup/job/step"));
        Files.writeString(root.resolve("sys/fs/cgroup/job/cpuset.cpus.effective"), "4-7\n");
        Cpuset c = read("cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n", "0::/job/step\n");
        assertThat(c.cpus()).contains(CpuSet.parseList("4-7"));
        assertThat(c.source()).isEqualTo("/sys/fs/cgroup/job/cpuset.cpus.effective");
    }
}
