package hostside.container;

import static hostside.container.Rig.CG;
import static hostside.container.Rig.GIB;
import static hostside.container.Rig.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;

/** What the reader finds in recorded containers: cgroup v1, v2, hybrid, no limits, tight limits. */
class ContainerReaderTest {
    @TempDir
    Path tmp;

    @Test
    void dockerOnCgroupV2WithItsOwnCgroupNamespace() {
        ContainerFacts f = Rig.v2(tmp).read();
        assertThat(f.unknowns()).isEmpty();
        assertThat(f.cgroup().version()).isEqualTo("v2");
        assertThat(f.cgroup().places().get("memory").path()).isEqualTo("/");
        assertThat(f.cgroup().places().get("memory").dir()).isEqualTo(CG);
        assertThat(f.memory().limit().value()).isEqualTo(128 * GIB);
        assertThat(f.memory().limit().source()).isEqualTo(CG + "/memory.max");
        assertThat(f.memory().currentBytes()).isEqualTo(8 * GIB);
        assertThat(f.memory().high().unlimited()).isTrue();
        assertThat(f.memory().swap().value()).isZero();
        assertThat(f.memory().oomKills()).isZero();
        assertThat(f.cpu().quotaCpus()).isNull();
        assertThat(f.cpu().quotaSource()).startsWith("none: no quota in " + CG);
        assertThat(f.cpu().visibleCpus()).isEqualTo(64);
        assertThat(f.cpu().visibleList()).isEqualTo(CpuSet.range(0, 63));
        assertThat(f.cpu().weight()).isEqualTo(100);
        assertThat(f.cpu().shares()).isNull();
        assertThat(f.pids().max().unlimited()).isTrue();
        assertThat(f.pids().current()).isEqualTo(12);
        assertThat(f.shm().sizeBytes()).isEqualTo(16 * GIB);
        assertThat(f.shm().source()).startsWith("mountinfo: size=16777216k");
        assertThat(f.limits().memlock().softUnlimited()).isTrue();
        assertThat(f.limits().nofile().soft()).isEqualTo(1048576);
        assertThat(f.limits().stack().soft()).isEqualTo(8 * MIB);
        assertThat(f.capabilities().ipcLock()).isFalse();
        assertThat(f.capabilities().sysNice()).isFalse();
        assertThat(f.capabilities().uid()).isZero();
        assertThat(f.devices().deviceNodes()).hasSize(8).contains("/dev/nvidia0", "/dev/nvidia7");
        assertThat(f.devices().uvm()).isTrue();
        assertThat(f.devices().pciGpus()).isEqualTo(8);
        assertThat(f.devices().nvidiaVisibleDevices()).isEqualTo("all");
        assertThat(f.runtime().inContainer()).isTrue();
        assertThat(f.runtime().runtime()).isEqualTo("docker");
        assertThat(f.runtime().evidence()).contains("/.dockerenv exists", "/ is an overlay file system (an image's layers)");
        assertThat(f.namespaces().ownPid()).isTrue();
        assertThat(f.namespaces().pid1Kind()).isEqualTo("init");
        assertThat(f.namespaces().list()).allSatisfy(n -> assertThat(n.relation()).isEqualTo("shared with PID 1"));
        assertThat(f.namespaces().userNamespace()).isFalse();
        assertThat(f.rootFs().readOnly()).isFalse();
        assertThat(f.rootFs().type()).isEqualTo("overlay");
    }

    @Test
    void dockerOnCgroupV1ReadsTheSubtreeTheMountShows() {
        ContainerFacts f = Rig.v1(tmp).read();
        assertThat(f.unknowns()).isEmpty();
        assertThat(f.cgroup().version()).isEqualTo("v1");
        var memory = f.cgroup().places().get("memory");
        assertThat(memory.path()).isEqualTo("/docker/" + Rig.ID);
        assertThat(memory.dir()).isEqualTo(CG + "/memory");
        assertThat(f.cgroup().places().get("cpu").dir()).isEqualTo(CG + "/cpu,cpuacct");
        assertThat(f.memory().limit().unlimited()).as("9223372036854771712 is v1's no limit").isTrue();
        assertThat(f.memory().limit().value()).isNull();
        assertThat(f.memory().swap().unlimited()).isTrue();
        assertThat(f.memory().limitHits()).isZero();
        assertThat(f.cpu().quotaCpus()).isNull();
        assertThat(f.cpu().shares()).isEqualTo(1024);
        assertThat(f.cpu().cpusetCpus()).isEqualTo(CpuSet.range(0, 63));
        assertThat(f.runtime().runtime()).isEqualTo("docker");
        assertThat(f.runtime().evidence()).contains("/proc/self/cgroup: /docker/" + Rig.ID);
    }

