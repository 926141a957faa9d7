package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlStructs.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import hostside.core.CpuSet;

/**
 * Reads {@link NvmlFacts}: the entry the rest of hostside calls ({@code NvmlReader.read()}).
 * It never throws for the machine's sake: each field NVML cannot give, for whatever reason,
 * becomes null plus a line in that GPU's {@code unknowns}, and the read goes on.
 */
public final class NvmlReader {
    /**
     * Longs for nvmlDeviceGetCpuAffinity: 64 CPUs each, 4096 CPUs in all. NVML fills what
     * it has and the rest stays zero; a machine with more CPUs than this would lose the top ones.
     */
    static final int CPU_SET_LONGS = 64;
    /**
     * Safety stop for the NVLink loop, far above any release's maximum (18 in the 580 header);
     * the loop's real end is NVML saying invalid argument.
     */
    static final int NVLINK_GUARD = 64;

    private NvmlReader() {}

    /** Reads from the library {@link Nvml#defaultLibrary()} names (the system property, else libnvidia-ml.so.1). */
    public static NvmlFacts read() {
        return read(Nvml.defaultLibrary());
    }

    /** Opens {@code library}, reads, shuts NVML down. */
    public static NvmlFacts read(String library) {
        return Nvml.readOnce(library, NvmlReader::read, no -> NvmlFacts.notRun(library, no.why()),
                (facts, e) -> facts.withUnknown("shutdown: " + e.getMessage()));
    }

    /** Reads from an open binding (which stays open). */
    public static NvmlFacts read(Nvml nvml) {
        Unknowns system = new Unknowns();
        String driver = system.get("driverVersion",
                () -> nvml.getString(SYSTEM_GET_DRIVER_VERSION, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE));
        String nvmlVersion = system.get("nvmlVersion",
                () -> nvml.getString(SYSTEM_GET_NVML_VERSION, NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE));
        // 13000 -> "13.0", as NVML_CUDA_DRIVER_VERSION_MAJOR/MINOR do
        String cuda = system.get("cudaDriverVersion",
                () -> nvml.getInt(SYSTEM_GET_CUDA_DRIVER_VERSION_V2).map(v -> v / 1000 + "." + v % 1000 / 10));
        Integer count = system.get("gpuCount", () -> nvml.getInt(DEVICE_GET_COUNT_V2));

        String notRun = null;
        List<NvmlGpu> gpus = new ArrayList<>();
        if (count == null) {
            notRun = "NVML cannot count the GPUs (" + system.list.getLast() + ")";
        } else if (count == 0) {
            notRun = "no NVIDIA GPU (NVML counts 0)";
        } else {
            for (int i = 0; i < count; i++) gpus.add(gpu(nvml, i));
        }
        return new NvmlFacts(nvml.library(), notRun, driver, nvmlVersion, cuda, gpus, p2p(nvml, gpus), system.list);
    }

    /**
     * nvmlDeviceGetP2PStatus for every ordered pair of GPUs and each capability nvidia-smi topo -p2p
     * shows. A GPU and itself are not asked (the driver says NOT_SUPPORTED; nvidia-smi prints X).
     */
    static List<NvmlP2p> p2p(Nvml nvml, List<NvmlGpu> gpus) {
        List<NvmlP2p> out = new ArrayList<>();
        if (gpus.size() < 2) return out;
        List<MemorySegment> handles = new ArrayList<>();
        for (NvmlGpu g : gpus) handles.add(nvml.device(g.index()) instanceof NvmlResult.Known<MemorySegment>(MemorySegment h) ? h : null);
        for (int a = 0; a < gpus.size(); a++) {
            for (int b = 0; b < gpus.size(); b++) {
                MemorySegment x = handles.get(a), y = handles.get(b);
                if (a == b || x == null || y == null) continue;
                java.util.Map<String, String> status = new java.util.LinkedHashMap<>();
                Unknowns u = new Unknowns();
                for (var cap : NvmlP2p.CAPABILITIES) {
                    Integer s = u.get(cap.getKey(), () -> nvml.getInt(DEVICE_GET_P2P_STATUS, x, y, cap.getValue()));
                    if (s != null) status.put(cap.getKey(), NvmlP2p.word(s));
                }
                out.add(new NvmlP2p(gpus.get(a).index(), gpus.get(b).index(), gpus.get(a).pciBusId(), gpus.get(b).pciBusId(), status, u.list));
            }
        }
        return out;
    }

