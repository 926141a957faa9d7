package hostside.rack;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.OK;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Source;
import hostside.gpu.cuda.FabricRules;

/**
 * Module 5's rules: one per item of the rack checklist ({@link RackItem}), each with the severities
 * its rows can take ({@link RackVerdict#severity()}: n/a and not run are none), what it means for
 * training, its fix, and where its healthy value comes from. The conditions are the checks' own
 * ({@link MemoryChecks}, {@link HostChecks}, {@link PlacementChecks}, {@link FabricChecks},
 * {@link RackLiveChecks}); fabric readiness is {@link FabricRules#READINESS}, beside the test.
 *
 * <p>Where an item judges the same setting as a rule of Modules 1 and 2 (THP, NUMA balancing, the
 * base page size), {@link #judgedAlsoBy} names that rule, so that page one says it once.
 */
public final class RackRules {
    private RackRules() {}

    static final Source GRACE_TUNING_OS = Source.document("NVIDIA Grace Performance Tuning Guide, Operating System Settings"
            + " (docs.nvidia.com/grace-perf-tuning-guide/os-settings.html): \"The recommended default value for the page size is 64K\"; with 64K"
            + " pages THP pages \"are currently too large for practical use in most applications\"");
    static final Source GRACE_BENCH_PLATFORM = Source.document("NVIDIA Grace CPU Benchmarking Guide, Platform Configuration"
            + " (nvidia.github.io/grace-cpu-benchmarking-guide/platform): init_on_alloc=0, acpi_power_meter.force_cap_on=y, numa_balancing=disable"
            + " on the kernel command line, the performance governor; \"intended to maximize system performance and may affect system security\"");
    static final Source IMEX_CHANNELS = Source.document("NVIDIA IMEX Service for NVLink Networks User's Guide, IMEX Channels: channels \"are not"
            + " created by default\"; without one \"dependent CUDA APIs fail with an insufficient permission error\"; they \"will not persist through a reboot\"");
    static final Source FABRIC_MANAGER_GUIDE = Source.document("NVIDIA Fabric Manager User Guide (release 2.3, May 2025), 1.3 NVSwitch Core"
            + " Software Stack and 1.5 NVLink Subnet Manager: NVSwitch systems need the fabric manager of the driver's version before CUDA starts;"
            + " fourth-generation NVSwitch systems (HGX B200) also need NVLSM over the InfiniBand stack (ib_umad)");
    static final Source NVML_FABRIC = Source.document("NVML API Reference, nvmlDeviceGetGpuFabricInfoV: state NOT_SUPPORTED, NOT_STARTED,"
            + " IN_PROGRESS, COMPLETED, with a status, a clusterUuid, a cliqueId and a health mask");
    static final String REASON_ONE_LINE = "hostside's own: the item is reported as read, and only its failure modes named above are judged";

    private static final Map<RackItem, Rule> BY_ITEM = new EnumMap<>(RackItem.class);
    private static final Map<String, List<String>> JUDGED_ALSO_BY = new java.util.HashMap<>();

    private static Rule rule(RackItem item, String title, EnumSet<Severity> sev, String meaning, String fix, Source first, Source... more) {
        Rule r = Rule.of(id(item), title, sev, meaning, fix, first, more);
        BY_ITEM.put(item, r);
        return r;
    }

    /** "M5-" and the item's id in capitals: thp is M5-THP. */
    static String id(RackItem item) {
        return "M5-" + item.id().toUpperCase(java.util.Locale.ROOT).replace('_', '-');
    }

