package hostside.rack;

import java.util.List;
import java.util.Map;

/**
 * What the rack checklist reads beyond {@code machine}'s, {@code vm}'s and {@code cpu}'s facts:
 * the NVIDIA driver's parameters and per-GPU NUMA status, IMEX, the fabric manager, GPUDirect
 * and PCI runtime power. Every field is null (or empty) when it could not be read; {@link #unknowns}
 * says why where that matters.
 *
 * @param armParts      the Arm core names of /proc/cpuinfo (Neoverse-V2 is Grace); empty on other CPUs
 * @param driverParams  /proc/driver/nvidia/params; null without the NVIDIA driver
 * @param gpuNuma       per GPU with a /proc/driver/nvidia/gpus/BDF folder, its numa_status (which the
 *                      driver writes only when the GPU's memory is a NUMA node)
 * @param imex          the IMEX channel device, driver parameters and configuration
 * @param fabricManager the NVSwitches this host sees and the fabric manager's service
 * @param peermem       the kernel module that GPUDirect RDMA through NICs uses: nvidia_peermem or
 *                      nv_peer_mem; null when neither is loaded
 * @param pciPower      power/control of each GPU and NIC, by PCI address: "on" or "auto"; absent when
 *                      the file is not there
 * @param live          read from this machine, not a recording
 * @param hostHidden    why the host's daemons and systemd units are out of sight (a PID namespace of its
 *                      own: a container, a pod without hostPID); "" when they are seen or on a recording
 */
public record RackFacts(
        List<String> armParts,
        DriverParams driverParams,
        List<GpuNuma> gpuNuma,
        Imex imex,
        FabricManager fabricManager,
        String peermem,
        Map<String, String> pciPower,
        boolean live,
        List<String> unknowns,
        String hostHidden) {

    /** The facts of a process that sees the host's processes and systemd units (no {@link #hostHidden}). */
    public RackFacts(List<String> armParts, DriverParams driverParams, List<GpuNuma> gpuNuma, Imex imex, FabricManager fabricManager, String peermem,
                     Map<String, String> pciPower, boolean live, List<String> unknowns) {
        this(armParts, driverParams, gpuNuma, imex, fabricManager, peermem, pciPower, live, unknowns, "");
    }

    /** Whether the host's daemons and systemd units are out of this process's sight ({@link #hostHidden} says why). */
    public boolean hostIsHidden() {
        return hostHidden != null && !hostHidden.isEmpty();
    }

    /**
     * The NVIDIA driver's parameters that the checklist reads (NVreg_* module options).
     *
     * @param coherentGpuMemoryMode  CoherentGPUMemoryMode: "driver" (CDMM), "numa", or "" (the driver's
     *                               default: NUMA on coherent platforms); null when the driver has no such
     *                               parameter (before CDMM existed)
     * @param enableUserNumaManagement EnableUserNUMAManagement (CDMM forces 0)
     * @param imexChannelCount       ImexChannelCount
     * @param createImexChannel0     CreateImexChannel0: 1 when the driver makes channel 0 at load
     */
    public record DriverParams(String coherentGpuMemoryMode, Integer enableUserNumaManagement, Integer imexChannelCount,
                               Integer createImexChannel0) {}

    /**
     * One GPU's /proc/driver/nvidia/gpus/BDF/numa_status.
     *
     * @param node      the NUMA node its memory is ("Node:"), null when the file does not say
     * @param status    "online", "offline", "online_in_progress"...; null when the file is absent
     * @param sizeBytes the memory the node holds ("Size:", hex bytes); null when absent
     * @param present   whether numa_status exists at all (it does not in CDMM mode nor on PCIe GPUs)
     */
    public record GpuNuma(String address, Integer node, String status, Long sizeBytes, boolean present) {}

    /**
     * @param major        the character major of nvidia-caps-imex-channels in /proc/devices; null when
     *                     the driver does not register it (older than R550)
     * @param channels     the channel files in /dev/nvidia-caps-imex-channels; null when /dev was not
     *                     read (a recording without it)
     * @param config       /etc/nvidia-imex/config.cfg exists
     * @param nodesConfig  /etc/nvidia-imex/nodes_config.cfg exists (its addresses are never read)
     * @param daemon       an nvidia-imex process runs; null when not looked at (a recording)
     */
    public record Imex(Integer major, List<String> channels, boolean config, boolean nodesConfig, Boolean daemon) {}

    /**
     * @param nvswitches  NVIDIA bridge functions (class 0x0680): NVSwitches an HGX board shows its host
     * @param unit        where the nvidia-fabricmanager unit was found ("" when nowhere); enabled when it
     *                    is wanted by a target
     * @param enabled     the unit is enabled (a symlink in a *.wants folder)
     * @param daemon      an nv-fabricmanager process runs; null when not looked at (a recording)
     */
    public record FabricManager(List<String> nvswitches, String unit, boolean enabled, Boolean daemon) {}
}
