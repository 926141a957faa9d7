package hostside.container;

import static hostside.container.Rig.CG;
import static hostside.container.Rig.GIB;
import static hostside.container.Rig.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.testing.RuleTally;

/** Each verdict fires on the limit that breaks training and stays silent on a healthy one. */
class ContainerVerdictsTest {
    @TempDir
    Path tmp;

    static Finding only(List<Finding> fs) {
        assertThat(fs).hasSize(1);
        return fs.getFirst();
    }

    /** Every finding {@code r} gives, asserted to hold none of {@code rule}'s (RuleTally counts it quiet). */
    static List<Finding> quiet(Rig r, Rule rule) {
        return RuleTally.quiet(r.findings(), rule);
    }

    // ---- healthy machines say nothing ----

    @Test
    void healthyContainersAndHostsAreSilent() {
        assertThat(Rig.v2(tmp.resolve("a")).findings()).isEmpty();
        assertThat(Rig.v1(tmp.resolve("b")).findings()).isEmpty();
        assertThat(Rig.host(tmp.resolve("c")).findings()).isEmpty();
    }

    @Test
    void theTightContainerBreaksOnEveryLimit() {
        for (Rig r : List.of(Rig.v2(tmp.resolve("v2")).tight(), Rig.v1(tmp.resolve("v1")).tight())) {
            ContainerRun run = r.run();
            assertThat(run.findings()).extracting(Finding::subject).containsExactlyInAnyOrder("/dev/shm", "CPU quota", "pids", "memlock");
            assertThat(run.findings()).extracting(Finding::id).containsExactlyInAnyOrder("M4-SHM-SIZE", "M3-CPU-QUOTA", "M4-PIDS", "M4-MEMLOCK");
            assertThat(run.findings()).allSatisfy(f -> {
                assertThat(f.fix()).as("a bad or warn finding carries its rule's fix").isNotEmpty();
                assertThat(f.evidence()).isNotEmpty();
                assertThat(f.source()).isNotEmpty();
            });
            assertThat(run.verdict()).isEqualTo("in a container, docker (/.dockerenv exists): 2 limits break training (/dev/shm, pids); "
                    + "2 to check (CPU quota, memlock)");
        }
    }

    // ---- /dev/shm ----

    @Test
    void dockersDefaultShmGivesBusErrors() {
        Finding f = only(Rig.v2(tmp).shm(64 * MIB).about("/dev/shm"));
        assertThat(f.severity()).isEqualTo(Severity.BAD);
        assertThat(f.text()).startsWith("/dev/shm is 64 MiB (what Docker gives without --shm-size) but 8 DataLoader workers keep 2 batches of 147 MiB each there (2.3 GiB)")
                .contains("Bus error").contains("--shm-size=3g");
        assertThat(f.id()).isEqualTo("M4-SHM-SIZE");
        assertThat(f.fix()).contains("--ipc=host");
    }

    @Test
    void shmIsWeighedAgainstTheWorkersAndWhatIsAlreadyUsed() {
        Rig r = Rig.v2(tmp).shm(64 * MIB);
        assertThat(ContainerRun.read(r.fs(), r.live(), 0, null, null).findings()).as("no workers, nothing in shm").isEmpty();
        assertThat(ContainerRun.read(r.fs(), r.live(), 2, null, 8 * MIB).findings()).as("2 x 2 x 8 MiB fit").isEmpty();
        r.liveShm = 64 * MIB;
        r.liveShmUsed = 40 * MIB;
        Finding f = only(ContainerRun.read(r.fs(), r.live(), 2, null, 8 * MIB).findings());
        assertThat(f.text()).contains("40 MiB of it in use").contains("(32 MiB)");
    }

    @Test
    void workersWhoseBatchesFillExactlyTheFreeShmAreQuiet() {
        // 64 MiB with 32 MiB in use leaves 32 MiB: just the 2 workers x 2 batches x 8 MiB
        Rig r = Rig.v2(tmp).shm(64 * MIB);
        r.liveShm = 64 * MIB;
        r.liveShmUsed = 32 * MIB;
        assertThat(RuleTally.quiet(ContainerRun.read(r.fs(), r.live(), 2, null, 8 * MIB).findings(), ContainerRules.SHM_SIZE)).isEmpty();
    }

