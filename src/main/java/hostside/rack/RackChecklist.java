package hostside.rack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import hostside.core.CpuSet;
import hostside.core.Units;
import hostside.cpu.facts.CpuFacts;
import hostside.machine.MachineFacts;
import hostside.machine.MemoryDrill;
import hostside.machine.PciDevice;
import hostside.machine.Topology;
import hostside.memory.MemoryCases;
import hostside.vm.facts.VmFacts;

/**
 * The rack checklist's rules: facts in, one {@link RackCheck} per {@link RackItem} out, in order.
 * Pure: every reading comes in {@link Inputs}, so that recorded and synthetic machines test every
 * rule. The healthy values and their sources are ../design/rack.md's table (NVIDIA's Grace
 * performance tuning and benchmarking guides, the IMEX guide, users' threads); each rule's comment
 * names the one it follows.
 */
public final class RackChecklist {
    private RackChecklist() {}

    /**
     * @param live what only a live machine answers (NVML, CUDA, the memory drill); null for a recording
     */
    public record Inputs(Platform platform, MachineFacts machine, VmFacts vm, CpuFacts cpu, RackFacts rack, MemoryDrill.MemorySection memory,
                         LiveChecks live) {}

    /** The rows a live machine adds, each already judged by the code that read it; null fields: not run. */
    public record LiveChecks(List<RackCheck> checks) {
        RackCheck find(RackItem item) {
            return checks.stream().filter(c -> c.item() == item).findFirst().orElse(null);
        }
    }

    static final String RECORDED = "recorded machine: only a live machine answers this";
    static final long MIB = 1L << 20, GIB = 1L << 30;

    public static List<RackCheck> of(Inputs in) {
        List<RackCheck> out = new ArrayList<>();
        for (RackItem item : RackItem.values()) out.add(check(item, in));
        return out;
    }

    static RackCheck check(RackItem item, Inputs in) {
        if (in.live() != null) {
            RackCheck c = in.live().find(item);
            if (c != null) return c;
        }
        return switch (item) {
            case BASE_PAGE_SIZE -> basePageSize(in);
            case THP -> thp(in);
            case INIT_ON_ALLOC -> initOnAlloc(in);
            case NUMA_BALANCING -> numaBalancing(in);
            case GPU_MEMORY_MODE -> gpuMemoryMode(in);
            case NODE_ROLES -> nodeRoles(in);
            case BINDING -> binding(in);
            case PROCESS_PLACEMENT -> processPlacement(in);
            case CPU_GOVERNOR -> governor(in);
            case POWER_METER_CAP -> powerMeterCap(in);
            case IOMMU -> iommu(in);
            case PCI_POWER -> pciPower(in);
            case FABRIC_MANAGER -> fabricManager(in);
            case IMEX -> imex(in);
            case GPUDIRECT -> gpuDirect(in);
            case C2C_LINK -> in.platform().c2c() ? liveOnly(item, in)
                    : RackCheck.na(item, in.platform().coherent() ? "not NVLink-C2C: this platform's coherent CPU-GPU link is another" : "no NVLink-C2C: host memory reaches the GPUs over PCIe");
            case FABRIC_STATE, FABRIC_READINESS, NVLS -> noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU") : liveOnly(item, in);
            case MEMORY_BANDWIDTH -> memoryBandwidth(in);
            case PERSISTENCE -> noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU") : liveOnly(item, in);
            case FAILURE_DOMAIN -> noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU")
                    : failureDomain(in.machine(), List.of(), in.rack().live() ? "NVML did not give the rack position" : "tray and slot: " + RECORDED);
        };
    }

    private static boolean noGpu(Inputs in) {
        return in.platform().kind() == Platform.Kind.NO_GPU;
    }

    private static RackCheck liveOnly(RackItem item, Inputs in) {
        return RackCheck.notRun(item, in.rack().live() ? "not measured in this run" : RECORDED);
    }

    // ---- 1. base page size: Grace tuning guide (64K recommended); 4K normal on x86 and GB10 ----

    static RackCheck basePageSize(Inputs in) {
        RackItem item = RackItem.BASE_PAGE_SIZE;
        VmFacts.PageSize p = in.vm().pageSize();
        if (p == null || p.bytes() == null) return RackCheck.unknown(item, "the base page size could not be read: " + (p == null ? "no reading" : p.source()), "");
        long b = p.bytes();
        String value = Units.bytes(b) + (p.assumed() ? " (assumed: " + p.source() + ")" : "");
        boolean k64 = b == 64 * 1024;
        String allocators = "binaries built for 4 KiB pages (jemalloc with its default lg-page, some JITs) abort or waste memory on 64 KiB kernels";
        if (in.platform().grace()) {
            if (k64) return RackCheck.of(item, RackVerdict.OK, value, "NVIDIA's Grace tuning guide recommends 64 KiB pages: fewer TLB misses over large working sets; " + allocators, "");
            return RackCheck.of(item, RackVerdict.INFO, value, "works; NVIDIA's Grace tuning guide recommends 64 KiB pages (16 times the TLB reach)",
                    "boot the 64K kernel flavour of the distribution (Ubuntu: linux-nvidia-64k) where the software stack allows");
        }
        if (in.platform().kind() == Platform.Kind.GB10 && b == 4096) return RackCheck.ok(item, value, "4 KiB is the normal base page on GB10 systems (DGX OS)");
        if (k64) return RackCheck.of(item, RackVerdict.INFO, value, allocators, "");
        return RackCheck.ok(item, value, b == 4096 ? "the normal base page here" : "the kernel's base page");
    }

    // ---- 2. THP: madvise on 64K kernels (the PMD size is 512 MiB there: jemalloc#1803) ----

