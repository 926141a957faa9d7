package hostside.gpu.nvml;

import hostside.core.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
        List<String> unknowns) {

    public NvmlGpu {
        nvLinks = nvLinks == null ? null : List.copyOf(nvLinks);
        unknowns = List.copyOf(unknowns);
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
     * @param state       "not supported" (no NVSwitch fabric: NVML says so by this state or by the call
     *                    answering NOT_SUPPORTED), "not started", "in progress", "completed"
     * @param error       when completed with an error, NVML's words and code; else null
     * @param clusterUuid the NVLink domain's UUID once completed (GPUs that share it share a fabric)
     * @param cliqueId    the fabric clique within that domain, once completed
     * @param health      "healthy", "unhealthy", "limited capacity" or "not supported"; null from
     *                    drivers older than the v3 struct and when the call said NOT_SUPPORTED
     */
    public record Fabric(String state, String error, String clusterUuid, Long cliqueId, String health) {}

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
                null, null, null, null, null, null, null, null, null, null, null, unknowns);
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
