package hostside.gpu.nvml;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.core.CpuSet;

/**
 * What NVML says about one GPU. Every field NVML could not give is null, with a line in
 * {@code unknowns} saying which field and why ("numaNode: nvmlDeviceGetNumaNodeId: Not
 * Supported (3)"). Jackson writes the components as they are, nulls included.
 *
 * @param index            NVML's index (not necessarily CUDA's: CUDA_DEVICE_ORDER decides that)
 * @param pciBusId         in the kernel's sysfs spelling, "0000:00:06.0", to join with /sys facts
 * @param pcieGen          current PCIe generation; an idle GPU trains down, so low is not yet a finding
 * @param pcieMaxGen       the most the GPU and its slot can reach together
 * @param pcieGpuMaxGen    the most the GPU itself can reach (nvmlDeviceGetGpuMaxPcieLinkGeneration)
 * @param numaNode         nvmlDeviceGetNumaNodeId: per nvml.h the NUMA node OF the GPU, on platforms
 *                         where GPU memory is a NUMA node (Grace Hopper/Blackwell); elsewhere NVML
 *                         says not supported. It is not the CPU-side node of the PCIe slot (that is
 *                         sysfs numa_node, or {@code cpuAffinity} below)
 * @param cpuAffinity      nvmlDeviceGetCpuAffinity, the CPUs NVML calls ideal (JSON: the kernel's cpulist "0-15")
 * @param eccEnabled       current ECC mode; {@code eccPendingEnabled} is the mode after the next reboot
 * @param memoryTotalBytes nvmlDeviceGetMemoryInfo's total
 * @param nvLinks          one entry per link NVML knows, active or not; empty when the GPU has none
 *                         (NVML says not supported or invalid argument for link 0); null when unreadable
 * @param fabric           the NVLink fabric (NVSwitch / multi-node NVLink) registration state
 * @param addressingMode   "none", "HMM" or "ATS": whether the GPU can address pageable host memory,
 *                         and how (nvmlDeviceGetAddressingMode, driver 580+)
 * @param migEnabled       MIG mode now; a GPU in MIG mode runs work only in its instances
 * @param clocks           what an administrator set that holds the clocks (applications clocks, the
 *                         power limit) and the clock event reasons as the GPU was read; null in
 *                         recordings older than this field
 * @param platform         where the GPU sits in an NVLink rack (nvmlDeviceGetPlatformInfo); null when
 *                         unreadable and in recordings older than this field
 * @param c2c              the GPU-CPU chip-to-chip link of Grace Hopper / Grace Blackwell; null when
 *                         unreadable and in recordings older than this field
 */