    @Test
    void tightLimitsAreReadAsSetOnV2() {
        ContainerFacts f = Rig.v2(tmp).tight().read();
        assertThat(f.shm().sizeBytes()).isEqualTo(64 * MIB);
        assertThat(f.cpu().quotaCpus()).isEqualTo(2.0);
        assertThat(f.cpu().quotaUs()).isEqualTo(200000);
        assertThat(f.cpu().periodUs()).isEqualTo(100000);
        assertThat(f.cpu().quotaSource()).isEqualTo(CG + "/cpu.max");
        assertThat(f.pids().max().value()).isEqualTo(64);
        assertThat(f.pids().headroom()).isEqualTo(52);
        assertThat(f.limits().memlock().soft()).isEqualTo(65536);
        assertThat(f.capabilities().ipcLock()).isFalse();
    }

    @Test
    void tightLimitsAreReadAsSetOnV1() {
        ContainerFacts f = Rig.v1(tmp).tight().memory(4 * GIB, 3 * GIB).put(CG + "/memory/memory.memsw.limit_in_bytes", 6 * GIB + "\n").read();
        assertThat(f.unknowns()).isEmpty();
        assertThat(f.cpu().quotaCpus()).isEqualTo(2.0);
        assertThat(f.cpu().quotaSource()).isEqualTo(CG + "/cpu,cpuacct/cpu.cfs_quota_us");
        assertThat(f.pids().max().value()).isEqualTo(64);
        assertThat(f.memory().limit().value()).isEqualTo(4 * GIB);
        assertThat(f.memory().currentBytes()).isEqualTo(3 * GIB);
        assertThat(f.memory().swap().value()).as("memsw limits memory and swap together").isEqualTo(2 * GIB);
    }

    @Test
    void aBareHostHasNoLimitsAndSaysWhyItIsNoContainer() {
        ContainerFacts f = Rig.host(tmp).read();
        assertThat(f.unknowns()).isEmpty();
        assertThat(f.runtime().inContainer()).isFalse();
        assertThat(f.runtime().runtime()).isNull();
        assertThat(f.runtime().summary()).isEqualTo("kthreadd is PID 2: the host's PID namespace");
        assertThat(f.namespaces().ownPid()).isFalse();
        assertThat(f.namespaces().pid1Kind()).isEqualTo("host init");
        assertThat(f.namespaces().list()).allSatisfy(n -> assertThat(n.relation()).isEqualTo("shared with the host"));
        assertThat(f.memory().limit().unlimited()).isTrue();
        assertThat(f.memory().currentBytes()).isEqualTo(2 * GIB);
        assertThat(f.cpu().quotaSource()).startsWith("none");
        assertThat(f.pids().max().unlimited()).isTrue();
        assertThat(f.pids().current()).isEqualTo(40);
        assertThat(f.shm().sizeBytes()).as("tmpfs without size= gets half of RAM").isEqualTo(256 * GIB);
        assertThat(f.shm().source()).startsWith("tmpfs default");
        assertThat(f.devices().deviceNodes()).isEmpty();
        assertThat(f.devices().pciGpus()).isNull();
    }

