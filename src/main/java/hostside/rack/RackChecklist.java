package hostside.rack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.cpu.facts.CpuFacts;
import hostside.machine.MachineFacts;
import hostside.machine.MemoryDrill;
import hostside.machine.PciDevice;
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
            case BASE_PAGE_SIZE -> MemoryChecks.basePageSize(in);
            case THP -> MemoryChecks.thp(in);
            case INIT_ON_ALLOC -> MemoryChecks.initOnAlloc(in);
            case NUMA_BALANCING -> MemoryChecks.numaBalancing(in);
            case GPU_MEMORY_MODE -> MemoryChecks.gpuMemoryMode(in);
            case NODE_ROLES -> MemoryChecks.nodeRoles(in);
            case BINDING -> PlacementChecks.binding(in);
            case PROCESS_PLACEMENT -> PlacementChecks.processPlacement(in);
            case CPU_GOVERNOR -> HostChecks.governor(in);
            case POWER_METER_CAP -> HostChecks.powerMeterCap(in);
            case IOMMU -> HostChecks.iommu(in);
            case PCI_POWER -> HostChecks.pciPower(in);
            case FABRIC_MANAGER -> FabricChecks.fabricManager(in);
            case IMEX -> FabricChecks.imex(in);
            case GPUDIRECT -> FabricChecks.gpuDirect(in);
            case C2C_LINK -> in.platform().c2c() ? liveOnly(item, in)
                    : RackCheck.na(item, in.platform().coherent() ? "not NVLink-C2C: this platform's coherent CPU-GPU link is another" : "no NVLink-C2C: host memory reaches the GPUs over PCIe");
            case FABRIC_STATE, FABRIC_READINESS, NVLS -> noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU") : liveOnly(item, in);
            case MEMORY_BANDWIDTH -> MemoryChecks.memoryBandwidth(in);
            case PERSISTENCE -> noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU") : liveOnly(item, in);
            case FAILURE_DOMAIN -> noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU")
                    : PlacementChecks.failureDomain(in.machine(), List.of(), in.rack().live() ? "NVML did not give the rack position" : "tray and slot: " + RECORDED);
        };
    }

    /** The NVIDIA GPUs among the PCI devices. */
    static List<PciDevice> nvidiaGpus(Inputs in) {
        return in.machine().gpus().stream().filter(g -> Platform.NVIDIA.equalsIgnoreCase(g.vendorId())).toList();
    }

    static boolean noGpu(Inputs in) {
        return in.platform().kind() == Platform.Kind.NO_GPU;
    }

    private static RackCheck liveOnly(RackItem item, Inputs in) {
        return RackCheck.notRun(item, in.rack().live() ? "not measured in this run" : RECORDED);
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