    /** Every per-GPU fact, each read on its own so that one failure costs one field. */
    static NvmlGpu gpu(Nvml nvml, int index) {
        Unknowns u = new Unknowns();
        MemorySegment dev = u.get("handle", () -> nvml.device(index));
        if (dev == null) return NvmlGpu.unreadable(index, u.list);

        String name = u.get("name", () -> nvml.getString(DEVICE_GET_NAME, NVML_DEVICE_NAME_V2_BUFFER_SIZE, dev));
        String uuid = u.get("uuid", () -> nvml.getString(DEVICE_GET_UUID, NVML_DEVICE_UUID_V2_BUFFER_SIZE, dev));
        String busId = u.get("pciBusId", () -> pciBusId(nvml, DEVICE_GET_PCI_INFO_V3, dev));
        Integer gen = u.get("pcieGen", () -> nvml.getInt(DEVICE_GET_CURR_PCIE_LINK_GENERATION, dev));
        Integer width = u.get("pcieWidth", () -> nvml.getInt(DEVICE_GET_CURR_PCIE_LINK_WIDTH, dev));
        Integer maxGen = u.get("pcieMaxGen", () -> nvml.getInt(DEVICE_GET_MAX_PCIE_LINK_GENERATION, dev));
        Integer maxWidth = u.get("pcieMaxWidth", () -> nvml.getInt(DEVICE_GET_MAX_PCIE_LINK_WIDTH, dev));
        Integer gpuMaxGen = u.get("pcieGpuMaxGen", () -> nvml.getInt(DEVICE_GET_GPU_MAX_PCIE_LINK_GENERATION, dev));
        Integer numa = u.get("numaNode", () -> nvml.getInt(DEVICE_GET_NUMA_NODE_ID, dev));
        CpuSet cpus = u.get("cpuAffinity", () -> cpuAffinity(nvml, dev));
        Boolean persistence = u.get("persistenceMode",
                () -> nvml.getInt(DEVICE_GET_PERSISTENCE_MODE, dev).map(v -> v == NVML_FEATURE_ENABLED));
        Integer sm = u.get("smClockMhz", () -> nvml.getInt(DEVICE_GET_CLOCK_INFO, dev, NVML_CLOCK_SM));
        Integer smMax = u.get("smClockMaxMhz", () -> nvml.getInt(DEVICE_GET_MAX_CLOCK_INFO, dev, NVML_CLOCK_SM));
        Integer mem = u.get("memClockMhz", () -> nvml.getInt(DEVICE_GET_CLOCK_INFO, dev, NVML_CLOCK_MEM));
        Integer memMax = u.get("memClockMaxMhz", () -> nvml.getInt(DEVICE_GET_MAX_CLOCK_INFO, dev, NVML_CLOCK_MEM));
        int[] ecc = u.get("eccEnabled", () -> nvml.getInts(DEVICE_GET_ECC_MODE, 2, dev));
        Long memory = u.get("memoryTotalBytes", () -> memoryTotal(nvml, dev));
        List<NvmlGpu.NvLink> links = nvLinks(nvml, dev, u);
        missingLinkCalls(nvml, links, u);
        NvmlGpu.Fabric fabric = u.get("fabric", () -> NvmlRackReader.fabric(nvml, dev, u));
        String addressing = u.get("addressingMode", () -> addressingMode(nvml, dev));
        int[] mig = u.get("migEnabled", () -> nvml.getInts(DEVICE_GET_MIG_MODE, 2, dev));
        NvmlGpu.ClockPolicy clocks = ClockPolicyReader.read(nvml, dev, u);
        NvmlGpu.Platform platform = u.get("platform", () -> NvmlRackReader.platform(nvml, dev));
        NvmlGpu.C2c c2c = u.get("c2c", () -> NvmlRackReader.c2c(nvml, dev, u));

        return new NvmlGpu(index, name, uuid, busId, gen, width, maxGen, maxWidth, gpuMaxGen, numa, cpus, persistence,
                sm, smMax, mem, memMax,
                ecc == null ? null : ecc[0] == NVML_FEATURE_ENABLED, ecc == null ? null : ecc[1] == NVML_FEATURE_ENABLED,
                memory, links, fabric, addressing,
                mig == null ? null : mig[0] == NVML_DEVICE_MIG_ENABLE, mig == null ? null : mig[1] == NVML_DEVICE_MIG_ENABLE,
                clocks, platform, c2c, u.list);
    }