    @Test
    void shmLargerThanTheMemoryLimitIsOomKilledFirst() {
        Finding f = only(Rig.v2(tmp).memory(8 * GIB, 1 * GIB).about("/dev/shm"));
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).startsWith("/dev/shm (16 GiB) is larger than the memory limit (8 GiB)");
        assertThat(f.id()).isEqualTo("M4-SHM-OVER-MEMORY");
        assertThat(f.fix()).contains("--memory");
    }

    @Test
    void shmAsLargeAsTheMemoryLimitIsQuiet() {
        // /dev/shm is 16 GiB: a 16 GiB limit is the largest shm it holds without OOM-killing first
        assertThat(quiet(Rig.v2(tmp).memory(16 * GIB, 1 * GIB), ContainerRules.SHM_OVER_MEMORY)).isEmpty();
    }

    // ---- memory ----

    @Test
    void oomKillsAreBadOnBothVersions() {
        for (Rig r : List.of(Rig.v2(tmp.resolve("v2")).oomKills(2), Rig.v1(tmp.resolve("v1")).oomKills(1))) {
            Finding f = only(r.about("memory"));
            assertThat(f.severity()).isEqualTo(Severity.BAD);
            assertThat(f.text()).contains("killed by the OOM killer").contains("exit code 137");
            assertThat(f.id()).isEqualTo("M4-OOM-KILLS");
            assertThat(f.fix()).contains("--memory");
        }
        assertThat(quiet(Rig.v2(tmp.resolve("none")).oomKills(0), ContainerRules.OOM_KILLS)).isEmpty();
        assertThat(quiet(Rig.v1(tmp.resolve("none1")).oomKills(0), ContainerRules.OOM_KILLS)).isEmpty();
    }

    @Test
    void aCgroupNearItsLimitIsWarned() {
        Finding f = only(Rig.v2(tmp).memory(100 * GIB, 95 * GIB).about("memory"));
        assertThat(f.text()).startsWith("the cgroup uses 95 GiB of its 100 GiB limit (95%");
    }

    @Test
    void aCgroupJustBelowNinetyPercentOfItsLimitIsQuiet() {
        long limit = 100 * GIB, below = (long) Math.ceil(ContainerVerdicts.NEAR_LIMIT * limit) - 1;
        assertThat(quiet(Rig.v2(tmp).memory(limit, below), ContainerRules.MEMORY_NEAR_LIMIT)).isEmpty();
        assertThat(quiet(Rig.v1(tmp.resolve("v1")).memory(limit, below), ContainerRules.MEMORY_NEAR_LIMIT)).isEmpty();
    }

    @Test
    void memoryHighBelowMaxThrottles() {
        Rig r = Rig.v2(tmp).put(CG + "/memory.high", 64 * GIB + "\n").put(CG + "/memory.events", "low 0\nhigh 17\nmax 0\noom 0\noom_kill 0\n");
        Finding f = only(r.about("memory"));
        assertThat(f.text()).startsWith("memory.high is 64 GiB").contains("(17 times so far)");
        assertThat(quiet(Rig.v2(tmp.resolve("b")).put(CG + "/memory.high", 256 * GIB + "\n"), ContainerRules.MEMORY_HIGH))
                .as("above memory.max it never binds").isEmpty();
    }

    @Test
    void aMemoryHighEqualToTheLimitIsQuiet() {
        // Rig.v2's memory.max is 128 GiB: memory.high at the same figure never throttles before the limit does
        assertThat(quiet(Rig.v2(tmp).put(CG + "/memory.high", 128 * GIB + "\n"), ContainerRules.MEMORY_HIGH)).isEmpty();
        assertThat(quiet(Rig.v2(tmp.resolve("max")), ContainerRules.MEMORY_HIGH)).as("memory.high max").isEmpty();
    }

    // ---- CPU quota ----

    @Test
    void aQuotaBelowTheVisibleCpusOversubscribes() {
        Finding f = only(Rig.v2(tmp).cpuQuota(200000, 100000).about("CPU quota"));
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).startsWith("the cgroup grants 2 CPUs' worth of time (cpu.max 200000 100000) but this process sees 64 CPUs")
                .contains("the main process alone starts 64 intra-op threads").contains("--cpus=2 --cpuset-cpus=0-1").contains("2 threads fit the quota");
        assertThat(f.id()).as("one rule with the CPU facts' quota finding").isEqualTo("M3-CPU-QUOTA");
        assertThat(f.fix()).contains("OMP_NUM_THREADS");
        assertThat(Rig.v2(tmp.resolve("b")).cpuQuota(6400000, 100000).about("CPU quota")).isEmpty();
        assertThat(Rig.v2(tmp.resolve("c")).cpuQuota(200000, 100000).cpus("0-1").about("CPU quota")).as("a cpuset of 2 matches").isEmpty();
    }

    @Test
    void throttlingSeenByTheKernelMakesItBad() {
        Finding f = only(Rig.v1(tmp).cpuQuota(150000, 100000).throttled(1000, 400, 36_000_000).about("CPU quota"));
        assertThat(f.severity()).isEqualTo(Severity.BAD);
        assertThat(f.text()).contains("cpu.cfs_quota_us 150000 per 100000 us").contains("throttled in 400 of 1000 periods so far, 36.0 s")
                .contains("--cpus=2 --cpuset-cpus=0-1").contains("1 threads fit the quota");
        assertThat(only(Rig.v1(tmp.resolve("b")).cpuQuota(150000, 100000).throttled(1000, 50, 1).about("CPU quota")).severity()).isEqualTo(Severity.WARN);
    }

    // ---- pids ----

    @Test
    void pidsMaxBelowTheThreadsAWorkerPoolStarts() {
        Finding f = only(Rig.v2(tmp).pidsMax(64).about("pids"));
        assertThat(f.severity()).isEqualTo(Severity.BAD);
        // each worker runs torch.set_num_threads(1) (torch/utils/data/_utils/worker.py): 64 intra-op threads of the main process and 8 workers
        assertThat(f.text()).startsWith("pids.max is 64 with 12 tasks in use, room for 52 more, but the DataLoader plan needs at least 72 tasks")
                .contains("8 workers of one thread each").contains("can't start new thread").contains("--pids-limit=1024");
        assertThat(f.id()).isEqualTo("M4-PIDS");
    }

    @Test
    void pidsMaxWithRoomForExactlyThePlansThreadsIsQuiet() {
        // 12 tasks in use and the plan's 72 (64 intra-op threads, 8 workers): pids.max 84 leaves just enough room
        assertThat(quiet(Rig.v2(tmp).pidsMax(12 + 72), ContainerRules.PIDS)).isEmpty();
        assertThat(quiet(Rig.v1(tmp.resolve("v1")).pidsMax(12 + 72), ContainerRules.PIDS)).isEmpty();
    }

    @Test
    void pidsUsesTheThreadsGivenOrOmpNumThreads() {
        Rig r = Rig.v2(tmp).pidsMax(64);
        assertThat(ContainerRun.read(r.fs(), r.live(), 4, 4, null).findings()).extracting(Finding::subject).doesNotContain("pids");
        r.env.put("OMP_NUM_THREADS", "4");
        ContainerRun run = r.run();
        assertThat(run.plan().threadsPerProcess()).isEqualTo(4);
        assertThat(run.plan().threadsSource()).isEqualTo("OMP_NUM_THREADS=4");
        assertThat(run.findings()).extracting(Finding::subject).doesNotContain("pids");
    }

    // ---- rlimits ----

    @Test
    void memlockWithoutIpcLock() {
        Finding f = only(Rig.v2(tmp).memlock(64 * 1024).about("memlock"));
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).startsWith("memlock soft limit 64 KiB (hard 64 KiB) and no CAP_IPC_LOCK (uid 0")
                .contains("fails with \"Cannot allocate memory\"").doesNotContain("falls back to sockets");
        assertThat(f.id()).isEqualTo("M4-MEMLOCK");
        assertThat(f.fix()).contains("--ulimit memlock=-1").contains("--cap-add IPC_LOCK");
        assertThat(quiet(Rig.v2(tmp.resolve("cap")).memlock(64 * 1024).caps(Rig.ALL_CAPS), ContainerRules.MEMLOCK))
                .as("IPC_LOCK ignores the limit").isEmpty();
    }

    @Test
    void aMemlockLimitAtTheLineIsQuiet() {
        assertThat(quiet(Rig.v2(tmp).memlock(ContainerVerdicts.TINY_MEMLOCK), ContainerRules.MEMLOCK)).isEmpty();
        assertThat(quiet(Rig.v2(tmp.resolve("rdma")).memlock(ContainerVerdicts.TINY_MEMLOCK).dir("/sys/class/infiniband/mlx5_0"),
                ContainerRules.MEMLOCK)).as("RDMA devices here too").isEmpty();
    }

    @Test
    void memlockIsBadWhereRdmaDevicesAre() {
        Finding f = only(Rig.v2(tmp).memlock(64 * 1024).dir("/sys/class/infiniband/mlx5_0").about("memlock"));
        assertThat(f.severity()).isEqualTo(Severity.BAD);
        assertThat(f.text()).contains("RDMA devices here: mlx5_0");
    }

    @Test
    void fewOpenFilesBreakFdPassing() {
        Finding f = only(Rig.v2(tmp).nofile(1024).about("nofile"));
        assertThat(f.text()).contains("received 0 items of ancdata");
        assertThat(f.id()).isEqualTo("M4-NOFILE");
        assertThat(f.fix()).contains("--ulimit nofile=1048576:1048576").contains("set_sharing_strategy('file_system')");
    }

    @Test
    void anOpenFilesLimitJustAboveTheLineIsQuiet() {
        assertThat(quiet(Rig.v2(tmp).nofile(ContainerVerdicts.FEW_FILES + 1), ContainerRules.NOFILE)).isEmpty();
    }

    @Test
    void nprocBindsNonRootUsersAndRootInAUserNamespace() {
        Finding f = only(Rig.v2(tmp).nproc(50).uid(1000).about("nproc"));
        assertThat(f.text()).startsWith("max user processes (RLIMIT_NPROC) is 50 for uid 1000, but the DataLoader plan needs at least 72 threads");
        assertThat(f.id()).isEqualTo("M4-NPROC");
        assertThat(f.fix()).contains("--ulimit nproc=-1");
        assertThat(quiet(Rig.v2(tmp.resolve("root")).nproc(50), ContainerRules.NPROC)).as("root is exempt").isEmpty();
        assertThat(Rig.v2(tmp.resolve("userns")).nproc(50).put("/proc/self/uid_map", "0 1000 1\n").about("nproc")).hasSize(1);
    }

    @Test
    void anNprocLimitOfExactlyThePlansThreadsIsQuiet() {
        // the plan's 72 threads: 64 intra-op threads of the main process and 8 workers of one thread each
        assertThat(quiet(Rig.v2(tmp).nproc(72).uid(1000), ContainerRules.NPROC)).isEmpty();
    }

    // ---- GPUs ----

    @Test
    void gpusOnTheBusWithoutDeviceNodesMeanNoGpusFlag() {
        Finding f = only(Rig.v2(tmp).noGpus().about("GPUs"));
        assertThat(f.severity()).isEqualTo(Severity.BAD);
        assertThat(f.text()).startsWith("8 NVIDIA GPUs are on the PCI bus but no /dev/nvidiaN device node is here")
                .contains("no CUDA-capable device is detected");
        assertThat(f.id()).isEqualTo("M4-GPU-NODES");
        assertThat(f.fix()).contains("--gpus all");
    }

    @Test
    void aContainerWithItsGpusNodesAndUvmIsQuiet() {
        // 8 GPUs on the bus, NVIDIA_VISIBLE_DEVICES=all, /dev/nvidia0-7 and /dev/nvidia-uvm passed in
        List<Finding> fs = quiet(Rig.v2(tmp), ContainerRules.GPU_NODES);
        assertThat(RuleTally.quiet(fs, ContainerRules.GPU_UVM)).isEmpty();
    }

    @Test
    void aMissingUvmNodeStopsCuda() {
        Finding f = only(Rig.v2(tmp).remove("/dev/nvidia-uvm").about("GPUs"));
        assertThat(f.text()).contains("no /dev/nvidia-uvm");
        assertThat(f.id()).isEqualTo("M4-GPU-UVM");
        assertThat(f.fix()).contains("nvidia-modprobe -u -c=0");
    }

    @Test
    void cudaVisibleDevicesAgainstTheNodes() {
        Rig r = Rig.v2(tmp);
        r.env.put("CUDA_VISIBLE_DEVICES", "");
        assertThat(only(r.about("GPUs")).text()).startsWith("CUDA_VISIBLE_DEVICES=\"\" hides every GPU");
        r.env.put("CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5,6,7,8,9");
        assertThat(only(r.about("GPUs")).text()).startsWith("CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7,8,9 names 10 GPUs but only 8");
    }

    @Test
    void cudaVisibleDevicesNamingAsManyGpusAsNodesIsQuiet() {
        Rig r = Rig.v2(tmp);
        r.env.put("CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5,6,7");
        assertThat(quiet(r, ContainerRules.CUDA_VISIBLE)).isEmpty();
        r.env.put("CUDA_VISIBLE_DEVICES", "0,1");
        assertThat(quiet(r, ContainerRules.CUDA_VISIBLE)).as("fewer than are here").isEmpty();
    }

    @Test
    void aHostWithoutGpusSaysNothingAboutThem() {
        List<Finding> fs = quiet(Rig.host(tmp), ContainerRules.GPU_NODES);
        RuleTally.quiet(RuleTally.quiet(fs, ContainerRules.GPU_UVM), ContainerRules.CUDA_VISIBLE);
        assertThat(fs).extracting(Finding::subject).doesNotContain("GPUs");
    }

    // ---- PID 1 and the root ----

    @Test
    void theTrainingProcessAsPid1() {
        Finding f = only(Rig.v2(tmp).pid1("python", "train.py", "--token=s3cr3t").about("PID 1"));
        assertThat(f.text()).as("the executable's name, never its arguments").startsWith("PID 1 is python, the program itself")
                .contains("zombies").doesNotContain("train.py").doesNotContain("s3cr3t");
        assertThat(f.fix()).contains("--init");
        assertThat(only(Rig.v2(tmp.resolve("sh")).pid1("/bin/sh", "-c", "python train.py").about("PID 1")).text())
                .startsWith("PID 1 is a shell (sh)").doesNotContain("-c python");
        assertThat(quiet(Rig.v2(tmp.resolve("tini")).pid1("/usr/bin/tini", "--", "python"), ContainerRules.PID1)).isEmpty();
    }

    @Test
    void aReadOnlyRoot() {
        Rig r = Rig.v2(tmp).mount("/", "/", "overlay", "ro,relatime", "rw,lowerdir=/a");
        assertThat(only(r.about("root fs")).text()).contains("read-only (overlay)").contains("/tmp is not writable either");
        r.mount("/tmp", "/", "tmpfs", "rw,nosuid", "rw,size=1048576k");
        assertThat(only(r.about("root fs")).text()).contains("/tmp is writable");
    }

    @Test
    void aWritableOverlayRootIsQuiet() {
        // Docker's own: overlay mounted rw,relatime (Rig.v2)
        assertThat(quiet(Rig.v2(tmp), ContainerRules.ROOT_FS_RO)).isEmpty();
    }

    @Test
    void unknownFactsGiveNoFindings() {
        Rig r = Rig.v2(tmp).tight().remove("/proc/self/limits").remove("/proc/self/mountinfo").remove("/proc/self/status");
        assertThat(r.findings()).isEmpty();
        assertThat(r.read().unknowns()).contains("/proc/self/limits: missing", "/proc/self/status: missing");
    }

    @Test
    void theHeadlineOfAHealthyHost() {
        assertThat(Rig.host(tmp).run().verdict())
                .isEqualTo("not in a container (kthreadd is PID 2: the host's PID namespace): no limit here breaks training");
    }
}