    static RackCheck thp(Inputs in) {
        RackItem item = RackItem.THP;
        VmFacts.Thp t = in.vm().thp();
        if (t == null || !t.available() || t.enabled() == null || t.enabled().selected() == null) {
            return t != null && t.status() != null && !t.available()
                    ? RackCheck.of(item, RackVerdict.INFO, t.status(), "no transparent huge pages: every pinned or staged buffer faults in base pages", "")
                    : RackCheck.unknown(item, "transparent_hugepage/enabled could not be read", "");
        }
        String mode = t.enabled().selected();
        Long pmd = t.pmdSizeBytes();
        String value = mode + (pmd == null ? "" : ", " + Units.bytes(pmd) + " huge pages");
        if (pmd != null && pmd >= 512 * MIB) {
            if (mode.equals("always")) {
                return RackCheck.of(item, RackVerdict.WARN, value, "with 64 KiB base pages a transparent huge page is 512 MiB: 'always' gives them to every large anonymous mapping, and resident memory balloons (jemalloc#1803); the Grace tuning guide calls them too large for most applications",
                        "transparent_hugepage=madvise on the kernel command line (or echo madvise > /sys/kernel/mm/transparent_hugepage/enabled)");
            }
            if (mode.equals("madvise")) return RackCheck.ok(item, value, "only mappings that ask get 512 MiB pages, as recommended with 64 KiB base pages");
            return RackCheck.ok(item, value, "no 512 MiB pages: the 64 KiB base pages already give the TLB its reach");
        }
        return switch (mode) {
            case "always", "madvise" -> RackCheck.ok(item, value, mode.equals("always") ? "large buffers get huge pages without asking" : "huge pages for mappings that ask (PyTorch's pinned and caching allocators do not, by default)");
            default -> RackCheck.of(item, RackVerdict.INFO, value, "no huge pages: a pinned or staged buffer faults and pins 4 KiB at a time", "transparent_hugepage=madvise");
        };
    }

    // ---- 3. init_on_alloc: the Grace benchmarking guide boots with init_on_alloc=0 ----

    static RackCheck initOnAlloc(Inputs in) {
        RackItem item = RackItem.INIT_ON_ALLOC;
        String v = cmdline(in, "init_on_alloc");
        String fix = "init_on_alloc=0 on the kernel command line";
        if (v == null) {
            return RackCheck.of(item, RackVerdict.UNKNOWN, "not on the command line",
                    "the kernel's build option decides (CONFIG_INIT_ON_ALLOC_DEFAULT_ON, on in Ubuntu's kernels): then every page is zeroed when allocated, and first touch and pinning of large buffers cost more; the boot log's \"mem auto-init: ... heap alloc:on\" says it is on",
                    in.platform().grace() ? fix + " (as NVIDIA's Grace benchmarking guide boots)" : fix);
        }
        if (v.equals("0")) return RackCheck.ok(item, "init_on_alloc=0", "pages are not zeroed twice on allocation");
        return RackCheck.of(item, in.platform().grace() ? RackVerdict.WARN : RackVerdict.INFO, "init_on_alloc=" + v,
                "every page is zeroed when allocated: first touch and pinning of large buffers cost more" + (in.platform().grace() ? "; NVIDIA's Grace benchmarking guide boots with init_on_alloc=0" : ""), fix);
    }

    // ---- 4. NUMA balancing: off (DeepEP#624: task_numa_work stalls of 8-31 ms) ----

    static RackCheck numaBalancing(Inputs in) {
        RackItem item = RackItem.NUMA_BALANCING;
        Integer v = in.vm().sysctl() == null ? null : in.vm().sysctl().numaBalancing();
        String cmd = cmdline(in, "numa_balancing");
        if (v == null) {
            if (cmd != null) return RackCheck.of(item, cmd.equals("disable") ? RackVerdict.OK : RackVerdict.WARN, "numa_balancing=" + cmd + " (command line)", "the sysctl could not be read; the command line sets it at boot", cmd.equals("disable") ? "" : "sysctl kernel.numa_balancing=0");
            return RackCheck.unknown(item, "/proc/sys/kernel/numa_balancing could not be read (a kernel without NUMA balancing has none)", "");
        }
        String value = v + (v == 0 ? " (off)" : v == 1 ? " (on)" : v == 2 ? " (memory tiering)" : "");
        long nodesWithMemory = in.machine().topology().numaNodes().stream().filter(n -> n.memTotalBytes() != null && n.memTotalBytes() > 0).count();
        if (v == 0) return RackCheck.ok(item, value, "pages stay where they were placed");
        if (nodesWithMemory <= 1) {
            // nothing migrates, but the scanner (task_numa_work) still unmaps pages to watch them: its stalls stay
            return RackCheck.of(item, RackVerdict.INFO, value, "one node holds all memory, so no page migrates; the scanner still unmaps pages and takes hinting faults (task_numa_work's stalls, DeepEP#624) for nothing",
                    "sysctl -w kernel.numa_balancing=0: off costs nothing here");
        }
        boolean gpuNodes = in.machine().topology().numaNodes().stream().anyMatch(Topology.NumaNode::gpuMemory);
        return RackCheck.of(item, RackVerdict.WARN, value,
                "the kernel unmaps pages to see who touches them and migrates them between nodes: stalls of 8-31 ms in a training step's hot path (task_numa_work, DeepEP#624)"
                        + (gpuNodes ? ", and pages move to and from the GPU-memory nodes" : ""),
                "sysctl -w kernel.numa_balancing=0 (numa_balancing=disable on the command line to keep it)");
    }

    // ---- 5. GPU memory: NUMA nodes or CDMM (NVIDIA: "Understanding memory management on hardware-coherent platforms") ----