    /** f(device, nvmlPciInfo_t *), or with a link number between them, to the sysfs bus id. */
    static NvmlResult<String> pciBusId(Nvml nvml, NvmlFunction f, Object... leading) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pci = arena.allocate(nvmlPciInfo_t);
            Object[] args = java.util.Arrays.copyOf(leading, leading.length + 1);
            args[leading.length] = pci;
            return nvml.query(f, () -> sysfsBusId(
                    pci.getString(offset(nvmlPciInfo_t, "busId")),
                    pci.get(JAVA_INT, offset(nvmlPciInfo_t, "domain")),
                    pci.get(JAVA_INT, offset(nvmlPciInfo_t, "bus")),
                    pci.get(JAVA_INT, offset(nvmlPciInfo_t, "device"))), args);
        }
    }

    private static final Pattern BUS_ID = Pattern.compile("([0-9a-fA-F]{1,8}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\\.([0-7])");

    /**
     * NVML's "00000000:00:06.0" (NVML_DEVICE_PCI_BUS_ID_FMT, a 32-bit domain, upper case) in the
     * kernel's spelling "0000:00:06.0" (%04x domain, lower case), so it joins /sys facts. When
     * the string is not a bus id, the numeric fields build one (function 0, as NVML's own format).
     */
    static String sysfsBusId(String nvmlBusId, int domain, int bus, int device) {
        Matcher m = BUS_ID.matcher(nvmlBusId.strip());
        if (m.matches()) {
            return String.format(Locale.ROOT, "%04x:%s:%s.%s", Long.parseLong(m.group(1), 16),
                    m.group(2).toLowerCase(Locale.ROOT), m.group(3).toLowerCase(Locale.ROOT), m.group(4));
        }
        return String.format(Locale.ROOT, "%04x:%02x:%02x.0", Integer.toUnsignedLong(domain), bus & 0xff, device & 0xff);
    }

    /** nvmlDeviceGetCpuAffinity's bitmask, 64 CPUs per unsigned long, as a CPU set. */
    private static NvmlResult<CpuSet> cpuAffinity(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment set = arena.allocate(JAVA_LONG, CPU_SET_LONGS);
            return nvml.query(DEVICE_GET_CPU_AFFINITY, () -> cpuList(set.toArray(JAVA_LONG)), dev, CPU_SET_LONGS, set);
        }
    }

    static CpuSet cpuList(long[] words) {
        int[] cpus = IntStream.range(0, words.length * 64)
                .filter(cpu -> (words[cpu / 64] >>> (cpu % 64) & 1) != 0)
                .toArray();
        return CpuSet.of(cpus);
    }

    private static NvmlResult<Long> memoryTotal(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(nvmlMemory_t);
            return nvml.query(DEVICE_GET_MEMORY_INFO, () -> m.get(JAVA_LONG, offset(nvmlMemory_t, "total")), dev, m);
        }
    }

    /**
     * Links 0, 1, ... until NVML says invalid argument (the number of links differs between
     * GPUs and releases, so no maximum is assumed). Not supported at link 0 means no NVLink.
     */
    static List<NvmlGpu.NvLink> nvLinks(Nvml nvml, MemorySegment dev, Unknowns u) {
        if (!nvml.has(DEVICE_GET_NVLINK_STATE)) {
            u.add("nvLinks", nvml.failure(DEVICE_GET_NVLINK_STATE, NVML_ERROR_FUNCTION_NOT_FOUND).reason());
            return null;
        }
        // A driver without these functions says so once per GPU, not once per link
        boolean hasType = nvml.has(DEVICE_GET_NVLINK_REMOTE_DEVICE_TYPE), hasVersion = nvml.has(DEVICE_GET_NVLINK_VERSION);
        List<NvmlGpu.NvLink> links = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(JAVA_INT);
            for (int link = 0; link < NVLINK_GUARD; link++) {
                int rc = nvml.call(DEVICE_GET_NVLINK_STATE, dev, link, state);
                if (rc == NVML_ERROR_INVALID_ARGUMENT || rc == NVML_ERROR_NOT_SUPPORTED) return links;
                if (rc != NVML_SUCCESS) {
                    u.add(link == 0 ? "nvLinks" : "nvLinks[" + link + "]", nvml.failure(DEVICE_GET_NVLINK_STATE, rc).getMessage());
                    return link == 0 ? null : links;
                }
                boolean active = state.get(JAVA_INT, 0) == NVML_FEATURE_ENABLED;
                if (!active) {
                    links.add(new NvmlGpu.NvLink(link, false, null));
                    continue;
                }
                int l = link;
                String at = "nvLinks[" + link + "]";
                String remote = u.get(at + ".remotePciBusId", () -> pciBusId(nvml, DEVICE_GET_NVLINK_REMOTE_PCI_INFO_V2, dev, l));
                String type = hasType ? u.get(at + ".remoteType",
                        () -> nvml.getInt(DEVICE_GET_NVLINK_REMOTE_DEVICE_TYPE, dev, l).map(NvmlReader::remoteType)) : null;
                Integer code = hasVersion ? u.get(at + ".version", () -> nvml.getInt(DEVICE_GET_NVLINK_VERSION, dev, l)) : null;
                String version = code == null ? null : nvlinkVersion(code);
                if (code != null && version == null) {
                    u.add(at + ".version", code == NVML_NVLINK_VERSION_INVALID
                            ? "nvmlDeviceGetNvLinkVersion: NVML_NVLINK_VERSION_INVALID (0)"
                            : "nvmlDeviceGetNvLinkVersion: " + code + " is newer than this nvml.h's nvmlNvlinkVersion_t");
                }
                links.add(new NvmlGpu.NvLink(link, true, remote, type, code, version));
            }
        }
        u.add("nvLinks", "NVML answered for " + NVLINK_GUARD + " links without an end; stopped there");
        return links;
    }

    /** The once-per-GPU lines for a driver that lacks the remote type or version calls (links stay readable). */
    private static void missingLinkCalls(Nvml nvml, List<NvmlGpu.NvLink> links, Unknowns u) {
        if (links == null || links.stream().noneMatch(NvmlGpu.NvLink::active)) return;
        for (NvmlFunction f : List.of(DEVICE_GET_NVLINK_REMOTE_DEVICE_TYPE, DEVICE_GET_NVLINK_VERSION)) {
            if (!nvml.has(f)) {
                u.add(f == DEVICE_GET_NVLINK_VERSION ? "nvLinks[].version" : "nvLinks[].remoteType",
                        nvml.failure(f, NVML_ERROR_FUNCTION_NOT_FOUND).reason());
            }
        }
    }

    /** nvmlIntNvLinkDeviceType_t in words. */
    static String remoteType(int type) {
        return switch (type) {
            case NVML_NVLINK_DEVICE_TYPE_GPU -> "GPU";
            case NVML_NVLINK_DEVICE_TYPE_SWITCH -> "NVSwitch";
            case NVML_NVLINK_DEVICE_TYPE_IBMNPU -> "IBM NPU";
            case NVML_NVLINK_DEVICE_TYPE_UNKNOWN -> "unknown";
            default -> "type " + type;
        };
    }

    /**
     * The NVLink version an nvmlNvlinkVersion_t value names (nvml.h: "Requested NvLink version
     * from nvmlNvlinkVersion_t"); null for INVALID and for values this header does not know.
     */
    static String nvlinkVersion(int code) {
        return switch (code) {
            case NVML_NVLINK_VERSION_1_0 -> "1.0";
            case NVML_NVLINK_VERSION_2_0 -> "2.0";
            case NVML_NVLINK_VERSION_2_2 -> "2.2";
            case NVML_NVLINK_VERSION_3_0 -> "3.0";
            case NVML_NVLINK_VERSION_3_1 -> "3.1";
            case NVML_NVLINK_VERSION_4_0 -> "4.0";
            case NVML_NVLINK_VERSION_5_0 -> "5.0";
            default -> null;
        };
    }

    private static NvmlResult<String> addressingMode(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlDeviceAddressingMode_v1_t);
            s.set(JAVA_INT, offset(nvmlDeviceAddressingMode_v1_t, "version"), structVersion(nvmlDeviceAddressingMode_v1_t, 1));
            return nvml.query(DEVICE_GET_ADDRESSING_MODE, () -> {
                int v = s.get(JAVA_INT, offset(nvmlDeviceAddressingMode_v1_t, "value"));
                return switch (v) {
                    case NVML_DEVICE_ADDRESSING_MODE_NONE -> "none";
                    case NVML_DEVICE_ADDRESSING_MODE_HMM -> "HMM";
                    case NVML_DEVICE_ADDRESSING_MODE_ATS -> "ATS";
                    default -> "mode " + v;
                };
            }, dev, s);
        }
    }

    /** The unknowns of one GPU (or of the system) as they are found. */
    static final class Unknowns {
        final List<String> list = new ArrayList<>();

        void add(String field, String why) {
            list.add(field + ": " + why);
        }

        /** The value, or null with a line saying why: for a normal state and for a failed call alike. */
        <T> T get(String field, Supplier<NvmlResult<T>> read) {
            try {
                NvmlResult<T> r = read.get();
                if (r instanceof NvmlResult.Unknown<T> unknown) add(field, unknown.why());
                return r.orNull();
            } catch (NvmlException e) {
                add(field, e.getMessage());
                return null;
            }
        }
    }
}
