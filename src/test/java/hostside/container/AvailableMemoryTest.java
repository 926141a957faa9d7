package hostside.container;

import static hostside.container.Rig.CG;
import static hostside.container.Rig.GIB;
import static hostside.container.Rig.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** A drill's memory budget inside a container: the cgroup's room, not the host's MemAvailable. */
class AvailableMemoryTest {
    @TempDir
    Path tmp;

    private static String meminfo(long availableBytes) {
        return "MemTotal:       " + 512 * GIB / 1024 + " kB\nMemFree:        " + 400 * GIB / 1024 + " kB\nMemAvailable:   "
                + availableBytes / 1024 + " kB\n";
    }

    @Test
    void aV2ContainerGetsItsLimitLessItsWorkingSet() {
        Rig r = Rig.v2(tmp).memory(4 * GIB, 3 * GIB).put("/proc/meminfo", meminfo(400 * GIB))
                .put(CG + "/memory.stat", "anon 1073741824\nfile 2147483648\nactive_file 1073741824\ninactive_file 1073741824\n");
        AvailableMemory m = AvailableMemory.read(FsRoot.open(r.root.toString()));
        assertThat(m.memAvailable()).isEqualTo(400 * GIB);
        assertThat(m.cgroupRoom()).as("4 GiB less (3 GiB used less 1 GiB of inactive page cache)").isEqualTo(2 * GIB);
        assertThat(m.cgroupLimit()).isEqualTo(CG + "/memory.max");
        assertThat(m.bytes()).isEqualTo(2 * GIB);
        assertThat(m.cgroupBinds()).isTrue();
    }

    @Test
    void aV1ContainerReadsTotalInactiveFile() {
        Rig r = Rig.v1(tmp).memory(8 * GIB, 7 * GIB).put("/proc/meminfo", meminfo(100 * GIB))
                .put(CG + "/memory/memory.stat", "cache 4294967296\nrss 3221225472\ntotal_inactive_file 3221225472\ninactive_file 3221225472\n");
        AvailableMemory m = AvailableMemory.read(FsRoot.open(r.root.toString()));
        assertThat(m.cgroupRoom()).isEqualTo(4 * GIB);
        assertThat(m.bytes()).isEqualTo(4 * GIB);
    }

    @Test
    void aLimitAboveWhatTheMachineHasLeavesMemAvailable() {
        Rig r = Rig.v2(tmp).memory(128 * GIB, 8 * GIB).put("/proc/meminfo", meminfo(20 * GIB)).put(CG + "/memory.stat", "inactive_file 0\n");
        AvailableMemory m = AvailableMemory.read(FsRoot.open(r.root.toString()));
        assertThat(m.cgroupRoom()).isEqualTo(120 * GIB);
        assertThat(m.bytes()).isEqualTo(20 * GIB);
        assertThat(m.cgroupBinds()).isFalse();
    }

    @Test
    void aFullCgroupHasNoRoomAndNoStatMeansNothingReclaimable() {
        Rig r = Rig.v2(tmp).memory(GIB, GIB + 10 * MIB).put("/proc/meminfo", meminfo(400 * GIB));
        AvailableMemory m = AvailableMemory.read(FsRoot.open(r.root.toString()));
        assertThat(m.cgroupRoom()).as("over the limit (v1 lets usage pass it briefly): no room, not a negative one").isZero();
        assertThat(m.orElse(GIB)).isZero();
    }

    @Test
    void noLimitsOrNoCgroupsLeaveMemAvailableAndNothingAtAllTheFallback() {
        Rig v1 = Rig.v1(tmp.resolve("v1")).put("/proc/meminfo", meminfo(30 * GIB));
        AvailableMemory m = AvailableMemory.read(FsRoot.open(v1.root.toString()));
        assertThat(m.cgroupRoom()).as("v1's 'unlimited' is a huge number, not a limit").isNull();
        assertThat(m.bytes()).isEqualTo(30 * GIB);

        Rig host = Rig.host(tmp.resolve("host")).remove("/proc/meminfo");
        AvailableMemory none = AvailableMemory.read(FsRoot.open(host.root.toString()));
        assertThat(none.bytes()).isNull();
        assertThat(none.orElse(4 * GIB)).isEqualTo(4 * GIB);
    }
}