    static RackCheck gpuMemoryMode(Inputs in) {
        RackItem item = RackItem.GPU_MEMORY_MODE;
        Platform.Kind k = in.platform().kind();
        if (k == Platform.Kind.NO_GPU) return RackCheck.na(item, "no NVIDIA GPU");
        if (k == Platform.Kind.GB10) return RackCheck.of(item, RackVerdict.INFO, "unified", "the GPU and the CPU share one pool of LPDDR5X: there is no separate GPU memory to place, and NVML reports no GPU memory size", "");
        if (!in.platform().coherent()) return RackCheck.na(item, "GPU memory is not system memory on GPUs attached over PCIe: it is reached only through CUDA");
        RackFacts.DriverParams p = in.rack().driverParams();
        String mode = p == null ? null : p.coherentGpuMemoryMode();
        List<RackFacts.GpuNuma> online = in.rack().gpuNuma().stream().filter(RackFacts.GpuNuma::present).toList();
        if ("driver".equals(mode) || (online.isEmpty() && p != null)) {
            // CDMM: by the driver's parameter, or a driver that onlined no GPU's memory
            return RackCheck.of(item, RackVerdict.INFO, "CDMM (driver-managed)" + ("driver".equals(mode) ? "" : ": no GPU's memory is a NUMA node"),
                    "MemTotal is the CPU's memory only; numactl and mbind cannot reach GPU memory, and the kernel never migrates pages into it: CUDA alone places GPU memory, as on PCIe machines (container and pod memory limits count CPU memory only)", "");
        }
        if (online.isEmpty()) return RackCheck.unknown(item, "/proc/driver/nvidia/params could not be read: the NVIDIA driver is not loaded", "");
        List<String> parts = new ArrayList<>();
        List<String> offline = new ArrayList<>();
        for (RackFacts.GpuNuma g : online) {
            parts.add(g.address() + " = node " + (g.node() == null ? "?" : g.node()) + (g.sizeBytes() == null ? "" : " (" + Units.bytes(g.sizeBytes()) + ")"));
            if (g.status() != null && !g.status().equals("online")) offline.add(g.address() + " " + g.status());
        }
        String value = "NUMA: " + String.join(", ", parts);
        if (!offline.isEmpty()) {
            return RackCheck.of(item, RackVerdict.WARN, value + "; not online: " + String.join(", ", offline),
                    "a GPU's memory node is not online: the driver could not online it, and memory-hungry CUDA and NCCL paths that expect it fail or fall back",
                    "check dmesg for the driver's onlining messages; the node needs memory hot-plug (memhp_default_state=online_movable or the driver's auto-online)");
        }
        return RackCheck.of(item, RackVerdict.INFO, value,
                "MemTotal includes the GPUs' memory; numactl --membind and mbind can place pages in it, and the kernel may migrate pages there (keep NUMA balancing off); pod and container memory limits and free -g count it as host memory", "");
    }

    // ---- 6. node roles: every node labelled (a GB200 tray shows ~34 nodes, most empty) ----

    static RackCheck nodeRoles(Inputs in) {
        RackItem item = RackItem.NODE_ROLES;
        List<Topology.NumaNode> nodes = in.machine().topology().numaNodes();
        if (nodes.isEmpty()) return RackCheck.unknown(item, "no NUMA nodes in /sys/devices/system/node (a kernel without NUMA)", "");
        List<String> roles = new ArrayList<>();
        List<Integer> empty = new ArrayList<>();
        for (Topology.NumaNode n : nodes) {
            String role = role(n);
            if (role == null) empty.add(n.id());
            else roles.add(n.id() + ": " + role);
        }
        if (!empty.isEmpty()) roles.add(ids(empty) + ": empty");
        String value = String.join("; ", roles);
        if (empty.isEmpty() && nodes.stream().noneMatch(Topology.NumaNode::gpuMemory)) return RackCheck.ok(item, value, "every node has CPUs and memory");
        return RackCheck.of(item, RackVerdict.INFO, value,
                (nodes.stream().anyMatch(Topology.NumaNode::gpuMemory) ? "GPU-memory nodes have no CPUs: never bind CPUs to them (numactl --cpunodebind fails with EINVAL, vllm#39361); " : "")
                        + (empty.isEmpty() ? "" : "empty nodes are placeholders the firmware declares (for GPU memory partitions or hot-plug) and hold nothing"), "");
    }

    static String role(Topology.NumaNode n) {
        boolean cpus = n.cpus() != null && !n.cpus().isEmpty();
        boolean mem = n.memTotalBytes() != null && n.memTotalBytes() > 0;
        if (n.gpuMemory()) return "GPU memory of " + (n.gpu() == null ? "a GPU" : n.gpu()) + (mem ? " (" + Units.bytes(n.memTotalBytes()) + ")" : "");
        if (cpus && mem) return "CPUs " + n.cpus().toList() + " and " + Units.bytes(n.memTotalBytes());
        if (cpus) return "CPUs " + n.cpus().toList() + ", no memory";
        if (mem) return Units.bytes(n.memTotalBytes()) + ", no CPUs";
        return null;
    }

    /** "2-8, 10" from node ids. */
    static String ids(List<Integer> ids) {
        CpuSet s = CpuSet.EMPTY;
        for (int i : ids) s = s.with(i);
        return s.toList();
    }

    // ---- 7. per-GPU binding line: the GPU's CPU node, never its memory node (vllm#39361) ----

