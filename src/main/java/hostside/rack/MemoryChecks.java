package hostside.rack;

import java.util.ArrayList;
import java.util.List;

import hostside.core.CpuSet;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Units;
import hostside.machine.MemoryDrill;
import hostside.machine.Topology;
import hostside.memory.MemoryCases;
import hostside.rack.RackChecklist.Inputs;
import hostside.vm.facts.VmFacts;

/**
 * The rack checklist's memory items: base page size, THP, init_on_alloc, NUMA balancing, GPU
 * memory as NUMA nodes or CDMM, node roles, and CPU memory bandwidth against the Grace floors.
 */
final class MemoryChecks {
    private MemoryChecks() {}

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
        if (pmd != null && pmd >= 512 * RackChecklist.MIB) {
            if (mode.equals("always")) {
                return RackCheck.of(item, RackVerdict.WARN, value, "with 64 KiB base pages a transparent huge page is 512 MiB: 'always' gives them to every large anonymous mapping, and resident memory balloons (jemalloc#1803); the Grace tuning guide calls them too large for most applications",
                        "transparent_hugepage=madvise on the kernel command line (or echo madvise > /sys/kernel/mm/transparent_hugepage/enabled)");
            }
            if (mode.equals("madvise")) return RackCheck.ok(item, value, "only mappings that ask get 512 MiB pages, as recommended with 64 KiB base pages");
            return RackCheck.ok(item, value, "no 512 MiB pages: the 64 KiB base pages already give the TLB its reach");
        }
        return switch (mode) {
            case "always", "madvise" -> RackCheck.ok(item, value, mode.equals("always") ? "large buffers get huge pages without asking" : "huge pages for mappings that ask (PyTorch's CPU allocator asks only with THP_MEM_ALLOC_ENABLE=1)");
            default -> RackCheck.of(item, RackVerdict.INFO, value, "no huge pages: a pinned or staged buffer faults and pins 4 KiB at a time", "transparent_hugepage=madvise");
        };
    }

    // ---- 3. init_on_alloc: the Grace benchmarking guide boots with init_on_alloc=0 (a benchmark setting: info, never warn) ----

    static RackCheck initOnAlloc(Inputs in) {
        RackItem item = RackItem.INIT_ON_ALLOC;
        String v = RackChecklist.cmdline(in, "init_on_alloc");
        String fix = "init_on_alloc=0 on the kernel command line";
        if (v == null) {
            return RackCheck.of(item, RackVerdict.UNKNOWN, "not on the command line",
                    "the kernel's build option decides (CONFIG_INIT_ON_ALLOC_DEFAULT_ON, on in Ubuntu's kernels): then every page is zeroed when allocated, and first touch and pinning of large buffers cost more; the boot log's \"mem auto-init: ... heap alloc:on\" says it is on",
                    in.platform().grace() ? fix + " (as NVIDIA's Grace benchmarking guide boots)" : fix);
        }
        if (v.equals("0")) return RackCheck.ok(item, "init_on_alloc=0", "pages are not zeroed twice on allocation");
        // info, not warn, on Grace too: the guide gives init_on_alloc=0 as a benchmark setting that "may affect system security"
        return RackCheck.of(item, RackVerdict.INFO, "init_on_alloc=" + v,
                "every page is zeroed when allocated: first touch and pinning of large buffers cost more" + (in.platform().grace() ? "; NVIDIA's Grace benchmarking guide boots with init_on_alloc=0 for benchmarks, a setting it says may affect security" : ""), fix);
    }

    // ---- 4. NUMA balancing: off (DeepEP#624: task_numa_work stalls of 8-31 ms) ----

    static RackCheck numaBalancing(Inputs in) {
        RackItem item = RackItem.NUMA_BALANCING;
        Integer v = in.vm().sysctl() == null ? null : in.vm().sysctl().numaBalancing();
        String cmd = RackChecklist.cmdline(in, "numa_balancing");
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
        if (n.memTotalBytes() == null) return (cpus ? "CPUs " + n.cpus().toList() + ", " : "") + "memory of unknown size";
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
        if (!in.rack().live()) return RackCheck.notRun(item, RackChecklist.RECORDED);
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
            Stats v = x.result().value();
            boolean perNode = x.scope().kind() == Scope.Kind.NODE;
            if (!perNode && triads.stream().anyMatch(t -> t.scope().kind() == Scope.Kind.NODE) && in.platform().grace()) continue;
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
            long gpus = RackChecklist.nvidiaGpus(in).size();
            double all = triads.stream().filter(t -> t.scope().kind() == Scope.Kind.MACHINE).mapToDouble(t -> t.result().value().median()).max().orElse(0);
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

}