    @Test
    void theTightestLevelBindsAPodLimitAboveTheContainer() {
        String pod = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod7.slice";
        Rig r = Rig.host(tmp).v2cgroup(pod + "/cri-containerd-" + Rig.ID + ".scope")
                .memory(8 * GIB, 1 * GIB).pidsMax(4096).put(CG + pod + "/memory.max", 4 * GIB + "\n").put(CG + pod + "/memory.current", 3 * GIB + "\n")
                .put(CG + pod + "/pids.max", "1024\n").put(CG + pod + "/pids.current", "1000\n")
                .put(CG + "/kubepods.slice/cpu.max", "400000 100000\n")
                .put(CG + "/kubepods.slice/cpu.stat", "nr_periods 100\nnr_throttled 40\nthrottled_usec 2500000\n");
        r.put(Rig.CG + pod + "/cri-containerd-" + Rig.ID + ".scope/pids.current", "30\n");
        r.env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
        ContainerFacts f = r.read();
        assertThat(f.memory().limit().value()).isEqualTo(4 * GIB);
        assertThat(f.memory().limit().source()).isEqualTo(CG + pod + "/memory.max");
        assertThat(f.memory().currentBytes()).as("use at the level of the limit").isEqualTo(3 * GIB);
        assertThat(f.pids().max().value()).isEqualTo(1024);
        assertThat(f.pids().headroom()).as("the pod has 24 left, the container 4066").isEqualTo(24);
        assertThat(f.cpu().quotaCpus()).isEqualTo(4.0);
        assertThat(f.cpu().throttledPeriods()).isEqualTo(40);
        assertThat(f.cpu().throttledSeconds()).isEqualTo(2.5);
        assertThat(f.runtime().inContainer()).isTrue();
        assertThat(f.runtime().kubernetes()).isTrue();
        assertThat(f.runtime().evidence()).contains("KUBERNETES_SERVICE_HOST is set");
    }

    @Test
    void hybridKeepsV1ControllersAndSaysWhichAreMissing() {
        Rig r = Rig.v1(tmp).mount(CG + "/unified", "/", "cgroup2", "rw,nosuid", "rw").put("/proc/self/cgroup",
                "4:memory:/docker/" + Rig.ID + "\n3:cpu,cpuacct:/docker/" + Rig.ID + "\n2:cpuset:/docker/" + Rig.ID + "\n0::/docker/" + Rig.ID + "\n")
                .unmount(CG + "/pids").put(CG + "/unified/cgroup.controllers", "\n");
        ContainerFacts f = r.read();
        assertThat(f.cgroup().version()).isEqualTo("hybrid");
        assertThat(f.cgroup().places().get("memory").version()).isEqualTo("v1");
        assertThat(f.cgroup().places().get("pids").dir()).isNull();
        assertThat(f.cgroup().places().get("pids").why()).isEqualTo("no pids controller mounted for this process");
        assertThat(f.pids().max().source()).startsWith("unknown: no pids controller mounted");
    }

    @Test
    void aMountAboveTheCgroupNamespaceCannotBePlaced() {
        Rig r = Rig.v2(tmp).mount(CG, "/../..", "cgroup2", "rw,nosuid", "rw");
        ContainerFacts f = r.read();
        assertThat(f.cgroup().places().get("memory").dir()).isNull();
        assertThat(f.memory().limit().source()).startsWith("unknown: the " + CG + " mount shows a cgroup above this process's cgroup namespace");
        assertThat(f.unknowns()).anyMatch(u -> u.startsWith("memory cgroup: the " + CG + " mount shows"));
    }

    @Test
    void liveStatvfsWinsOverTheMountOptionAndCountsUse() {
        Rig r = Rig.v2(tmp);
        r.liveShm = 64 * MIB;
        r.liveShmUsed = 10 * MIB;
        ContainerFacts f = r.read();
        assertThat(f.shm().sizeBytes()).isEqualTo(64 * MIB);
        assertThat(f.shm().usedBytes()).isEqualTo(10 * MIB);
        assertThat(f.shm().source()).isEqualTo("statvfs /dev/shm");
    }

    @Test
    void aRecordedMachineSaysWhatOnlyTheLiveProcessKnows() {
        Rig r = Rig.v2(tmp);
        ContainerFacts f = ContainerReader.read(r.fs(), LiveProcess.recorded());
        assertThat(f.shm().sizeBytes()).isEqualTo(16 * GIB);
        assertThat(f.shm().source()).contains("recorded machine");
        assertThat(f.devices().envKnown()).isFalse();
        assertThat(f.devices().nvidiaVisibleDevices()).isNull();
    }

    @Test
    void aShmFolderThatIsNoMountIsSaidSo() {
        ContainerFacts f = Rig.v2(tmp).unmount("/dev/shm").read();
        assertThat(f.shm().mounted()).isFalse();
        assertThat(f.shm().sizeBytes()).isNull();
        assertThat(f.shm().source()).startsWith("unknown: no /dev/shm mount");
    }