    static RackCheck binding(Inputs in) {
        RackItem item = RackItem.BINDING;
        List<PciDevice> gpus = nvidiaGpus(in);
        if (gpus.isEmpty()) {
            return noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU")
                    : RackCheck.unknown(item, "the GPUs are in the driver's list but not among the PCI devices read: no locality to bind by", "");
        }
        List<Topology.NumaNode> nodes = in.machine().topology().numaNodes();
        // GPUs that share a node share a line: "GPU0, GPU1: numactl ..."
        Map<Integer, List<String>> byNode = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (PciDevice g : gpus) {
            Integer node = cpuNode(g, nodes);
            if (node == null) unknown.add(g.label());
            else byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(g.label() + " (" + g.address() + ")");
        }
        List<String> lines = new ArrayList<>();
        byNode.forEach((node, names) -> {
            CpuSet cpus = nodes.stream().filter(n -> n.id() == node).findFirst().map(Topology.NumaNode::cpus).orElse(CpuSet.EMPTY);
            lines.add(String.join(", ", names) + ": numactl --cpunodebind=" + node + " --membind=" + node + " (or taskset -c " + cpus.toList() + ")");
        });
        if (lines.isEmpty()) {
            return RackCheck.unknown(item, "the kernel gives no NUMA node or local CPUs for " + String.join(", ", unknown) + " (a VM often does not): any node serves", "");
        }
        long cpuNodes = nodes.stream().filter(n -> n.cpus() != null && !n.cpus().isEmpty()).count();
        String why = cpuNodes <= 1 ? "one node with CPUs: binding changes nothing here, and the line is the same on every GPU"
                : "the feeding processes of each GPU (DataLoader workers, the launch thread) and their pinned buffers belong on the GPU's own CPU node; memory is bound to the CPU node, never to a GPU-memory node";
        if (!unknown.isEmpty()) why += "; no locality for " + String.join(", ", unknown);
        return RackCheck.of(item, unknown.isEmpty() ? RackVerdict.OK : RackVerdict.INFO, String.join("; ", lines), why, "");
    }

    /**
     * The CPU-bearing node a GPU's feeders belong on: its PCI numa_node when that node has CPUs;
     * else the node whose CPUs are the GPU's local CPUs (on coherent platforms NVML's NUMA id is
     * the GPU-memory node, which has none); null when the kernel says neither.
     */
    static Integer cpuNode(PciDevice g, List<Topology.NumaNode> nodes) {
        if (g.numaNode() != null) {
            for (Topology.NumaNode n : nodes) if (n.id() == g.numaNode() && !n.gpuMemory() && n.cpus() != null && !n.cpus().isEmpty()) return n.id();
        }
        if (g.localCpus() == null || g.localCpus().isEmpty()) return null;
        List<Topology.NumaNode> cpuNodes = nodes.stream().filter(n -> !n.gpuMemory() && n.cpus() != null && !n.cpus().isEmpty()).toList();
        CpuSet all = CpuSet.EMPTY;
        for (Topology.NumaNode n : cpuNodes) all = all.or(n.cpus());
        // every CPU local on a machine of several nodes says nothing (a VM's answer)
        if (cpuNodes.size() > 1 && g.localCpus().containsAll(all)) return null;
        Integer best = null;
        int most = 0;
        for (Topology.NumaNode n : cpuNodes) {
            int shared = n.cpus().and(g.localCpus()).size();
            if (shared > most) {
                most = shared;
                best = n.id();
            }
        }
        return best;
    }

    private static List<PciDevice> nvidiaGpus(Inputs in) {
        return in.machine().gpus().stream().filter(g -> Platform.NVIDIA.equalsIgnoreCase(g.vendorId())).toList();
    }

    // ---- 8. this process's placement: live only ----

    static RackCheck processPlacement(Inputs in) {
        RackItem item = RackItem.PROCESS_PLACEMENT;
        if (!in.rack().live()) return RackCheck.notRun(item, RECORDED);
        List<PciDevice> gpus = nvidiaGpus(in);
        if (gpus.isEmpty()) return RackCheck.na(item, "no NVIDIA GPU");
        CpuFacts.ProcessCpus p = in.cpu().process();
        if (p == null || p.cpusAllowed() == null) return RackCheck.unknown(item, "/proc/self/status has no Cpus_allowed_list", "");
        List<Topology.NumaNode> nodes = in.machine().topology().numaNodes();
        List<String> far = new ArrayList<>();
        for (PciDevice g : gpus) {
            Integer node = cpuNode(g, nodes);
            if (node == null) continue;
            CpuSet local = nodes.stream().filter(n -> n.id() == node).findFirst().map(Topology.NumaNode::cpus).orElse(CpuSet.EMPTY);
            boolean cpusOk = p.cpusAllowed().intersects(local);
            boolean memOk = p.memsAllowed() == null || p.memsAllowed().contains(node);
            List<String> missing = new ArrayList<>();
            if (!cpusOk) missing.add("none of its CPUs");
            if (!memOk) missing.add("not its memory");
            if (!missing.isEmpty()) far.add(g.label() + " (node " + node + ": " + String.join(" and ", missing) + ")");
        }
        String value = "CPUs " + p.cpusAllowed().toList() + (p.memsAllowed() == null ? "" : ", memory nodes " + p.memsAllowed().toList());
        if (far.isEmpty()) return RackCheck.ok(item, value, "this process may run next to every GPU it measures");
        return RackCheck.of(item, RackVerdict.WARN, value, "measured from the far side for " + String.join(", ", far) + ": host-to-device figures are the cross-node ones",
                "run hostside bound to the GPU's node (the binding item's line)");
    }

    // ---- 9. CPU frequency: cppc_cpufreq + performance on Grace (benchmarking guide) ----