public record NvmlGpu(
        int index,
        String name,
        String uuid,
        String pciBusId,
        Integer pcieGen,
        Integer pcieWidth,
        Integer pcieMaxGen,
        Integer pcieMaxWidth,
        Integer pcieGpuMaxGen,
        Integer numaNode,
        CpuSet cpuAffinity,
        Boolean persistenceMode,
        Integer smClockMhz,
        Integer smClockMaxMhz,
        Integer memClockMhz,
        Integer memClockMaxMhz,
        Boolean eccEnabled,
        Boolean eccPendingEnabled,
        Long memoryTotalBytes,
        List<NvLink> nvLinks,
        Fabric fabric,
        String addressingMode,
        Boolean migEnabled,
        Boolean migPendingEnabled,
        ClockPolicy clocks,
        Platform platform,
        C2c c2c,
        List<String> unknowns) {

    public NvmlGpu {
        nvLinks = nvLinks == null ? null : List.copyOf(nvLinks);
        unknowns = List.copyOf(unknowns);
    }

    /** A GPU as read before hostside asked for its platform and C2C link (both null). */
    public NvmlGpu(int index, String name, String uuid, String pciBusId, Integer pcieGen, Integer pcieWidth, Integer pcieMaxGen,
                   Integer pcieMaxWidth, Integer pcieGpuMaxGen, Integer numaNode, CpuSet cpuAffinity, Boolean persistenceMode,
                   Integer smClockMhz, Integer smClockMaxMhz, Integer memClockMhz, Integer memClockMaxMhz, Boolean eccEnabled,
                   Boolean eccPendingEnabled, Long memoryTotalBytes, List<NvLink> nvLinks, Fabric fabric, String addressingMode,
                   Boolean migEnabled, Boolean migPendingEnabled, ClockPolicy clocks, List<String> unknowns) {
        this(index, name, uuid, pciBusId, pcieGen, pcieWidth, pcieMaxGen, pcieMaxWidth, pcieGpuMaxGen, numaNode, cpuAffinity,
                persistenceMode, smClockMhz, smClockMaxMhz, memClockMhz, memClockMaxMhz, eccEnabled, eccPendingEnabled,
                memoryTotalBytes, nvLinks, fabric, addressingMode, migEnabled, migPendingEnabled, clocks, null, null, unknowns);
    }

    /**
     * One NVLink of this GPU. The remote end and the version are read for active links only (an
     * inactive link has neither); null where NVML could not say, with the reason in {@code unknowns}.
     *
     * @param remotePciBusId the device at the other end (a GPU, or an NVSwitch), sysfs spelling
     * @param remoteType     "GPU", "NVSwitch", "IBM NPU" (a POWER9 CPU's NVLink port) or "unknown"
     *                       (NVML's own NVML_NVLINK_DEVICE_TYPE_UNKNOWN), from nvmlDeviceGetNvLinkRemoteDeviceType
     * @param versionCode    what nvmlDeviceGetNvLinkVersion gave: a value of nvml.h's nvmlNvlinkVersion_t,
     *                       kept as it came because the numbers are not generations (6 is NVLink 4.0)
     * @param version        the NVLink version that value names in nvml.h, "4.0" (Hopper), "3.0"/"3.1"
     *                       (Ampere), "5.0" (Blackwell); null for NVML_NVLINK_VERSION_INVALID or a value
     *                       newer than the header hostside was built against
     */
    public record NvLink(int link, boolean active, String remotePciBusId, String remoteType, Integer versionCode,
                         String version) {

        /** A link as read before hostside asked for its remote type and version. */
        public NvLink(int link, boolean active, String remotePciBusId) {
            this(link, active, remotePciBusId, null, null, null);
        }
    }

    /**
     * The GPU's registration with the NVLink fabric (fabric manager / IMEX domain).
     *
     * @param state        NOT_SUPPORTED (no NVSwitch fabric: NVML says so by this state or by the call
     *                     answering NOT_SUPPORTED), NOT_STARTED, IN_PROGRESS, COMPLETED; IN_PROGRESS for
     *                     minutes means the fabric manager is down (NVIDIA/NVSentinel#889)
     * @param error        when completed with an error, NVML's words and code; else null
     * @param clusterUuid  the NVLink domain's UUID once completed (GPUs that share it share a fabric)
     * @param cliqueId     the fabric clique within that domain, once completed
     * @param health       nvmlGpuFabricInfo_v3_t.healthSummary; null from drivers older than the v3
     *                     struct and when the call said NOT_SUPPORTED
     * @param status       the nvmlReturn_t of the registration, once completed (0: success; its words
     *                     are {@code error}); null before, since nvml.h says it means nothing until then
     * @param healthMask   the raw nvmlGpuFabricInfo_v2_t/_v3_t.healthMask; null from the unversioned call
     * @param healthDetail {@code healthMask} decoded field by field; null where the mask is
     */
    public record Fabric(State state, String error, String clusterUuid, Long cliqueId, HealthSummary health, Integer status,
                         Long healthMask, FabricHealth healthDetail) {

        /** A fabric as read before hostside decoded its status and health mask. */
        public Fabric(State state, String error, String clusterUuid, Long cliqueId, HealthSummary health) {
            this(state, error, clusterUuid, cliqueId, health, null, null, null);
        }

        /** Whether the fabric gave a cluster UUID other than all zeros: without one NCCL turns multi-node NVLink off. */
        public boolean hasCluster() {
            return clusterUuid != null && !clusterUuid.replace("-", "").chars().allMatch(c -> c == '0');
        }

        /** What the call answering NOT_SUPPORTED means: no fabric, nothing else to say. */
        static final Fabric NOT_SUPPORTED = new Fabric(State.NOT_SUPPORTED, null, null, null, null);

        /** nvmlGpuFabricState_t (NVML_GPU_FABRIC_STATE_*), in the words reports have always carried. */
        public enum State {
            NOT_SUPPORTED(NvmlTypes.NVML_GPU_FABRIC_STATE_NOT_SUPPORTED, "not supported"),
            NOT_STARTED(NvmlTypes.NVML_GPU_FABRIC_STATE_NOT_STARTED, "not started"),
            IN_PROGRESS(NvmlTypes.NVML_GPU_FABRIC_STATE_IN_PROGRESS, "in progress"),
            COMPLETED(NvmlTypes.NVML_GPU_FABRIC_STATE_COMPLETED, "completed"),
            /** a state newer than this header (the byte is in {@code unknowns}) */
            UNDEFINED(-1, "undefined");

            public final int code;
            private final String word;

            State(int code, String word) {
                this.code = code;
                this.word = word;
            }

            static State of(int code) {
                for (State s : values()) if (s.code == code) return s;
                return UNDEFINED;
            }

            @JsonValue
            public String word() {
                return word;
            }

            @JsonCreator
            public static State parse(String word) {
                for (State s : values()) if (s.word.equals(word)) return s;
                throw new IllegalArgumentException("\"" + word + "\" is not a fabric state");
            }

            @Override
            public String toString() {
                return word;
            }
        }

        /** NVML_GPU_FABRIC_HEALTH_SUMMARY_*, in the words reports have always carried. */
        public enum HealthSummary {
            NOT_SUPPORTED(NvmlTypes.NVML_GPU_FABRIC_HEALTH_SUMMARY_NOT_SUPPORTED, "not supported"),
            HEALTHY(NvmlTypes.NVML_GPU_FABRIC_HEALTH_SUMMARY_HEALTHY, "healthy"),
            UNHEALTHY(NvmlTypes.NVML_GPU_FABRIC_HEALTH_SUMMARY_UNHEALTHY, "unhealthy"),
            LIMITED_CAPACITY(NvmlTypes.NVML_GPU_FABRIC_HEALTH_SUMMARY_LIMITED_CAPACITY, "limited capacity"),
            /** a summary newer than this header (the byte is in {@code unknowns}) */
            UNDEFINED(-1, "undefined");

            public final int code;
            private final String word;

            HealthSummary(int code, String word) {
                this.code = code;
                this.word = word;
            }

            static HealthSummary of(int code) {
                for (HealthSummary h : values()) if (h.code == code) return h;
                return UNDEFINED;
            }

            @JsonValue
            public String word() {
                return word;
            }

            @JsonCreator
            public static HealthSummary parse(String word) {
                for (HealthSummary h : values()) if (h.word.equals(word)) return h;
                throw new IllegalArgumentException("\"" + word + "\" is not a fabric health summary");
            }

            @Override
            public String toString() {
                return word;
            }
        }
    }

    /**
     * Where the GPU sits in an NVLink rack: nvmlDeviceGetPlatformInfo, Blackwell and newer. The
     * chassis serial number identifies a piece of hardware, so it is never kept: only a hash of it,
     * equal for GPUs in the same chassis, which is what grouping by failure domain needs.
     *
     * @param supported         false when NVML says NOT_SUPPORTED (every GPU before Blackwell, the
     *                          H200 included): then every other field is null
     * @param structVersion     2 (nvmlPlatformInfo_v2_t) or 1 (v1, whose fields carry older names:
     *                          rackGuid, chassisPhysicalSlotNumber, computeSlotIndex, nodeIndex)
     * @param chassisSerialHash the first 16 hex digits of SHA-256 over hostside's prefix and the
     *                          serial (as {@code hostside.machine.MachineIdentity} hashes machine ids);
     *                          null when NVML left the serial empty
     * @param slotNumber        the slot in the chassis (switch trays counted)
     * @param trayIndex         the compute tray's index (switch trays not counted)
     * @param hostId            the node within the slot
     * @param peerType          the platform's NVLink peer type (e.g. switch present or not), as NVML gives it
     * @param moduleId          the GPU's id within the node
     */
    public record Platform(boolean supported, Integer structVersion, String chassisSerialHash, Integer slotNumber,
                           Integer trayIndex, Integer hostId, Integer peerType, Integer moduleId) {

        /** What NOT_SUPPORTED means: this GPU has no rack position to give. */
        static final Platform NOT_SUPPORTED = new Platform(false, null, null, null, null, null, null, null);
    }

    /**
     * The chip-to-chip link between the GPU and its Grace CPU.
     *
     * @param mode      nvmlDeviceGetC2cModeInfoV: ENABLED, DISABLED, or NOT_SUPPORTED by this GPU
     * @param linkCount NVML_FI_DEV_C2C_LINK_COUNT; asked only when the mode is ENABLED (null otherwise)
     * @param links     one entry per link 0 to linkCount-1, each asked with its number as scopeId
     */
    public record C2c(Mode mode, Integer linkCount, List<C2cLink> links) {
        public C2c {
            links = links == null ? null : List.copyOf(links);
        }

        /** The links NVML calls active. */
        public long activeLinks() {
            return links == null ? 0 : links.stream().filter(l -> Boolean.TRUE.equals(l.active())).count();
        }

        /** nvmlC2cModeInfo_v1_t.isC2cEnabled, or the call's NOT_SUPPORTED. */
        public enum Mode {
            ENABLED("enabled"),
            DISABLED("disabled"),
            NOT_SUPPORTED("not supported");

            private final String word;

            Mode(String word) {
                this.word = word;
            }

            @JsonValue
            public String word() {
                return word;
            }

            @JsonCreator
            public static Mode parse(String word) {
                for (Mode m : values()) if (m.word.equals(word)) return m;
                throw new IllegalArgumentException("\"" + word + "\" is not a C2C mode");
            }

            @Override
            public String toString() {
                return word;
            }
        }
    }

    /**
     * One C2C link; a field NVML would not give is null, with the reason in {@code unknowns}.
     *
     * @param active          NVML_FI_DEV_C2C_LINK_GET_STATUS: 1 active, 0 inactive
     * @param maxBandwidthMBps NVML_FI_DEV_C2C_LINK_GET_MAX_BW, MB/s, for an active link
     */
    public record C2cLink(int link, Boolean active, Long maxBandwidthMBps) {}

    /**
     * The settings that hold a GPU's clocks, read to tell whether two runs' figures are fair to
     * compare (a fleet that locks clocks before measuring, as Azure's health checks do before
     * nvbandwidth, gets steadier and sometimes lower figures). Each is null where NVML could not
     * give it (GeForce boards answer NOT_SUPPORTED for applications clocks). NVML has no getter
     * for {@code nvidia-smi -lgc}'s locked range; {@link ClockLock} says what can be concluded.
     *
     * @param appSmMhz            nvmlDeviceGetApplicationsClock(SM): the clock applications are held to
     * @param defaultAppSmMhz     nvmlDeviceGetDefaultApplicationsClock(SM): what the board ships with
     * @param appMemMhz           the applications clock of the memory
     * @param defaultAppMemMhz    its default
     * @param powerLimitMw        nvmlDeviceGetEnforcedPowerLimit: the limit obeyed now, whoever set it
     * @param defaultPowerLimitMw nvmlDeviceGetPowerManagementDefaultLimit
     * @param eventReasons        nvmlDeviceGetCurrentClocksEventReasons' bits as the GPU was read
     *                            (nvmlClocksEventReason*: 0x1 idle, 0x2 applications/locked clocks,
     *                            0x4 power cap...)
     */
    public record ClockPolicy(Integer appSmMhz, Integer defaultAppSmMhz, Integer appMemMhz, Integer defaultAppMemMhz,
                              Integer powerLimitMw, Integer defaultPowerLimitMw, Long eventReasons) {}

    /** A GPU whose handle NVML would not give (e.g. no permission): only its index and why. */
    static NvmlGpu unreadable(int index, List<String> unknowns) {
        return new NvmlGpu(index, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, unknowns);
    }

    /**
     * One human line: "GPU0 NVIDIA H200 0000:00:06.0: PCIe Gen5 x16 (max Gen5 x16), 140.4 GiB, ...".
     * "?" marks a field NVML could not give (the reasons are in {@code unknowns}).
     */
    public String line() {
        List<String> parts = new ArrayList<>();
        parts.add("PCIe " + gen(pcieGen) + " x" + q(pcieWidth) + " (max " + gen(pcieMaxGen) + " x" + q(pcieMaxWidth) + ")");
        parts.add(memoryTotalBytes == null ? "? GiB"
                : String.format(Locale.ROOT, "%.1f GiB", memoryTotalBytes / (double) (1L << 30)));
        parts.add("SM " + q(smClockMhz) + "/" + q(smClockMaxMhz) + " MHz");
        parts.add("memory " + q(memClockMhz) + "/" + q(memClockMaxMhz) + " MHz");
        parts.add("ECC " + onOff(eccEnabled) + pending(eccEnabled, eccPendingEnabled));
        parts.add("persistence " + onOff(persistenceMode));
        parts.add("MIG " + onOff(migEnabled) + pending(migEnabled, migPendingEnabled));
        parts.add(nvLinks == null ? "NVLink ?"
                : nvLinks.isEmpty() ? "no NVLink"
                : "NVLink " + nvLinks.stream().filter(NvLink::active).count() + "/" + nvLinks.size() + " active");
        parts.add("fabric " + (fabric == null ? "?" : fabric.state() + (fabric.error() == null ? "" : " (" + fabric.error() + ")")));
        parts.add("addressing " + q(addressingMode));
        // only where there is something to say: most GPUs have neither a rack position nor C2C
        if (platform != null && platform.supported()) {
            parts.add(String.format(Locale.ROOT, "chassis %s slot %s tray %s", q(platform.chassisSerialHash()),
                    q(platform.slotNumber()), q(platform.trayIndex())));
        }
        if (c2c != null && c2c.mode() == C2c.Mode.ENABLED) parts.add("C2C " + c2c.activeLinks() + "/" + q(c2c.linkCount()) + " active");
        parts.add("NUMA " + (numaNode == null ? "-" : numaNode));
        parts.add("CPUs " + (cpuAffinity == null ? "?" : cpuAffinity.toList()));
        String head = "GPU" + index + " " + q(name) + " " + q(pciBusId) + ": ";
        String tail = unknowns.isEmpty() ? "" : " [" + unknowns.size() + " unknown]";
        return head + String.join(", ", parts) + tail;
    }

    private static String q(Object o) {
        return o == null ? "?" : o.toString();
    }

    private static String gen(Integer g) {
        return g == null ? "Gen?" : "Gen" + g;
    }

    private static String onOff(Boolean b) {
        return b == null ? "?" : b ? "on" : "off";
    }

    private static String pending(Boolean now, Boolean next) {
        return now == null || next == null || now.equals(next) ? "" : " (pending " + onOff(next) + ")";
    }
}
