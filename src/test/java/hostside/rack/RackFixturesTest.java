package hostside.rack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.cpu.facts.CpuFacts;
import hostside.cpu.facts.CpuFactsReader;
import hostside.fs.FsRoot;
import hostside.fs.Recorder;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;
import hostside.snapshot.Snapshot;
import hostside.testing.RuleTally;
import hostside.vm.VmDrill;
import hostside.vm.facts.VmFacts;
import hostside.vm.facts.VmVerdicts;

/**
 * The checklist on the synthetic recordings of testdata/rack (made by its make-fixtures.py from
 * the documented formats: README.md there cites each): every verdict that depends on the platform
 * is checked on the platform it is about, and what only a live machine answers says so.
 */
class RackFixturesTest {
    record Judged(Platform platform, Map<RackItem, RackCheck> checks) {
        RackCheck get(RackItem i) {
            return checks.get(i);
        }
    }

    static FsRoot open(String machine) {
        // the rack's synthetic machines, or one of hwloc's real recordings by its path under testdata
        String path = machine.contains("/") ? machine : "rack/" + machine + ".tar.gz";
        return FsRoot.open(hostside.Fixtures.testdata().resolve(path).toString());
    }

    /** The machine facts of one recording, for tests of rules that take them. */
    static MachineFacts judgeFacts(String machine) {
        return MachineReader.read(open(machine));
    }

    static Judged judge(String machine) {
        FsRoot fs = open(machine);
        MachineFacts m = MachineReader.read(fs);
        RackFacts rf = RackFactsReader.read(fs, m);
        Platform p = Platform.of(m, rf);
        List<RackCheck> checks = RackChecklist.of(new RackChecklist.Inputs(p, m, VmDrill.DRILL.facts(fs), CpuFactsReader.read(fs, m), rf, null, null));
        assertThat(checks).extracting(RackCheck::item).containsExactly(RackItem.values());
        return new Judged(p, checks.stream().collect(Collectors.toMap(RackCheck::item, Function.identity())));
    }

    /** The findings a machine's rows make: n/a and not run make none. */
    static List<Finding> findings(Judged j) {
        return j.checks().values().stream().map(RackCheck::finding).filter(java.util.Objects::nonNull).toList();
    }

    static void recordedOnly(Judged j, RackItem... items) {
        for (RackItem i : items) {
            assertThat(j.get(i).verdict()).as(i.id()).isEqualTo(RackVerdict.NOT_RUN);
            assertThat(j.get(i).why()).as(i.id()).contains("recorded machine");
        }
    }

