package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import hostside.core.CpuSet;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

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
        NvmlResult<Nvml> opened = Nvml.open(library);
        if (!(opened instanceof NvmlResult.Known<Nvml>(Nvml nvml))) return NvmlFacts.notRun(library, opened.why());
        NvmlFacts facts;
        try {
            facts = read(nvml);
        } catch (RuntimeException e) {
            try { nvml.close(); } catch (NvmlException suppressed) { e.addSuppressed(suppressed); }
            throw e;
        }
        try {
            nvml.close();
        } catch (NvmlException e) {
            facts = facts.withUnknown("shutdown: " + e.getMessage());
        }
        return facts;
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
        NvmlGpu.Fabric fabric = u.get("fabric", () -> fabric(nvml, dev, u));
        String addressing = u.get("addressingMode", () -> addressingMode(nvml, dev));
        int[] mig = u.get("migEnabled", () -> nvml.getInts(DEVICE_GET_MIG_MODE, 2, dev));
        NvmlGpu.ClockPolicy clocks = ClockPolicyReader.read(nvml, dev, u);
        NvmlGpu.Platform platform = u.get("platform", () -> platform(nvml, dev));
        NvmlGpu.C2c c2c = u.get("c2c", () -> c2c(nvml, dev, u));

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

    /**
     * The fabric state through the newest struct the driver takes: nvmlGpuFabricInfo_v3_t, then
     * v2 (drivers that answer ARGUMENT_VERSION_MISMATCH to v3), then the unversioned call.
     * NOT_SUPPORTED from the call is nvml.h's way to say the GPU has no fabric: the same answer
     * as the state NVML_GPU_FABRIC_STATE_NOT_SUPPORTED, so it is reported as that state.
     */
    private static NvmlResult<NvmlGpu.Fabric> fabric(Nvml nvml, MemorySegment dev, Unknowns u) {
        try (Arena arena = Arena.ofConfined()) {
            if (nvml.has(DEVICE_GET_GPU_FABRIC_INFO_V)) {
                // one buffer the size of v3 serves v2 too: v2 is v3 without its last field
                MemorySegment s = arena.allocate(nvmlGpuFabricInfo_v3_t);
                s.set(JAVA_INT, offset(nvmlGpuFabricInfo_v3_t, "version"), structVersion(nvmlGpuFabricInfo_v3_t, 3));
                int rc = nvml.call(DEVICE_GET_GPU_FABRIC_INFO_V, dev, s);
                if (rc != NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
                    return fabricResult(nvml, DEVICE_GET_GPU_FABRIC_INFO_V, rc, s, nvmlGpuFabricInfo_v3_t, u);
                }
                s.fill((byte) 0);
                s.set(JAVA_INT, offset(nvmlGpuFabricInfo_v2_t, "version"), structVersion(nvmlGpuFabricInfo_v2_t, 2));
                rc = nvml.call(DEVICE_GET_GPU_FABRIC_INFO_V, dev, s);
                if (rc != NVML_ERROR_ARGUMENT_VERSION_MISMATCH || !nvml.has(DEVICE_GET_GPU_FABRIC_INFO)) {
                    return fabricResult(nvml, DEVICE_GET_GPU_FABRIC_INFO_V, rc, s, nvmlGpuFabricInfo_v2_t, u);
                }
            }
            MemorySegment s = arena.allocate(nvmlGpuFabricInfo_t);
            int rc = nvml.call(DEVICE_GET_GPU_FABRIC_INFO, dev, s);
            return fabricResult(nvml, DEVICE_GET_GPU_FABRIC_INFO, rc, s, nvmlGpuFabricInfo_t, u);
        }
    }

    private static NvmlResult<NvmlGpu.Fabric> fabricResult(Nvml nvml, NvmlFunction f, int rc, MemorySegment s, StructLayout layout,
                                                           Unknowns u) {
        if (rc == NVML_ERROR_NOT_SUPPORTED) return NvmlResult.of(NvmlGpu.Fabric.NOT_SUPPORTED);
        return nvml.result(f, rc, () -> fabric(nvml, s, layout, u));
    }

    private static NvmlGpu.Fabric fabric(Nvml nvml, MemorySegment s, StructLayout layout, Unknowns u) {
        int stateByte = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(layout, "state")));
        NvmlGpu.Fabric.State state = NvmlGpu.Fabric.State.of(stateByte);
        if (state == NvmlGpu.Fabric.State.UNDEFINED) u.add("fabric.state", stateByte + " is newer than this nvml.h's NVML_GPU_FABRIC_STATE_*");
        NvmlGpu.Fabric.HealthSummary health = null;
        if (layout == nvmlGpuFabricInfo_v3_t) {
            int h = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(layout, "healthSummary")));
            health = NvmlGpu.Fabric.HealthSummary.of(h);
            if (health == NvmlGpu.Fabric.HealthSummary.UNDEFINED) {
                u.add("fabric.health", h + " is newer than this nvml.h's NVML_GPU_FABRIC_HEALTH_SUMMARY_*");
            }
        }
        // v2 added the mask; it describes the fabric whatever the registration's state
        Long mask = null;
        FabricHealth detail = null;
        if (layout != nvmlGpuFabricInfo_t) {
            int m = s.get(JAVA_INT, offset(layout, "healthMask"));
            mask = Integer.toUnsignedLong(m);
            detail = FabricHealth.decode(m);
        }
        // nvml.h: status, cluster and clique mean something only once the probe has completed
        if (state != NvmlGpu.Fabric.State.COMPLETED) return new NvmlGpu.Fabric(state, null, null, null, health, null, mask, detail);
        int status = s.get(JAVA_INT, offset(layout, "status"));
        String error = status == NVML_SUCCESS ? null : nvml.errorString(status) + " (" + status + ")";
        byte[] uuid = s.asSlice(offset(layout, "clusterUuid"), NVML_GPU_FABRIC_UUID_LEN).toArray(JAVA_BYTE);
        long clique = Integer.toUnsignedLong(s.get(JAVA_INT, offset(layout, "cliqueId")));
        return new NvmlGpu.Fabric(state, error, uuidText(uuid), clique, health, status, mask, detail);
    }

    /** Fixed and hostside's own, so a chassis hashes the same on every run and unlike any other tool's hash of it. */
    static final String CHASSIS_PREFIX = "hostside chassis serial\0";
    /** Hex digits kept, as many as hostside.machine.MachineIdentity keeps of a machine's hash: 64 bits. */
    static final int CHASSIS_HASH_DIGITS = 16;

    /**
     * Where the GPU sits in its rack: nvmlPlatformInfo_v2_t, then v1 for drivers that answer
     * ARGUMENT_VERSION_MISMATCH to v2 (the two are the same size; v1 names the fields after the
     * rack, v2 after the chassis). NOT_SUPPORTED (every GPU before Blackwell) is an answer, not a
     * failure: {@link NvmlGpu.Platform#NOT_SUPPORTED}.
     */
    static NvmlResult<NvmlGpu.Platform> platform(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlPlatformInfo_v2_t);
            s.set(JAVA_INT, offset(nvmlPlatformInfo_v2_t, "version"), structVersion(nvmlPlatformInfo_v2_t, 2));
            StructLayout layout = nvmlPlatformInfo_v2_t;
            int rc = nvml.call(DEVICE_GET_PLATFORM_INFO, dev, s);
            if (rc == NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
                s.fill((byte) 0);
                s.set(JAVA_INT, offset(nvmlPlatformInfo_v1_t, "version"), structVersion(nvmlPlatformInfo_v1_t, 1));
                layout = nvmlPlatformInfo_v1_t;
                rc = nvml.call(DEVICE_GET_PLATFORM_INFO, dev, s);
            }
            if (rc == NVML_ERROR_NOT_SUPPORTED) return NvmlResult.of(NvmlGpu.Platform.NOT_SUPPORTED);
            boolean v2 = layout == nvmlPlatformInfo_v2_t;
            StructLayout l = layout;
            return nvml.result(DEVICE_GET_PLATFORM_INFO, rc, () -> new NvmlGpu.Platform(true, v2 ? 2 : 1,
                    chassisSerialHash(s.asSlice(offset(l, v2 ? "chassisSerialNumber" : "rackGuid"), 16).toArray(JAVA_BYTE)),
                    unsignedByte(s, l, v2 ? "slotNumber" : "chassisPhysicalSlotNumber"),
                    unsignedByte(s, l, v2 ? "trayIndex" : "computeSlotIndex"),
                    unsignedByte(s, l, v2 ? "hostId" : "nodeIndex"),
                    unsignedByte(s, l, "peerType"),
                    unsignedByte(s, l, "moduleId")));
        }
    }

    private static int unsignedByte(MemorySegment s, StructLayout layout, String field) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(layout, field)));
    }

    /**
     * A stable stand-in for the chassis serial: SHA-256 over {@link #CHASSIS_PREFIX} and the serial's
     * bytes up to the first NUL (nvml.h: 13 bytes on Blackwell, the rest zero), its first
     * {@link #CHASSIS_HASH_DIGITS} hex digits. The serial itself is never returned or kept. Null for
     * an empty serial, which names no chassis (two GPUs with none are not in the same one).
     */
    static String chassisSerialHash(byte[] serial) {
        int n = 0;
        while (n < serial.length && serial[n] != 0) n++;
        if (n == 0) return null;
        try {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            d.update(CHASSIS_PREFIX.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            d.update(serial, 0, n);
            return java.util.HexFormat.of().formatHex(d.digest()).substring(0, CHASSIS_HASH_DIGITS);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** More C2C links than any Grace part has (one on GH200); a count above it is not believed. */
    static final int C2C_LINK_GUARD = 64;

    /**
     * The C2C link: the mode, then, only when it is enabled, the link count and each link's status
     * and bandwidth through nvmlDeviceGetFieldValues (a GPU without C2C has nothing to count, and
     * NCCL and UCX ask in the same order). Each field NVML will not give is a line in {@code u}.
     */
    static NvmlResult<NvmlGpu.C2c> c2c(Nvml nvml, MemorySegment dev, Unknowns u) {
        NvmlResult<NvmlGpu.C2c.Mode> mode;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlC2cModeInfo_v1_t);
            int rc = nvml.call(DEVICE_GET_C2C_MODE_INFO_V, dev, s);
            mode = rc == NVML_ERROR_NOT_SUPPORTED ? NvmlResult.of(NvmlGpu.C2c.Mode.NOT_SUPPORTED)
                    : nvml.result(DEVICE_GET_C2C_MODE_INFO_V, rc, () -> s.get(JAVA_INT, offset(nvmlC2cModeInfo_v1_t, "isC2cEnabled")) != 0
                            ? NvmlGpu.C2c.Mode.ENABLED : NvmlGpu.C2c.Mode.DISABLED);
        }
        if (!(mode instanceof NvmlResult.Known<NvmlGpu.C2c.Mode>(NvmlGpu.C2c.Mode m)) || m != NvmlGpu.C2c.Mode.ENABLED) {
            return mode.map(x -> new NvmlGpu.C2c(x, null, null));
        }
        Long count = u.get("c2c.linkCount", () -> fieldValues(nvml, dev, new int[][] {{NVML_FI_DEV_C2C_LINK_COUNT, 0}}).getFirst());
        if (count == null) return NvmlResult.of(new NvmlGpu.C2c(m, null, null));
        if (count > C2C_LINK_GUARD) {
            u.add("c2c.linkCount", "NVML counts " + count + " C2C links, more than " + C2C_LINK_GUARD + ": not believed");
            return NvmlResult.of(new NvmlGpu.C2c(m, null, null));
        }
        List<NvmlGpu.C2cLink> links = new ArrayList<>();
        for (int link = 0; link < count; link++) {
            String at = "c2c.links[" + link + "]";
            List<NvmlResult<Long>> r;
            try {
                r = fieldValues(nvml, dev, new int[][] {{NVML_FI_DEV_C2C_LINK_GET_STATUS, link}, {NVML_FI_DEV_C2C_LINK_GET_MAX_BW, link}});
            } catch (NvmlException e) {
                u.add(at, e.getMessage());
                links.add(new NvmlGpu.C2cLink(link, null, null));
                continue;
            }
            Boolean active = u.get(at + ".active", () -> r.get(0).map(v -> v == 1));
            // nvml.h gives the bandwidth "for active links": an inactive link's answer is not asked after
            Long bw = Boolean.TRUE.equals(active) ? u.get(at + ".maxBandwidthMBps", () -> r.get(1)) : null;
            links.add(new NvmlGpu.C2cLink(link, active, bw));
        }
        return NvmlResult.of(new NvmlGpu.C2c(m, count.intValue(), links));
    }

    /**
     * nvmlDeviceGetFieldValues for {fieldId, scopeId} pairs, one result per pair: each entry has its
     * own nvmlReturn. The call's own failure is every entry's (a normal state), or thrown (any other).
     */
    static List<NvmlResult<Long>> fieldValues(Nvml nvml, MemorySegment dev, int[][] fields) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(nvmlFieldValue_t, fields.length);
            for (int i = 0; i < fields.length; i++) {
                MemorySegment v = values.asSlice(i * nvmlFieldValue_t.byteSize(), nvmlFieldValue_t);
                v.set(JAVA_INT, offset(nvmlFieldValue_t, "fieldId"), fields[i][0]);
                v.set(JAVA_INT, offset(nvmlFieldValue_t, "scopeId"), fields[i][1]);
            }
            int rc = nvml.call(DEVICE_GET_FIELD_VALUES, dev, fields.length, values);
            NvmlResult<Void> call = nvml.result(DEVICE_GET_FIELD_VALUES, rc, () -> null);
            List<NvmlResult<Long>> out = new ArrayList<>();
            for (int i = 0; i < fields.length; i++) {
                if (call instanceof NvmlResult.Unknown<Void> no) {
                    out.add(NvmlResult.unknown(no.code(), no.why()));
                    continue;
                }
                MemorySegment v = values.asSlice(i * nvmlFieldValue_t.byteSize(), nvmlFieldValue_t);
                out.add(fieldValue(nvml, v, fieldName(fields[i][0])));
            }
            return out;
        }
    }

    /** One answered nvmlFieldValue_t as a whole number; its own failure, or a type that is not one, is unknown. */
    private static NvmlResult<Long> fieldValue(Nvml nvml, MemorySegment v, String name) {
        int ret = v.get(JAVA_INT, offset(nvmlFieldValue_t, "nvmlReturn"));
        if (ret != NVML_SUCCESS) return NvmlResult.unknown(ret, name + ": " + nvml.failure(DEVICE_GET_FIELD_VALUES, ret).getMessage());
        long at = offset(nvmlFieldValue_t, "value");
        int type = v.get(JAVA_INT, offset(nvmlFieldValue_t, "valueType"));
        return switch (type) {
            // the union's members all start at its first byte (little-endian: the low half for uiVal)
            case NVML_VALUE_TYPE_UNSIGNED_INT -> NvmlResult.of(Integer.toUnsignedLong(v.get(JAVA_INT, at)));
            case NVML_VALUE_TYPE_UNSIGNED_LONG, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG, NVML_VALUE_TYPE_SIGNED_LONG_LONG ->
                    NvmlResult.of(v.get(JAVA_LONG, at));
            default -> NvmlResult.unknown(NVML_ERROR_UNKNOWN, name + ": nvmlDeviceGetFieldValues gave value type " + type
                    + (type == NVML_VALUE_TYPE_DOUBLE ? " (double)" : "") + ", not a whole number");
        };
    }

    /** nvml.h's name of a field id hostside asks for, for the unknowns. */
    static String fieldName(int id) {
        return switch (id) {
            case NVML_FI_DEV_C2C_LINK_COUNT -> "NVML_FI_DEV_C2C_LINK_COUNT";
            case NVML_FI_DEV_C2C_LINK_GET_STATUS -> "NVML_FI_DEV_C2C_LINK_GET_STATUS";
            case NVML_FI_DEV_C2C_LINK_GET_MAX_BW -> "NVML_FI_DEV_C2C_LINK_GET_MAX_BW";
            default -> "field " + id;
        };
    }

    /** 16 bytes as 8-4-4-4-12 hex. */
    static String uuidText(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b.length; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) sb.append('-');
            sb.append(String.format(Locale.ROOT, "%02x", b[i] & 0xff));
        }
        return sb.toString();
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