    public static final Rule BASE_PAGE_SIZE = rule(RackItem.BASE_PAGE_SIZE, "the kernel's base page size, against 64 KiB on Grace",
            EnumSet.of(OK, INFO, UNKNOWN),
            "on Grace a 4 KiB kernel works but gives the TLB a sixteenth of a 64 KiB kernel's reach over large host tables; binaries built for 4 KiB"
                    + " pages (jemalloc with its default lg-page, some JITs) abort or waste memory on 64 KiB kernels. Module 2's M2-PAGE-SIZE judges the"
                    + " same page size",
            "", GRACE_TUNING_OS);
    public static final Rule THP = rule(RackItem.THP, "transparent huge pages' mode against the huge page size (512 MiB with 64 KiB base pages)",
            EnumSet.of(WARN, UNKNOWN, INFO, OK),
            "with 64 KiB base pages a transparent huge page is 512 MiB: 'always' gives one to every large anonymous mapping and resident memory"
                    + " balloons; 'madvise' gives them only to mappings that ask. Module 2's M2-THP judges the same setting",
            "transparent_hugepage=madvise on the kernel command line (or echo madvise > /sys/kernel/mm/transparent_hugepage/enabled)",
            GRACE_TUNING_OS, Source.thread("jemalloc/jemalloc#1803: on 64 KiB arm64 kernels THP 'always' makes 512 MiB huge pages and resident memory grows"));
    public static final Rule INIT_ON_ALLOC = rule(RackItem.INIT_ON_ALLOC, "init_on_alloc: pages zeroed when allocated",
            EnumSet.of(UNKNOWN, INFO, OK),
            "with init_on_alloc on, every page is zeroed when allocated, so the first touch and the pinning of large host buffers cost more; NVIDIA's"
                    + " Grace benchmarking guide boots with init_on_alloc=0 for benchmarks and says such settings may affect security, so it is reported"
                    + " (info), never a fault",
            "", GRACE_BENCH_PLATFORM, Source.document("Linux Documentation/admin-guide/kernel-parameters.txt, init_on_alloc: \"Fill newly allocated"
                    + " pages and heap objects with zeroes\"; the default follows CONFIG_INIT_ON_ALLOC_DEFAULT_ON"));
    public static final Rule NUMA_BALANCING = rule(RackItem.NUMA_BALANCING, "automatic NUMA balancing (kernel.numa_balancing)",
            EnumSet.of(WARN, UNKNOWN, INFO, OK),
            "the kernel unmaps pages to see who touches them and migrates them between nodes: stalls in a training step's hot path, and on coherent"
                    + " platforms pages moved to and from GPU-memory nodes. Module 2's M2-NUMA-BALANCING judges the same setting",
            "sysctl -w kernel.numa_balancing=0 (numa_balancing=disable on the kernel command line keeps it)",
            GRACE_BENCH_PLATFORM, Source.thread("deepseek-ai/DeepEP#624: task_numa_work stalls of 8-31 ms in the step until NUMA balancing was turned off"));
    public static final Rule GPU_MEMORY_MODE = rule(RackItem.GPU_MEMORY_MODE, "GPU memory as NUMA nodes or driver-managed (CDMM) on a coherent platform",
            EnumSet.of(WARN, UNKNOWN, INFO),
            "as NUMA nodes, GPU memory is in MemTotal, numactl and mbind reach it and the kernel may migrate pages there (container memory limits count"
                    + " it); under CDMM only CUDA places it. A GPU memory node that is not online leaves CUDA and NCCL paths that expect it to fail",
            "check dmesg for the driver's onlining messages; the node needs memory hot-plug (memhp_default_state=online_movable or the driver's auto-online)",
            Source.document("NVIDIA Technical Blog, Understanding Memory Management on Hardware-Coherent Platforms: GPU memory onlined as NUMA nodes,"
                    + " or driver-managed (CDMM) where the OS does not see it"));
    public static final Rule NODE_ROLES = rule(RackItem.NODE_ROLES, "what each NUMA node holds: CPUs and memory, a GPU's memory, or nothing",
            EnumSet.of(UNKNOWN, INFO, OK),
            "GPU-memory nodes have no CPUs, and binding CPUs to them fails (numactl --cpunodebind gives EINVAL); empty nodes are placeholders the"
                    + " firmware declares and hold nothing",
            "", Source.thread("vllm-project/vllm#39361: numactl --cpunodebind to a GH200 GPU-memory node fails with EINVAL"),
            Source.reasoned(REASON_ONE_LINE));
    public static final Rule BINDING = rule(RackItem.BINDING, "the numactl binding per GPU, from the GPU's NUMA node or local CPUs",
            EnumSet.of(UNKNOWN, INFO, OK),
            "a GPU's feeder and pinned buffers belong on the CPUs and memory next to it; where the kernel gives no locality any node serves",
            "", Source.document("Linux Documentation/ABI/testing/sysfs-bus-pci: numa_node and local_cpulist of a PCI device"),
            Source.reasoned(REASON_ONE_LINE));
    public static final Rule PROCESS_PLACEMENT = rule(RackItem.PROCESS_PLACEMENT, "whether this process may run next to every GPU it measures",
            EnumSet.of(WARN, UNKNOWN, OK),
            "a process confined to CPUs far from a GPU measures that GPU's host-to-device figures from the far node, not the near one",
            "run hostside with a CPU set that includes each GPU's local CPUs (taskset, or the container's cpuset)",
            Source.reasoned("hostside's own: its figures are meant to be the near node's, so a measurement it can only make from the far side is named"));
    public static final Rule CPU_GOVERNOR = rule(RackItem.CPU_GOVERNOR, "the CPU frequency governor",
            EnumSet.of(WARN, INFO, OK),
            "a governor other than performance ramps the clock up only after a burst has started, so launch and copy-submission latencies vary with it",
            "cpupower frequency-set -g performance", GRACE_BENCH_PLATFORM,
            Source.reasoned("warn on Grace only, where NVIDIA's guide names the governor; elsewhere info: hardware-managed P-states (intel_pstate, amd-pstate) pick the clock within the policy"));
    public static final Rule POWER_METER_CAP = rule(RackItem.POWER_METER_CAP, "acpi_power_meter.force_cap_on on Grace servers",
            EnumSet.of(INFO, OK),
            "without it the kernel does not expose the ACPI power meter's cap, so the platform's power capping is not managed from the OS",
            "", GRACE_BENCH_PLATFORM);
    public static final Rule IOMMU = rule(RackItem.IOMMU, "the IOMMU's mode, and passthrough on Grace before Linux 6.11",
            EnumSet.of(UNKNOWN, INFO, OK),
            "a translating IOMMU maps every pinned buffer for device DMA; on Grace, passthrough domains before Linux 6.11 were reported to leave ATS"
                    + " and SVA off for devices, which is a suspect where a GPU's coherent access to pageable memory fails",
            "", Source.reasoned("hostside's own (design/rack.md, item 11): the arm-smmu-v3 caveat is a research note not yet confirmed against the"
                    + " kernel's history, so it is info, never warn"));
    public static final Rule PCI_POWER = rule(RackItem.PCI_POWER, "PCI runtime power management of GPUs and NICs (power/control)",
            EnumSet.of(WARN, UNKNOWN, INFO, OK),
            "'auto' lets runtime power management suspend an idle device: its first access afterwards waits for the wake-up",
            "for d in /sys/bus/pci/devices/*/power/control; do echo on > $d; done (a udev rule keeps it)",
            Source.document("Linux Documentation/power/runtime_pm.rst, power/control: 'on' keeps the device at full power, 'auto' lets it be suspended when idle"),
            GRACE_BENCH_PLATFORM);
    public static final Rule PERSISTENCE = rule(RackItem.PERSISTENCE, "the GPUs' persistence mode",
            EnumSet.of(WARN, UNKNOWN, OK),
            "without persistence the driver tears a GPU's state down whenever no process holds it: the next CUDA start waits for it to come back,"
                    + " and settings made meanwhile are lost",
            "run nvidia-persistenced (enabled at boot), or nvidia-smi -pm 1",
            Source.document("NVIDIA Driver Persistence (docs.nvidia.com/deploy/driver-persistence): without persistence the driver deinitializes a"
                    + " GPU when its last client exits; nvidia-persistenced keeps it initialized"));
    public static final Rule C2C_LINK = rule(RackItem.C2C_LINK, "the NVLink-C2C link's mode and links, with the measured host-to-device copy beside them",
            EnumSet.of(WARN, OK),
            "a C2C link disabled or down passes every other tool (DCGM's PCIe test sets no floor for it); the measured copy is shown, not judged:"
                    + " the one public GH200 figure (346 GB/s, NVIDIA/nvbandwidth#23) is a single user's run titled as a low result, with clocks not known",
            "check nvidia-smi -q for the C2C section and the kernel log for link errors; a link that stays down is a hardware case (RMA)",
            Source.document("NVML API Reference, nvmlDeviceGetC2cModeInfoV and NVML_FI_DEV_C2C_LINK_COUNT / _GET_STATUS / _GET_MAX_BW"),
            Source.reasoned("no bandwidth floor: one third-party figure is no reference (design/platforms.md, corrections of 2026-12-05)"));
    public static final Rule FABRIC_STATE = rule(RackItem.FABRIC_STATE, "each GPU's NVLink fabric registration: state, status, cluster UUID, health",
            EnumSet.of(WARN, UNKNOWN, OK),
            "a GPU whose fabric registration is not completed, failed, has no cluster UUID or is unhealthy gives NCCL no multi-node NVLink:"
                    + " NCCL turns it off without a word",
            "nvidia-smi -q, section Fabric, for the detail; on HGX systemctl status nvidia-fabricmanager (of the driver's version); on GB200/GB300"
                    + " NVL racks the switch trays' fabric management (the operator)",
            NVML_FABRIC, Source.thread("NVIDIA/NVSentinel#889: the fabric state stayed \"in progress\" while the fabric manager was down for 20 days"));
    public static final Rule FABRIC_MANAGER = rule(RackItem.FABRIC_MANAGER, "the fabric manager on a host with NVSwitches",
            EnumSet.of(WARN, UNKNOWN, INFO, OK),
            "NVSwitch boards need the fabric manager of exactly the driver's version before CUDA can start: without it cuInit fails with 802"
                    + " \"system not yet initialized\"; on GB200 and GB300 racks the fabric is managed from the NVLink switch trays, not the compute"
                    + " trays. On fourth-generation NVSwitch boards (HGX B200) the switches are managed over the InfiniBand stack and a scan of the PCI"
                    + " bus for class 0x0680 can miss them",
            "install nvidia-fabricmanager of exactly the driver's version, then systemctl enable --now nvidia-fabricmanager (HGX B200: load ib_umad"
                    + " and install NVLSM as well)",
            FABRIC_MANAGER_GUIDE, Source.document("NVIDIA NVOS User Manual for NVLink Switches (v25.02), NVLink Interface: the NVLink switch tray runs NVOS,"
                    + " its access ports reach the compute trays of the rack and its FNM ports carry the fabric's provisioning (subnet manager)"),
            Source.thread("pytorch/pytorch#35710: cuInit 802 \"system not yet initialized\" on an NVSwitch machine without the fabric manager"));
    public static final Rule IMEX = rule(RackItem.IMEX, "IMEX on a multi-node NVLink rack: the channel device, channel0, the daemon",
            EnumSet.of(WARN, INFO, OK),
            "a job that allocates memory with a fabric handle needs an IMEX channel and a running IMEX daemon on every node of its domain: without a"
                    + " channel the allocation fails with CUDA_ERROR_NOT_PERMITTED; a daemon not running between jobs is normal where a job's prolog starts it",
            "a driver of R550 or later; nvidia-modprobe -i 0:1 in the job's prolog (or NVreg_CreateImexChannel0=1 for single-tenant nodes)",
            IMEX_CHANNELS);
    public static final Rule FABRIC_READINESS = register(RackItem.FABRIC_READINESS, FabricRules.READINESS);
    public static final Rule NVLS = rule(RackItem.NVLS, "NVLink multicast (NVLS) support, from attribute 132",
            EnumSet.of(UNKNOWN, INFO),
            "where multicast is supported NCCL uses NVLink SHARP for all-reduce; hostside never creates a multicast object, since a failed bind can"
                    + " take GPUs shared with other jobs out of service, so it is reported, never tested",
            "", Source.document("CUDA Driver API, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (132) and the multicast object API (Multicast Object Management)"));
    public static final Rule GPUDIRECT = rule(RackItem.GPUDIRECT, "GPUDirect RDMA with the RDMA NICs here: nvidia_peermem or dma-buf",
            EnumSet.of(INFO, OK),
            "without GPUDirect RDMA NCCL stages network traffic through host memory; NVIDIA recommends the dma-buf path (open kernel modules, Linux"
                    + " 5.12 or later) over the legacy nvidia_peermem, so a missing nvidia_peermem is no fault where dma-buf is usable. On Grace, NCCL"
                    + " 2.27 and later use GDR for NICs on a C2C-attached CPU by default (NCCL_NET_GDR_C2C=1); NCCL_NET_GDR_LEVEL=SYS is the workaround for"
                    + " NCCL before 2.26 only",
            "", Source.document("NVIDIA GPU Operator, GPUDirect RDMA: DMA-BUF (open kernel module, Linux 5.12+) is recommended over nvidia-peermem"),
            Source.source("NVIDIA/nccl src/graph/paths.cc: NCCL_NET_GDR_C2C lets NICs on a C2C-attached CPU use GDR, default 1 since 2.27 (0 in 2.26)"),
            Source.thread("NVIDIA/nccl#1579: on GH200 NCCL_NET_GDR_LEVEL=SYS gave 13-20% more before NCCL_NET_GDR_C2C"));
    public static final Rule FAILURE_DOMAIN = rule(RackItem.FAILURE_DOMAIN, "the failure domain: chassis, tray and slot where NVML has them, and what the GPUs share",
            EnumSet.of(INFO),
            "GPUs that share a tray, a power shelf or an NVLink switch fail together: a job's replicas or checkpoints belong in different domains",
            "", Source.document("NVML API Reference, nvmlDeviceGetPlatformInfo: chassis serial, slot number, tray index, host ID (Blackwell and later)"));
    public static final Rule MEMORY_BANDWIDTH = rule(RackItem.MEMORY_BANDWIDTH, "the CPU memory bandwidth (STREAM Triad), against the Grace guide's lower bounds",
            EnumSet.of(WARN, INFO, OK),
            "CPU-side loaders, pinned staging and offload share the CPU's memory bandwidth: a Grace below its guide's lower bound for its capacity"
                    + " even at its best sample has a channel missing, slow or busy",
            "check that every memory channel is populated and at speed (dmidecode -t memory), the firmware's memory settings, and that nothing else"
                    + " ran meanwhile; then rerun",
            Source.source("NVIDIA/grace-cpu-benchmarking-guide src/foundations/STREAM (commit 3474928): Triad lower bounds, 410 GB/s for a 120 GB"
                    + " Grace Hopper and 288 GB/s for 480 GB"),
            Source.reasoned("warn only where even the best sample is below the bound; a median below it with a best sample above is at the floor, within noise"));