    @Test
    void podmanAndRootlessUserNamespaces() {
        Rig r = Rig.v2(tmp).remove("/.dockerenv").put("/run/.containerenv", "engine=\"podman-5.0.2\"\nrootless=1\n")
                .put("/proc/self/uid_map", "         0       1000          1\n         1     100000      65536\n");
        ContainerFacts f = r.read();
        assertThat(f.runtime().runtime()).isEqualTo("podman");
        assertThat(f.namespaces().userNamespace()).isTrue();
        assertThat(f.namespaces().uidMap()).isEqualTo("0 1000 1; 1 100000 65536");
    }

    @Test
    void aDockerenvLeftInAMachineImageIsNoContainer() {
        Rig r = Rig.host(tmp).put("/.dockerenv", "");
        ContainerFacts f = r.read();
        assertThat(f.runtime().inContainer()).isFalse();
        assertThat(f.runtime().evidence()).contains("/.dockerenv exists")
                .anyMatch(e -> e.startsWith("but no cgroup path names a runtime and / is ext4"));
    }

    @Test
    void aContainerLikeProcessWithoutRuntimeMarksIsAContainerOfUnknownRuntime() {
        Rig r = Rig.host(tmp).put("/proc/2/comm", "sh\n").pid1("/usr/bin/python3", "train.py");
        ContainerFacts f = r.read();
        assertThat(f.runtime().inContainer()).isTrue();
        assertThat(f.runtime().runtime()).isEqualTo("unknown runtime");
        assertThat(f.runtime().summary()).isEqualTo("PID 2 is sh, not kthreadd: a PID namespace of its own");
        assertThat(f.namespaces().pid1Kind()).isEqualTo("program");
        assertThat(f.namespaces().list()).allSatisfy(n -> assertThat(n.relation()).isEqualTo("shared with PID 1"));
    }

    @Test
    void namespacesThatDifferFromPid1sAreOwn() {
        Rig r = Rig.v2(tmp).link("/proc/1/ns/ipc", "ipc:[4026539999]").remove("/proc/1/ns/net");
        var byName = new java.util.HashMap<String, String>();
        r.read().namespaces().list().forEach(n -> byName.put(n.name(), n.relation()));
        assertThat(byName).containsEntry("ipc", "own").containsEntry("mnt", "shared with PID 1");
        assertThat(byName.get("net")).startsWith("unknown: PID 1's is unreadable");
    }

    @Test
    void theH200RecordingReadsWithoutAContainerAndWithoutLiveFacts() {
        ContainerRun run = ContainerRun.read(FsRoot.open(hostside.Fixtures.h200().toString()), LiveProcess.recorded(), null, null, null);
        ContainerFacts f = run.facts();
        assertThat(f.runtime().inContainer()).isFalse();
        assertThat(f.runtime().summary()).isEqualTo("no runtime marks in the recording");
        assertThat(f.devices().pciGpus()).isEqualTo(1);
        assertThat(f.devices().deviceNodes()).as("/dev is not recorded").isNull();
        assertThat(f.namespaces().ownPidWhy()).isEqualTo("unknown: /proc/2 is not in this recording");
        assertThat(run.findings()).isEmpty();
    }

    @Test
    void anHwlocRecordingWithoutCgroupsSaysNoneIsMounted() throws Exception {
        Path tarball;
        try (var s = java.nio.file.Files.list(hostside.Fixtures.hwloc())) {
            tarball = s.filter(p -> p.toString().endsWith(".tar.bz2")).sorted().findFirst().orElseThrow();
        }
        ContainerFacts f = ContainerReader.read(FsRoot.open(tarball.toString()), LiveProcess.recorded());
        assertThat(f.cgroup().version()).isNull();
        assertThat(f.cgroup().places()).isEmpty();
        assertThat(f.memory().limit().source()).startsWith("unknown");
    }

    @Test
    void rlimitsAndCapabilities() {
        ContainerFacts f = Rig.v2(tmp).nofile(1024).nproc(4096).uid(1000).caps("0000000000004000").read();
        assertThat(f.limits().nofile().soft()).isEqualTo(1024);
        assertThat(f.limits().nproc().soft()).isEqualTo(4096);
        assertThat(f.capabilities().uid()).isEqualTo(1000);
        assertThat(f.capabilities().ipcLock()).isTrue();
        assertThat(f.capabilities().sysNice()).isFalse();
        assertThat(Map.of("effective", f.capabilities().effective())).containsEntry("effective", "0000000000004000");
    }
}