    static RackCheck governor(Inputs in) {
        RackItem item = RackItem.CPU_GOVERNOR;
        CpuFacts.Frequency f = in.cpu().frequency();
        if (f == null || f.governors() == null || f.governors().isEmpty()) {
            return RackCheck.of(item, RackVerdict.INFO, f == null ? "unknown" : f.status(), "no cpufreq: the hypervisor or the firmware sets the clock, and nothing here can change it", "");
        }
        String value = shares(f.governors()) + (f.drivers() == null || f.drivers().isEmpty() ? "" : " (" + shares(f.drivers()) + ")");
        boolean allPerformance = f.governors().stream().allMatch(s -> s.value().equals("performance"));
        if (allPerformance) return RackCheck.ok(item, value, "the clock stays high between bursts: the feeder's latency does not wait for a ramp-up");
        if (in.platform().grace()) {
            return RackCheck.of(item, RackVerdict.WARN, value, "NVIDIA's Grace benchmarking guide runs the performance governor: others ramp the clock up after a burst has started, and launch and copy-submission latencies vary with it",
                    "cpupower frequency-set -g performance");
        }
        boolean hwp = f.drivers() != null && f.drivers().stream().anyMatch(s -> s.value().equals("intel_pstate") || s.value().startsWith("amd-pstate"));
        return RackCheck.of(item, RackVerdict.INFO, value,
                hwp ? "with " + shares(f.drivers()).split(" ")[0] + " the hardware picks the clock within the policy; performance keeps it at the top (less latency variation for launch threads)"
                        : "the clock follows load: a feeder's first microseconds after idle run slower",
                "cpupower frequency-set -g performance, for benchmarks and latency-bound feeders");
    }

    private static String shares(List<CpuFacts.Share> s) {
        if (s.size() == 1) return s.get(0).value();
        List<String> parts = new ArrayList<>();
        for (CpuFacts.Share x : s) parts.add(x.value() + " on " + x.cpus().toList());
        return String.join(", ", parts);
    }

    // ---- 10. power meter cap: acpi_power_meter.force_cap_on=y on Grace servers ----

    static RackCheck powerMeterCap(Inputs in) {
        RackItem item = RackItem.POWER_METER_CAP;
        if (!in.platform().grace()) return RackCheck.na(item, "a Grace server setting (NVIDIA's Grace benchmarking guide)");
        String v = cmdline(in, "acpi_power_meter.force_cap_on");
        if (v != null && (v.equals("y") || v.equals("1"))) return RackCheck.ok(item, "acpi_power_meter.force_cap_on=" + v, "the power meter's cap is exposed, so the platform's power limit is managed as the guide expects");
        return RackCheck.of(item, RackVerdict.INFO, v == null ? "not on the command line" : "acpi_power_meter.force_cap_on=" + v,
                "NVIDIA's Grace benchmarking guide boots with acpi_power_meter.force_cap_on=y: without it the kernel does not expose the power meter's cap, and the platform's power capping is not managed from the OS",
                "acpi_power_meter.force_cap_on=y on the kernel command line");
    }

    // ---- 11. IOMMU: arm-smmu-v3 before 6.11 with passthrough breaks ATS/SVA ----

    static RackCheck iommu(Inputs in) {
        RackItem item = RackItem.IOMMU;
        var io = in.machine().iommu();
        if (io == null) return RackCheck.unknown(item, "no IOMMU reading", "");
        String value = io.state() + (io.cmdline().isEmpty() ? "" : " (" + String.join(" ", io.cmdline()) + ")");
        if (in.platform().grace()) {
            boolean pt = io.cmdline().contains("iommu.passthrough=1") || io.cmdline().contains("iommu.passthrough=on") || "passthrough".equals(io.state());
            int[] v = kernel(in);
            if (pt && v != null && (v[0] < 6 || (v[0] == 6 && v[1] < 11))) {
                // info, not warn: the caveat is from this project's research notes (design/rack.md,
                // item 11), not yet confirmed against the kernel's history; it is worth a look, not an alarm
                return RackCheck.of(item, RackVerdict.INFO, value + ", kernel " + v[0] + "." + v[1],
                        "reported for arm-smmu-v3 before Linux 6.11: passthrough (identity) domains leave ATS and SVA off for devices; if a GPU's coherent access to pageable memory or SVA fails, this is a suspect",
                        "a kernel of 6.11 or later, or drop iommu.passthrough=1 where the platform's guide allows");
            }
            return RackCheck.ok(item, value, "no known conflict with ATS on this kernel");
        }
        return switch (io.state()) {
            case "translating" -> RackCheck.of(item, RackVerdict.INFO, value, "every GPU and NIC DMA is translated: pinning large buffers costs IOMMU mappings, and some P2P paths need ACS settings", "iommu=pt (passthrough) where isolation between devices is not needed");
            case "off", "passthrough" -> RackCheck.ok(item, value, "device DMA uses physical addresses: no translation cost for copies");
            default -> RackCheck.of(item, RackVerdict.INFO, value, io.evidence(), "");
        };
    }

    // ---- 12. PCI runtime power: power/control=on for GPUs and NICs (benchmarking guide) ----

    static RackCheck pciPower(Inputs in) {
        RackItem item = RackItem.PCI_POWER;
        Map<String, String> p = in.rack().pciPower();
        List<PciDevice> devices = in.machine().pci().stream().filter(d -> d.isGpu() || d.isNic()).toList();
        if (devices.isEmpty()) return RackCheck.na(item, "no GPU or NIC");
        if (p.isEmpty()) return RackCheck.unknown(item, "no power/control file for any GPU or NIC (a VM's devices often have none)", "");
        Map<String, List<String>> by = new TreeMap<>();
        for (PciDevice d : devices) by.computeIfAbsent(p.getOrDefault(d.address(), "unreadable"), k -> new ArrayList<>()).add(d.label());
        List<String> parts = new ArrayList<>();
        by.forEach((v, names) -> parts.add(v + ": " + hostside.core.Finding.some(names)));
        String value = String.join("; ", parts);
        List<String> auto = by.getOrDefault("auto", List.of());
        if (auto.isEmpty()) return RackCheck.ok(item, value, "runtime power management cannot suspend them between uses");
        return RackCheck.of(item, in.platform().grace() ? RackVerdict.WARN : RackVerdict.INFO, value,
                "runtime power management may suspend " + hostside.core.Finding.some(auto) + " when idle: the first access after that waits for the wake-up" + (in.platform().grace() ? "; NVIDIA's Grace benchmarking guide sets every PCI device to on" : ""),
                "for d in /sys/bus/pci/devices/*/power/control; do echo on > $d; done (a udev rule keeps it)");
    }