    private static Rule register(RackItem item, Rule r) {
        if (!r.id().equals(id(item))) throw new IllegalStateException(r.id() + " is not " + id(item));
        BY_ITEM.put(item, r);
        return r;
    }

    static {
        JUDGED_ALSO_BY.put(THP.id(), List.of("M2-THP"));
        JUDGED_ALSO_BY.put(NUMA_BALANCING.id(), List.of("M2-NUMA-BALANCING"));
        JUDGED_ALSO_BY.put(BASE_PAGE_SIZE.id(), List.of("M2-PAGE-SIZE"));
        JUDGED_ALSO_BY.put(CPU_GOVERNOR.id(), List.of("M3-GOVERNOR"));
        for (RackItem i : RackItem.values()) if (!BY_ITEM.containsKey(i)) throw new IllegalStateException("no rule for the rack item " + i.id());
    }

    /** The rule behind a rack checklist item. */
    public static Rule of(RackItem item) {
        return BY_ITEM.get(item);
    }

    /**
     * The rules of Modules 1 to 4 that judge the same setting as this rack rule (M5-THP: M2-THP), so
     * that page one says a setting once; empty for most.
     */
    public static List<String> judgedAlsoBy(String id) {
        return JUDGED_ALSO_BY.getOrDefault(id, List.of());
    }

    /** Module 5's rules, in the checklist's order, then fabric readiness's causes. */
    public static List<Rule> all() {
        List<Rule> all = new ArrayList<>();
        for (RackItem i : RackItem.values()) all.add(BY_ITEM.get(i));
        for (Rule r : FabricRules.all()) if (!all.contains(r)) all.add(r);
        return List.copyOf(all);
    }

    /** Whether a rule gives findings of this severity: RackCheck's guard, so that a row never says what its rule cannot. */
    static boolean gives(RackItem item, Severity s) {
        return s == null || of(item).severities().contains(s);
    }
}