    @Test
    void gh200InNumaModeAsTheGuidesSetItUp() {
        Judged j = judge("gh200-numa");
        assertThat(j.platform().kind()).isEqualTo(Platform.Kind.GRACE_HOPPER);
        assertThat(j.get(RackItem.BASE_PAGE_SIZE)).extracting(RackCheck::verdict, RackCheck::value).containsExactly(RackVerdict.OK, "64 KiB");
        assertThat(j.get(RackItem.THP).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(j.get(RackItem.THP).value()).isEqualTo("madvise, 512 MiB huge pages");
        assertThat(j.get(RackItem.INIT_ON_ALLOC).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(j.get(RackItem.NUMA_BALANCING).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).value()).startsWith("NUMA: 0009:01:00.0 = node 1");
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).why()).contains("MemTotal includes the GPUs' memory");
        assertThat(j.get(RackItem.NODE_ROLES).value()).contains("0: CPUs 0-71 and").contains("1: GPU memory of 0009:01:00.0").contains("2-8: empty");
        // the GPU's memory is node 1: its feeders' line names node 0, never node 1
        assertThat(j.get(RackItem.BINDING).value()).contains("numactl --cpunodebind=0 --membind=0").doesNotContain("=1");
        assertThat(j.get(RackItem.CPU_GOVERNOR).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(j.get(RackItem.POWER_METER_CAP).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(j.get(RackItem.PCI_POWER).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(j.get(RackItem.FABRIC_MANAGER).verdict()).isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.IMEX).verdict()).as("a single superchip is not an NVLink rack").isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.GPUDIRECT).why()).contains("NCCL_NET_GDR_LEVEL=SYS");
        recordedOnly(j, RackItem.PROCESS_PLACEMENT, RackItem.PERSISTENCE, RackItem.C2C_LINK, RackItem.FABRIC_STATE, RackItem.FABRIC_READINESS,
                RackItem.NVLS, RackItem.MEMORY_BANDWIDTH);
        assertThat(j.get(RackItem.FAILURE_DOMAIN).value()).startsWith("tray and slot: recorded machine").endsWith("one GPU");
        assertThat(j.checks().values()).noneMatch(c -> c.verdict() == RackVerdict.BAD);
    }

    @Test
    void gh200InCdmmModeWithADistributionsDefaults() {
        Judged j = judge("gh200-cdmm");
        assertThat(j.platform().kind()).as("CDMM hides the GPU memory node; the GPU's id still says superchip").isEqualTo(Platform.Kind.GRACE_HOPPER);
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).value()).startsWith("CDMM");
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).why()).contains("numactl and mbind cannot reach GPU memory");
        assertThat(j.get(RackItem.BASE_PAGE_SIZE)).extracting(RackCheck::verdict, RackCheck::value).containsExactly(RackVerdict.INFO, "4 KiB");
        assertThat(j.get(RackItem.BASE_PAGE_SIZE).fix()).contains("64K");
        assertThat(j.get(RackItem.INIT_ON_ALLOC).verdict()).isEqualTo(RackVerdict.UNKNOWN);
        assertThat(j.get(RackItem.CPU_GOVERNOR).verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(j.get(RackItem.CPU_GOVERNOR).fix()).contains("performance");
        assertThat(j.get(RackItem.POWER_METER_CAP).verdict()).isEqualTo(RackVerdict.INFO);
        assertThat(j.get(RackItem.PCI_POWER).verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(j.get(RackItem.PCI_POWER).value()).contains("auto: GPU0");
        // NUMA balancing is on with one node of memory (CDMM): nothing migrates, the scanner still runs
        assertThat(j.get(RackItem.NUMA_BALANCING)).extracting(RackCheck::verdict, RackCheck::value).containsExactly(RackVerdict.INFO, "1 (on)");
        assertThat(j.get(RackItem.NUMA_BALANCING).why()).contains("no page migrates").contains("task_numa_work");
    }

    @Test
    void gb200TrayTwoGracesFourGpusAndImex() {
        Judged j = judge("gb200-tray");
        assertThat(j.platform().kind()).isEqualTo(Platform.Kind.GRACE_BLACKWELL);
        String binding = j.get(RackItem.BINDING).value();
        assertThat(binding).contains("GPU0 (0008:01:00.0), GPU1 (0009:01:00.0): numactl --cpunodebind=0 --membind=0")
                .contains("GPU2 (0018:01:00.0), GPU3 (0019:01:00.0): numactl --cpunodebind=1 --membind=1");
        // never a GPU-memory node in a binding line
        for (int gpuNode : List.of(2, 10, 18, 26)) assertThat(binding).doesNotContain("=" + gpuNode + " ");
        assertThat(j.get(RackItem.NODE_ROLES).value()).contains("empty").contains("GPU memory of 0019:01:00.0");
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).value()).startsWith("NUMA:").contains("0019:01:00.0 = node");
        assertThat(j.get(RackItem.FABRIC_MANAGER).verdict()).isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.FABRIC_MANAGER).why()).contains("switch trays");
        RackCheck imex = j.get(RackItem.IMEX);
        assertThat(imex.verdict()).as("a recording cannot say whether the daemon runs: never bad").isEqualTo(RackVerdict.INFO);
        assertThat(imex.value()).contains("channel0").contains("nodes_config.cfg").doesNotContain("192.0.2");
        recordedOnly(j, RackItem.FABRIC_STATE, RackItem.FABRIC_READINESS, RackItem.NVLS);
        // what the GPUs share is sysfs's: a recording answers it; tray and slot are NVML's
        assertThat(j.get(RackItem.FAILURE_DOMAIN)).extracting(RackCheck::verdict).isEqualTo(RackVerdict.INFO);
        assertThat(j.get(RackItem.FAILURE_DOMAIN).value()).contains("GPU0, GPU1 share node 0").contains("GPU2, GPU3 share node 1");
    }

    @Test
    void dgxSparkIsUnifiedMemoryWith4kPages() {
        Judged j = judge("dgx-spark");
        assertThat(j.platform().kind()).isEqualTo(Platform.Kind.GB10);
        assertThat(j.get(RackItem.BASE_PAGE_SIZE)).extracting(RackCheck::verdict, RackCheck::value).containsExactly(RackVerdict.OK, "4 KiB");
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).value()).isEqualTo("unified");
        assertThat(j.get(RackItem.POWER_METER_CAP).verdict()).isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.C2C_LINK).verdict()).isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.IMEX).verdict()).isEqualTo(RackVerdict.NA);
    }

    @Test
    void hgxWithNvswitchesNeedsItsFabricManager() {
        Judged j = judge("hgx-h100");
        assertThat(j.platform().kind()).isEqualTo(Platform.Kind.NVSWITCH);
        assertThat(j.get(RackItem.FABRIC_MANAGER)).extracting(RackCheck::verdict, RackCheck::value).containsExactly(RackVerdict.OK, "4 NVSwitches; unit enabled");
        assertThat(j.get(RackItem.NUMA_BALANCING).verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(j.get(RackItem.NUMA_BALANCING).fix()).contains("kernel.numa_balancing=0");
        assertThat(j.get(RackItem.BINDING).value()).contains("--cpunodebind=0").contains("--cpunodebind=1");
        // PCIe-attached GPUs: their memory is never system memory, so there is no mode to say
        RuleTally.quiet(findings(j), RackRules.GPU_MEMORY_MODE);
        assertThat(j.get(RackItem.IMEX).verdict()).isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.POWER_METER_CAP).verdict()).isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.CPU_GOVERNOR).verdict()).as("intel_pstate powersave is not a Grace guide's failure").isEqualTo(RackVerdict.INFO);
        assertThat(j.get(RackItem.GPUDIRECT).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(j.get(RackItem.FAILURE_DOMAIN).value()).contains("GPU0, GPU1, GPU2, GPU3 share node 0").contains("each GPU has a NIC of its own next to it");
    }

    @Test
    void aServerWithoutAnNvidiaGpuSaysNothingOfGpuMemoryOrFailureDomains() {
        // hwloc's recording of a two-node Xeon with NVMe and a Xeon Phi: PCI devices, none of them an NVIDIA GPU
        Judged j = judge("hwloc/32em64t-2n8c+dax+nvme+mic+dimms.tar.bz2");
        assertThat(j.platform().kind()).isEqualTo(Platform.Kind.NO_GPU);
        List<Finding> f = findings(j);
        RuleTally.quiet(f, RackRules.GPU_MEMORY_MODE);
        RuleTally.quiet(f, RackRules.FAILURE_DOMAIN);
    }

    @Test
    void power9WithNvlinkV100sHasRealGpuMemoryNodes() {
        // hwloc's nvidiagpunumanodes: a real recording, its numa_status files as the driver wrote them
        Judged j = judge("hwloc/nvidiagpunumanodes.tar.bz2");
        assertThat(j.platform().kind()).isEqualTo(Platform.Kind.COHERENT_OTHER);
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).verdict()).isEqualTo(RackVerdict.INFO);
        assertThat(j.get(RackItem.GPU_MEMORY_MODE).value()).startsWith("NUMA: ").contains("0035:05:00.0 = node 250 (15.8 GiB)");
        assertThat(j.get(RackItem.NODE_ROLES).value()).contains("GPU memory of");
        assertThat(j.get(RackItem.C2C_LINK).verdict()).isEqualTo(RackVerdict.NA);
        assertThat(j.get(RackItem.C2C_LINK).why()).contains("not NVLink-C2C");
        assertThat(j.get(RackItem.POWER_METER_CAP).verdict()).as("a Grace setting").isEqualTo(RackVerdict.NA);
        // the recording has no PCI data: the driver's list names the GPUs, nothing says where their feeders belong
        assertThat(j.platform().evidence()).contains("0035:05:00.0").contains("no PCI data");
        assertThat(j.get(RackItem.BINDING).verdict()).isEqualTo(RackVerdict.UNKNOWN);
    }

    /**
     * A snapshot of a recorded rack machine, read back, judges the same: every file the rack reads
     * is in it (listings stand for the files only tested for existence: IMEX's nodes_config.cfg and
     * the fabric manager's unit), and nothing more of them.
     */
    @Test
    void aSnapshotOfARackMachineJudgesTheSame(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws java.io.IOException {
        for (String machine : List.of("gb200-tray", "hgx-h100", "gh200-cdmm")) {
            FsRoot fs = open(machine);
            Recorder r = fs.record();
            Snapshot.readEverything(fs);
            java.nio.file.Path out = tmp.resolve(machine + "-snapshot.tar.gz");
            r.writeTarGz(out, "box");
            Judged before = judge(machine);
            FsRoot back = FsRoot.open(out.toString());
            MachineFacts m = MachineReader.read(back);
            RackFacts rf = RackFactsReader.read(back, m);
            List<RackCheck> after = RackChecklist.of(new RackChecklist.Inputs(Platform.of(m, rf), m, VmDrill.DRILL.facts(back), CpuFactsReader.read(back, m), rf, null, null));
            assertThat(after).as(machine).containsExactlyElementsOf(List.of(RackItem.values()).stream().map(before::get).toList());
            // the IMEX node list holds the domain's addresses: a snapshot keeps its name, never its content
            assertThat(back.text("/etc/nvidia-imex/nodes_config.cfg").orElse("")).as(machine).doesNotContain("192.0.2");
        }
    }

    @Test
    void aProcessBoundAwayFromAGpusNodeIsWarnedOnALiveMachine() {
        FsRoot fs = open("gb200-tray");
        MachineFacts m = MachineReader.read(fs);
        RackFacts recorded = RackFactsReader.read(fs, m);
        // the same facts as if read live: the rule judges this process's own affinity
        RackFacts live = new RackFacts(recorded.armParts(), recorded.driverParams(), recorded.gpuNuma(), recorded.imex(), recorded.fabricManager(),
                recorded.peermem(), recorded.pciPower(), true, recorded.unknowns());
        CpuFacts c = CpuFactsReader.read(fs, m);
        java.util.function.BiFunction<String, String, RackCheck> judged = (cpus, mems) -> {
            var p = new CpuFacts.ProcessCpus("4242", CpuSet.parseList(cpus), null, CpuSet.parseList(mems), null);
            var cpu = new CpuFacts(c.kernel(), c.sched(), c.isolation(), p, c.frequency(), c.idle(), c.irqs(), c.feeders(),
                    c.onlineCpus(), c.cores(), c.unknowns());
            return PlacementChecks.processPlacement(new RackChecklist.Inputs(Platform.of(m, live), m, VmDrill.DRILL.facts(fs), cpu, live, null, null));
        };
        RackCheck far = judged.apply("72-143", "1");
        assertThat(far.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(far.why()).contains("GPU0 (node 0: none of its CPUs and not its memory)").contains("GPU1").doesNotContain("GPU2");
        assertThat(judged.apply("0-143", "0-1").verdict()).isEqualTo(RackVerdict.OK);
        assertThat(judged.apply("0-143", "1").why()).contains("GPU0 (node 0: not its memory)");
    }

    @Test
    void inAPodWithoutHostPidTheFabricManagerIsOutOfSightNotMissing() {
        FsRoot fs = open("hgx-h100");
        MachineFacts m = MachineReader.read(fs);
        RackFacts recorded = RackFactsReader.read(fs, m);
        // as a pod reads it: its own /etc (no unit), its own processes (no daemon)
        RackFacts.FabricManager none = new RackFacts.FabricManager(recorded.fabricManager().nvswitches(), "", false, false);
        String why = "this process runs in a PID namespace of its own (PID 2 is sleep, not kthreadd: a container or a pod without hostPID), so the host's daemons and systemd units are out of its sight";
        RackFacts pod = new RackFacts(recorded.armParts(), recorded.driverParams(), recorded.gpuNuma(), recorded.imex(), none,
                recorded.peermem(), recorded.pciPower(), true, recorded.unknowns(), why);
        RackChecklist.Inputs in = new RackChecklist.Inputs(Platform.of(m, pod), m, VmDrill.DRILL.facts(fs), CpuFactsReader.read(fs, m), pod, null, null);
        RackCheck c = FabricChecks.fabricManager(in);
        assertThat(c.verdict()).as("not a warning a pod cannot back").isEqualTo(RackVerdict.UNKNOWN);
        assertThat(c.value()).isEqualTo("4 NVSwitches; the fabric manager out of sight");
        assertThat(c.why()).startsWith(why).contains("fabric_state");
        assertThat(c.fix()).contains("hostPID");
        // seen from the host, the same missing unit and daemon is a warning
        RackFacts host = new RackFacts(recorded.armParts(), recorded.driverParams(), recorded.gpuNuma(), recorded.imex(), none,
                recorded.peermem(), recorded.pciPower(), true, recorded.unknowns());
        assertThat(FabricChecks.fabricManager(new RackChecklist.Inputs(Platform.of(m, host), m, VmDrill.DRILL.facts(fs), CpuFactsReader.read(fs, m), host, null, null)).verdict())
                .isEqualTo(RackVerdict.WARN);
    }

    @Test
    void aPidNamespaceOfItsOwnIsToldByPid2(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Files.createDirectories(tmp.resolve("proc/2"));
        java.nio.file.Files.createDirectories(tmp.resolve("sys"));
        java.nio.file.Files.writeString(tmp.resolve("proc/2/comm"), "kthreadd\n");
        assertThat(RackFactsReader.hostHidden(FsRoot.open(tmp.toString()))).isEmpty();
        java.nio.file.Files.writeString(tmp.resolve("proc/2/comm"), "python3\n");
        assertThat(RackFactsReader.hostHidden(FsRoot.open(tmp.toString()))).contains("PID 2 is python3, not kthreadd");
        java.nio.file.Files.delete(tmp.resolve("proc/2/comm"));
        assertThat(RackFactsReader.hostHidden(FsRoot.open(tmp.toString()))).contains("PID 2 is absent");
    }

    @Test
    void numaBalancingIsJudgedByTheNodesThatHoldMemoryNotByEveryNodeListed() {
        // a GB200 tray lists many CPU-less, memory-less nodes beside its Graces and its GPUs' memory
        var f = VmDrill.DRILL.facts(open("gb200-tray"));
        assertThat(f.memoryNodes()).isNotNull().isLessThan(f.numaNodes()).isGreaterThanOrEqualTo(2);
        // balancing on: said with the nodes that hold memory
        var s = f.sysctl();
        var on = new VmFacts.Sysctl(s.overcommitMemory(), s.overcommitRatio(), s.swappiness(), s.maxMapCount(), s.zoneReclaimMode(),
                s.minFreeBytes(), s.watermarkScaleFactor(), s.compactionProactiveness(), 1);
        java.util.function.IntFunction<java.util.List<Finding>> with = memoryNodes -> VmVerdicts.of(
                        new VmFacts(f.arch(), f.pageSize(), f.thp(), f.hugetlb(), f.memory(), on, f.numaNodes(), memoryNodes, f.rdmaDevices(),
                                f.vmstat(), f.process(), f.unknowns()))
                .stream().filter(x -> x.subject().equals("NUMA balancing")).toList();
        assertThat(with.apply(f.memoryNodes())).singleElement().satisfies(x -> assertThat(x.text())
                .contains("on with " + f.memoryNodes() + " NUMA nodes holding memory"));
        // every node listed but one holding memory: nothing to balance, nothing said
        assertThat(with.apply(1)).isEmpty();
    }
}