    // ---- 16. fabric manager: HGX boards with NVSwitches need it; GB200 trays do not run it ----

    static RackCheck fabricManager(Inputs in) {
        RackItem item = RackItem.FABRIC_MANAGER;
        RackFacts.FabricManager fm = in.rack().fabricManager();
        if (in.platform().nvlinkRack()) return RackCheck.na(item, "on GB200 and GB300 racks the fabric is managed from the NVLink switch trays (NVOS), not from compute trays: starting it here does nothing (gpu-operator#610)");
        if (fm.nvswitches().isEmpty()) return RackCheck.na(item, "no NVSwitch on this host's PCI bus: there is no NVLink fabric to manage");
        String value = fm.nvswitches().size() + " NVSwitches; unit " + (fm.unit().isEmpty() ? "not installed" : fm.enabled() ? "enabled" : "installed, not enabled")
                + (fm.daemon() == null ? "" : fm.daemon() ? ", running" : ", not running");
        String fix = "install nvidia-fabricmanager of exactly the driver's version, then systemctl enable --now nvidia-fabricmanager";
        if (fm.unit().isEmpty() && !fm.enabled()) {
            return RackCheck.of(item, RackVerdict.WARN, value, "NVSwitch boards need the fabric manager before CUDA can start: without it cuInit fails with 802 \"system not yet initialized\" (pytorch#35710)", fix);
        }
        if (Boolean.FALSE.equals(fm.daemon())) {
            return RackCheck.of(item, RackVerdict.WARN, value, "the unit is there but no nv-fabricmanager process runs: CUDA fails with 802 until it does, and the fabric state of every GPU stays \"in progress\" (NVSentinel#889: down 20 days unnoticed)", "systemctl start nvidia-fabricmanager; journalctl -u nvidia-fabricmanager for why it stopped");
        }
        if (fm.daemon() == null) return RackCheck.of(item, fm.enabled() ? RackVerdict.OK : RackVerdict.INFO, value, "whether it runs needs a live machine; the GPUs' fabric state says whether it finished", fm.enabled() ? "" : fix);
        return RackCheck.ok(item, value, "the NVSwitch fabric has its manager");
    }

    // ---- 17. IMEX: context-aware (the IMEX guide; NVIDIA/aicr#2641, NVSentinel#1471) ----

    static RackCheck imex(Inputs in) {
        RackItem item = RackItem.IMEX;
        if (!in.platform().nvlinkRack()) {
            return RackCheck.na(item, noGpu(in) ? "no NVIDIA GPU" : "IMEX shares memory across the nodes of a multi-node NVLink domain (NVL72 racks): this is not one");
        }
        RackFacts.Imex x = in.rack().imex();
        RackFacts.DriverParams p = in.rack().driverParams();
        List<String> parts = new ArrayList<>();
        parts.add(x.major() == null ? "no channel device class" : "channel class major " + x.major());
        if (x.channels() != null) parts.add(x.channels().isEmpty() ? "no channel files" : "channels " + String.join(", ", x.channels()));
        if (p != null && p.createImexChannel0() != null) parts.add("CreateImexChannel0=" + p.createImexChannel0());
        parts.add((x.config() ? "config.cfg" : "no config.cfg") + ", " + (x.nodesConfig() ? "nodes_config.cfg" : "no nodes_config.cfg"));
        if (x.daemon() != null) parts.add(x.daemon() ? "nvidia-imex running" : "nvidia-imex not running");
        String value = String.join("; ", parts);
        if (x.major() == null) {
            return RackCheck.of(item, RackVerdict.WARN, value, "the driver registers no IMEX channel device: fabric handles cannot be shared across nodes (drivers before R550, or IMEX support not built)", "a driver of R550 or later");
        }
        boolean channel0 = x.channels() != null && x.channels().contains("channel0");
        boolean made = p != null && Integer.valueOf(1).equals(p.createImexChannel0());
        if (Boolean.FALSE.equals(x.daemon())) {
            return RackCheck.of(item, RackVerdict.INFO, value,
                    "no IMEX daemon runs: normal between jobs where a job's prolog or a Kubernetes ComputeDomain starts it; a job that exports fabric handles needs it (the readiness item tries)", "");
        }
        if (x.channels() != null && !channel0 && !made) {
            return RackCheck.of(item, RackVerdict.INFO, value,
                    "no channel0 and the driver does not create it: a job that allocates fabric memory gets CUDA_ERROR_NOT_PERMITTED unless its prolog creates a channel (the channels are not made by default and do not survive a reboot)",
                    "nvidia-modprobe -i 0:1 in the job's prolog, or NVreg_CreateImexChannel0=1 for single-tenant nodes");
        }
        return RackCheck.of(item, x.daemon() == null ? RackVerdict.INFO : RackVerdict.OK, value,
                x.daemon() == null ? "whether the daemon runs and the domain is up needs a live machine (nvidia-imex-ctl -N)" : "a channel and a running daemon: fabric handles can be exported", "");
    }

    // ---- 20. GPUDirect RDMA: nvidia_peermem or dma-buf; NCCL_NET_GDR_LEVEL=SYS on Grace (nccl#1579) ----

