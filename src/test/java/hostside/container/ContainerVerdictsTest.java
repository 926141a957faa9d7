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

/** Each verdict fires on the limit that breaks training and stays silent on a healthy one. */
class ContainerVerdictsTest {
    @TempDir
    Path tmp;

    static Finding only(List<Finding> fs) {
        assertThat(fs).hasSize(1);
        return fs.getFirst();
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
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.BAD);
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
    void shmLargerThanTheMemoryLimitIsOomKilledFirst() {
        Finding f = only(Rig.v2(tmp).memory(8 * GIB, 1 * GIB).about("/dev/shm"));
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.WARN);
        assertThat(f.text()).startsWith("/dev/shm (16 GiB) is larger than the memory limit (8 GiB)");
        assertThat(f.id()).isEqualTo("M4-SHM-OVER-MEMORY");
        assertThat(f.fix()).contains("--memory");
        assertThat(Rig.v2(tmp.resolve("b")).memory(32 * GIB, 1 * GIB).about("/dev/shm")).isEmpty();
    }

    // ---- memory ----

    @Test
    void oomKillsAreBadOnBothVersions() {
        for (Rig r : List.of(Rig.v2(tmp.resolve("v2")).oomKills(2), Rig.v1(tmp.resolve("v1")).oomKills(1))) {
            Finding f = only(r.about("memory"));
            assertThat(f.severity()).isEqualTo(hostside.core.Severity.BAD);
            assertThat(f.text()).contains("killed by the OOM killer").contains("exit code 137");
            assertThat(f.id()).isEqualTo("M4-OOM-KILLS");
            assertThat(f.fix()).contains("--memory");
        }
        assertThat(Rig.v2(tmp.resolve("none")).oomKills(0).about("memory")).isEmpty();
    }

    @Test
    void aCgroupNearItsLimitIsWarned() {
        Finding f = only(Rig.v2(tmp).memory(100 * GIB, 95 * GIB).about("memory"));
        assertThat(f.text()).startsWith("the cgroup uses 95 GiB of its 100 GiB limit (95%");
        assertThat(Rig.v2(tmp.resolve("b")).memory(100 * GIB, 80 * GIB).about("memory")).isEmpty();
    }

    @Test
    void memoryHighBelowMaxThrottles() {
        Rig r = Rig.v2(tmp).put(CG + "/memory.high", 64 * GIB + "\n").put(CG + "/memory.events", "low 0\nhigh 17\nmax 0\noom 0\noom_kill 0\n");
        Finding f = only(r.about("memory"));
        assertThat(f.text()).startsWith("memory.high is 64 GiB").contains("(17 times so far)");
        assertThat(Rig.v2(tmp.resolve("b")).put(CG + "/memory.high", 256 * GIB + "\n").about("memory")).as("above memory.max it never binds").isEmpty();
    }

    // ---- CPU quota ----

    @Test
    void aQuotaBelowTheVisibleCpusOversubscribes() {
        Finding f = only(Rig.v2(tmp).cpuQuota(200000, 100000).about("CPU quota"));
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.WARN);
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
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.BAD);
        assertThat(f.text()).contains("cpu.cfs_quota_us 150000 per 100000 us").contains("throttled in 400 of 1000 periods so far, 36.0 s")
                .contains("--cpus=2 --cpuset-cpus=0-1").contains("1 threads fit the quota");
        assertThat(only(Rig.v1(tmp.resolve("b")).cpuQuota(150000, 100000).throttled(1000, 50, 1).about("CPU quota")).severity()).isEqualTo(hostside.core.Severity.WARN);
    }

    // ---- pids ----

    @Test
    void pidsMaxBelowTheThreadsAWorkerPoolStarts() {
        Finding f = only(Rig.v2(tmp).pidsMax(64).about("pids"));
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.BAD);
        // each worker runs torch.set_num_threads(1) (torch/utils/data/_utils/worker.py): 64 intra-op threads of the main process and 8 workers
        assertThat(f.text()).startsWith("pids.max is 64 with 12 tasks in use, room for 52 more, but the DataLoader plan needs at least 72 tasks")
                .contains("8 workers of one thread each").contains("can't start new thread").contains("--pids-limit=1024");
        assertThat(f.id()).isEqualTo("M4-PIDS");
        assertThat(Rig.v2(tmp.resolve("b")).pidsMax(4096).about("pids")).isEmpty();
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
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.WARN);
        assertThat(f.text()).startsWith("memlock soft limit 64 KiB (hard 64 KiB) and no CAP_IPC_LOCK (uid 0")
                .contains("fails with \"Cannot allocate memory\"").doesNotContain("falls back to sockets");
        assertThat(f.id()).isEqualTo("M4-MEMLOCK");
        assertThat(f.fix()).contains("--ulimit memlock=-1").contains("--cap-add IPC_LOCK");
        assertThat(Rig.v2(tmp.resolve("cap")).memlock(64 * 1024).caps(Rig.ALL_CAPS).about("memlock")).as("IPC_LOCK ignores the limit").isEmpty();
        assertThat(Rig.v2(tmp.resolve("big")).memlock(128 * MIB).about("memlock")).isEmpty();
    }

    @Test
    void memlockIsBadWhereRdmaDevicesAre() {
        Finding f = only(Rig.v2(tmp).memlock(64 * 1024).dir("/sys/class/infiniband/mlx5_0").about("memlock"));
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.BAD);
        assertThat(f.text()).contains("RDMA devices here: mlx5_0");
    }

    @Test
    void fewOpenFilesBreakFdPassing() {
        Finding f = only(Rig.v2(tmp).nofile(1024).about("nofile"));
        assertThat(f.text()).contains("received 0 items of ancdata");
        assertThat(f.id()).isEqualTo("M4-NOFILE");
        assertThat(f.fix()).contains("--ulimit nofile=1048576:1048576").contains("set_sharing_strategy('file_system')");
        assertThat(Rig.v2(tmp.resolve("b")).nofile(65536).about("nofile")).isEmpty();
    }

    @Test
    void nprocBindsNonRootUsersAndRootInAUserNamespace() {
        Finding f = only(Rig.v2(tmp).nproc(50).uid(1000).about("nproc"));
        assertThat(f.text()).startsWith("max user processes (RLIMIT_NPROC) is 50 for uid 1000, but the DataLoader plan needs at least 72 threads");
        assertThat(f.id()).isEqualTo("M4-NPROC");
        assertThat(f.fix()).contains("--ulimit nproc=-1");
        assertThat(Rig.v2(tmp.resolve("root")).nproc(50).about("nproc")).as("root is exempt").isEmpty();
        assertThat(Rig.v2(tmp.resolve("userns")).nproc(50).put("/proc/self/uid_map", "0 1000 1\n").about("nproc")).hasSize(1);
        assertThat(Rig.v2(tmp.resolve("many")).nproc(100000).uid(1000).about("nproc")).isEmpty();
    }

    // ---- GPUs ----

    @Test
    void gpusOnTheBusWithoutDeviceNodesMeanNoGpusFlag() {
        Finding f = only(Rig.v2(tmp).noGpus().about("GPUs"));
        assertThat(f.severity()).isEqualTo(hostside.core.Severity.BAD);
        assertThat(f.text()).startsWith("8 NVIDIA GPUs are on the PCI bus but no /dev/nvidiaN device node is here")
                .contains("no CUDA-capable device is detected");
        assertThat(f.id()).isEqualTo("M4-GPU-NODES");
        assertThat(f.fix()).contains("--gpus all");
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
        r.env.put("CUDA_VISIBLE_DEVICES", "0,1");
        assertThat(r.about("GPUs")).isEmpty();
    }

    @Test
    void aHostWithoutGpusSaysNothingAboutThem() {
        assertThat(Rig.host(tmp).about("GPUs")).isEmpty();
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
        assertThat(Rig.v2(tmp.resolve("tini")).pid1("/usr/bin/tini", "--", "python").about("PID 1")).isEmpty();
    }

    @Test
    void aReadOnlyRoot() {
        Rig r = Rig.v2(tmp).mount("/", "/", "overlay", "ro,relatime", "rw,lowerdir=/a");
        assertThat(only(r.about("root fs")).text()).contains("read-only (overlay)").contains("/tmp is not writable either");
        r.mount("/tmp", "/", "tmpfs", "rw,nosuid", "rw,size=1048576k");
        assertThat(only(r.about("root fs")).text()).contains("/tmp is writable");
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