    static RackCheck gpuDirect(Inputs in) {
        RackItem item = RackItem.GPUDIRECT;
        if (noGpu(in)) return RackCheck.na(item, "no NVIDIA GPU");
        List<PciDevice> rdma = in.machine().nics().stream().filter(PciDevice::rdma).toList();
        if (rdma.isEmpty()) return RackCheck.na(item, "no RDMA NIC: GPUDirect RDMA needs an InfiniBand or RoCE device");
        String names = hostside.core.Finding.some(rdma.stream().map(PciDevice::label).toList());
        String mod = in.rack().peermem();
        String value = rdma.size() + " RDMA NIC" + (rdma.size() == 1 ? "" : "s") + " (" + names + "); " + (mod == null ? "no nvidia_peermem" : mod + " loaded");
        String grace = in.platform().grace() ? "; on Grace NCCL reaches the NIC through the CPU unless told: NCCL_NET_GDR_LEVEL=SYS gave 13-20% more (nccl#1579)" : "";
        if (mod != null) return RackCheck.of(item, in.platform().grace() ? RackVerdict.INFO : RackVerdict.OK, value, "NICs can DMA straight into GPU memory" + grace, in.platform().grace() ? "export NCCL_NET_GDR_LEVEL=SYS for NCCL jobs" : "");
        return RackCheck.of(item, RackVerdict.INFO, value,
                "without nvidia_peermem, GPUDirect RDMA needs the dma-buf path (open kernel modules, Linux 5.12 or later, a NCCL and NIC stack that use it); otherwise NCCL stages through host memory" + grace,
                "modprobe nvidia_peermem, where the dma-buf path is not in use");
    }

    // ---- 22. CPU memory bandwidth: STREAM Triad against the Grace benchmarking guide's lower bounds ----

    /**
     * The guide's reference results (NVIDIA/grace-cpu-benchmarking-guide, src/foundations/STREAM,
     * commit 3474928): Triad with every core, lower bound per Grace by its memory capacity. Grace
     * Hopper 120 GB: 410 GB/s; Grace Hopper 480 GB: 288 GB/s; Grace CPU superchip 240 or 480 GB (120
     * or 240 GB a Grace): 820 GB/s for two, 410 each. No GB200 row: a GB200 Grace (480 GB) is judged
     * against the 480 GB row and said so.
     *
     * @return the floor in GB/s for one Grace of that capacity, 0 when the guide has no row for it
     */
    static double graceFloor(long memoryBytes) {
        double gb = memoryBytes / 1e9;
        if (gb >= 90 && gb <= 260) return 410;
        if (gb >= 380 && gb <= 520) return 288;
        return 0;
    }

    static RackCheck memoryBandwidth(Inputs in) {
        RackItem item = RackItem.MEMORY_BANDWIDTH;
        MemoryDrill.MemorySection m = in.memory();
        if (!in.rack().live()) return RackCheck.notRun(item, RECORDED);
        if (m == null || !m.notRun().isEmpty()) return RackCheck.notRun(item, m == null ? "not measured in this run" : m.notRun());
        List<MemoryDrill.Measured> triads = m.results().stream()
                .filter(x -> x.result().key().equals(MemoryCases.TRIAD) && x.result().isOk()).toList();
        if (triads.isEmpty()) {
            String why = m.results().stream().filter(x -> x.result().key().equals(MemoryCases.TRIAD)).map(x -> x.result().status() + ": " + x.result().why()).findFirst().orElse("no triad ran");
            return RackCheck.notRun(item, why);
        }
        List<Topology.NumaNode> nodes = in.machine().topology().numaNodes();
        // per Grace: the node's triad where the drill ran one per node; on one node the machine's
        List<String> parts = new ArrayList<>();
        List<String> below = new ArrayList<>();
        List<String> atFloor = new ArrayList<>();
        for (MemoryDrill.Measured x : triads) {
            hostside.core.Stats v = x.result().value();
            boolean perNode = x.scope().kind() == hostside.core.Scope.Kind.NODE;
            if (!perNode && triads.stream().anyMatch(t -> t.scope().kind() == hostside.core.Scope.Kind.NODE) && in.platform().grace()) continue;
            String label = perNode ? "node " + x.scope().id() : "every CPU";
            parts.add(label + " " + Units.withRange(v.median(), v.min(), v.max()) + " GB/s");
            if (!in.platform().grace()) continue;
            Long mem = perNode ? nodes.stream().filter(n -> String.valueOf(n.id()).equals(x.scope().id())).findFirst().map(Topology.NumaNode::memTotalBytes).orElse(null)
                    : nodes.stream().filter(n -> !n.gpuMemory() && n.memTotalBytes() != null).mapToLong(Topology.NumaNode::memTotalBytes).sum();
            double floor = mem == null ? 0 : graceFloor(mem);
            if (floor == 0) continue;
            String f = label + " (" + Units.bytes(mem) + "): the guide's lower bound " + (int) floor + " GB/s";
            if (v.max() < floor) below.add(f);
            else if (v.median() < floor) atFloor.add(f);
        }
        String value = String.join("; ", parts);
        if (!in.platform().grace()) {
            long gpus = nvidiaGpus(in).size();
            double all = triads.stream().filter(t -> t.scope().kind() == hostside.core.Scope.Kind.MACHINE).mapToDouble(t -> t.result().value().median()).max().orElse(0);
            String per = gpus > 0 && all > 0 ? String.format(java.util.Locale.ROOT, "; %.0f GB/s per GPU for its DataLoader, pinned staging and offload", all / gpus) : "";
            return RackCheck.of(item, RackVerdict.INFO, value, "STREAM Triad with every CPU" + per + "; NVIDIA publishes lower bounds for Grace only", "");
        }
        String gb200 = in.platform().kind() == Platform.Kind.GRACE_BLACKWELL ? " (the guide has no GB200 row: judged by the Grace Hopper row of the same capacity)" : "";
        if (!below.isEmpty()) {
            return RackCheck.of(item, RackVerdict.WARN, value, "below " + String.join("; ", below) + gb200 + " even at its best sample: CPU-side loaders and offload get less memory bandwidth than this platform should give",
                    "check that every memory channel is populated and at speed (dmidecode -t memory), the firmware's memory settings, and that nothing else ran meanwhile; then rerun");
        }
        if (!atFloor.isEmpty()) return RackCheck.of(item, RackVerdict.INFO, value, "the median is under " + String.join("; ", atFloor) + gb200 + ", the best sample above it: at the floor, within noise", "rerun on an idle machine");
        return RackCheck.ok(item, value, "at or above the lower bound of NVIDIA's Grace benchmarking guide for this memory capacity" + gb200);
    }

    // ---- 21. failure domain: what the GPUs of this host share; tray and slot come from NVML ----

    static final String FAILURE_WHY = "GPUs that share a tray, a CPU node or a NIC fail, stall and are serviced together: a bad tray shrinks the NVLink clique, a busy Grace or NIC slows every GPU behind it";

    /**
     * @param positions one "GPU0: chassis ..., tray 3, slot 2" per GPU NVML placed; empty when none
     * @param noPosition what to say when {@code positions} is empty
     */
    static RackCheck failureDomain(MachineFacts machine, List<String> positions, String noPosition) {
        List<String> parts = new ArrayList<>(positions);
        if (positions.isEmpty()) parts.add(noPosition);
        parts.addAll(sharing(machine));
        return RackCheck.of(RackItem.FAILURE_DOMAIN, RackVerdict.INFO, String.join("; ", parts), FAILURE_WHY
                + (positions.isEmpty() ? "" : "; the chassis is shown by a hash of its serial number, never the number itself"), "");
    }

    /**
     * Which GPUs share a CPU node and which share their nearest NIC (one PCIe switch or a few,
     * nvidia-smi topo's PIX and PXB), from sysfs: a recording answers it.
     */
    static List<String> sharing(MachineFacts machine) {
        List<PciDevice> gpus = machine.gpus().stream().filter(g -> Platform.NVIDIA.equalsIgnoreCase(g.vendorId())).toList();
        List<Topology.NumaNode> nodes = machine.topology().numaNodes();
        Map<String, List<String>> byNode = new java.util.TreeMap<>();
        for (PciDevice g : gpus) {
            Integer n = cpuNode(g, nodes);
            if (n != null) byNode.computeIfAbsent("node " + n, k -> new ArrayList<>()).add(g.label());
        }
        Map<String, List<String>> byNic = new java.util.LinkedHashMap<>();
        var a = machine.affinity();
        if (a != null) {
            int gpuCount = (int) machine.gpus().size();
            for (int i = 0; i < Math.min(gpuCount, a.devices().size()); i++) {
                String gpu = a.devices().get(i);
                if (gpus.stream().noneMatch(g -> g.label().equals(gpu))) continue;
                for (int j = gpuCount; j < a.devices().size(); j++) {
                    String level = a.matrix().get(i).get(j);
                    if (level.equals("PIX") || level.equals("PXB")) byNic.computeIfAbsent(a.devices().get(j), k -> new ArrayList<>()).add(gpu);
                }
            }
        }
        List<String> out = new ArrayList<>();
        byNode.forEach((n, g) -> {
            if (g.size() > 1) out.add(String.join(", ", g) + " share " + n);
        });
        // NICs with the same GPUs behind them say one thing: "GPU0, GPU1 share mlx5_0, mlx5_1"
        Map<List<String>, List<String>> nicsByGpus = new java.util.LinkedHashMap<>();
        byNic.forEach((nic, g) -> nicsByGpus.computeIfAbsent(g, k -> new ArrayList<>()).add(nic));
        nicsByGpus.forEach((g, nics) -> {
            if (g.size() > 1) out.add(String.join(", ", g) + " share " + String.join(", ", nics) + " next to them");
        });
        long own = nicsByGpus.keySet().stream().filter(g -> g.size() == 1).count();
        if (own > 0 && own == gpus.size()) out.add("each GPU has a NIC of its own next to it");
        if (out.isEmpty()) out.add(gpus.size() <= 1 ? "one GPU" : "no CPU node or NIC shared by several GPUs");
        return out;
    }

    // ---- helpers ----

    /** The value of a kernel command line key ("" for a bare flag), null when absent; init's part after "--" excluded. */
    static String cmdline(Inputs in, String key) {
        String v = null;
        for (var i : in.machine().kernelCmdline()) {
            String t = i.text();
            if (t.equals(key)) v = "";
            else if (t.startsWith(key + "=")) v = t.substring(key.length() + 1);
        }
        return v;
    }

    /** {major, minor} of the running kernel; null when its release does not parse. */
    static int[] kernel(Inputs in) {
        CpuFacts.Kernel k = in.cpu() == null ? null : in.cpu().kernel();
        if (k == null || k.major() == null || k.minor() == null) return null;
        return new int[] {k.major(), k.minor()};
    }

    /** Count of checks by verdict, in the verdicts' order: the summary line. */
    public static Map<RackVerdict, Integer> counts(List<RackCheck> checks) {
        Map<RackVerdict, Integer> m = new LinkedHashMap<>();
        for (RackVerdict v : RackVerdict.values()) {
            int n = (int) checks.stream().filter(c -> c.verdict() == v).count();
            if (n > 0) m.put(v, n);
        }
        return m;
    }
}
