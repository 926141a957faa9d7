package hostside.rack;

import java.util.List;
import java.util.Locale;

import hostside.machine.MachineFacts;
import hostside.machine.PciDevice;

/**
 * What kind of GPU machine this is, as far as the rack checklist's verdicts depend on it: 64K pages
 * are recommended on Grace and 4K is normal on a DGX Spark; IMEX applies to NVLink racks only; the
 * fabric manager runs on an HGX host but on the switch trays of a GB200 rack.
 *
 * @param evidence how it was decided, for people ("Neoverse-V2 cores and GPU 0x2342 with its memory a NUMA node")
 */
public record Platform(Kind kind, String evidence) {

    public enum Kind {
        GRACE_HOPPER("Grace Hopper superchip (GH200): coherent NVLink-C2C"),
        GRACE_BLACKWELL("Grace Blackwell (GB200/GB300 tray): coherent NVLink-C2C, NVLink rack domain"),
        /** Grace with a coherent GPU of a generation hostside does not know by its PCI id. */
        GRACE_COHERENT("Grace with a coherent GPU: NVLink-C2C"),
        GB10("GB10 (DGX Spark class): one pool of unified memory"),
        /** GPU memory onlined as NUMA nodes over a coherent CPU link that is not Grace's: POWER9 with NVLink 2.0 V100s. */
        COHERENT_OTHER("GPU memory as NUMA nodes over a coherent CPU-GPU link (not Grace: POWER9 with NVLink V100s, for one)"),
        NVSWITCH("GPUs on PCIe with NVSwitches (HGX or DGX board)"),
        PCIE("GPUs on PCIe"),
        NO_GPU("no NVIDIA GPU");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /** Grace CPUs: NVIDIA's Grace tuning and benchmarking guides apply. */
    public boolean grace() {
        return kind == Kind.GRACE_HOPPER || kind == Kind.GRACE_BLACKWELL || kind == Kind.GRACE_COHERENT;
    }

    /** The GPUs reach host memory coherently, and their memory can be a NUMA node. */
    public boolean coherent() {
        return grace() || kind == Kind.COHERENT_OTHER;
    }

    /** The CPU-GPU link is NVLink-C2C (Grace's). */
    public boolean c2c() {
        return grace();
    }

    /** Part of a multi-node NVLink domain, where IMEX and fabric handles matter. */
    public boolean nvlinkRack() {
        return kind == Kind.GRACE_BLACKWELL;
    }

    static final String NVIDIA = "0x10de";
    // A superchip's GPU ID (PciDevice.superchipGpu) makes a GH200 in CDMM mode, with no GPU memory
    // node and no mode parameter from an older driver, read as one; the other signs (a numa_status,
    // CoherentGPUMemoryMode) cover the IDs not listed.

    public static Platform of(MachineFacts machine, RackFacts rack) {
        List<PciDevice> gpus = machine.gpus().stream().filter(g -> NVIDIA.equalsIgnoreCase(g.vendorId())).toList();
        List<String> arm = rack.armParts();
        if (gpus.isEmpty() && rack.gpuNuma().isEmpty()) {
            return new Platform(Kind.NO_GPU, "no NVIDIA GPU among the PCI devices");
        }
        // a recording without PCI data still has the driver's own list of its GPUs
        String ids = gpus.isEmpty() ? "at " + String.join(", ", rack.gpuNuma().stream().map(RackFacts.GpuNuma::address).toList()) + " (the driver's list: no PCI data)"
                : String.join(", ", gpus.stream().map(g -> String.valueOf(g.deviceId()).toLowerCase(Locale.ROOT)).distinct().toList());
        if (arm.contains("Cortex-X925") && arm.contains("Cortex-A725")) {
            return new Platform(Kind.GB10, "Cortex-X925 and Cortex-A725 cores beside NVIDIA GPU " + ids);
        }
        if (arm.contains("Neoverse-V2")) {
            boolean numaNodes = rack.gpuNuma().stream().anyMatch(RackFacts.GpuNuma::present);
            String mode = rack.driverParams() == null ? null : rack.driverParams().coherentGpuMemoryMode();
            boolean superchipId = gpus.stream().anyMatch(PciDevice::superchipGpu);
            if (superchipId || numaNodes || (mode != null && !mode.isEmpty())) {
                String why = "Neoverse-V2 (Grace) cores and NVIDIA GPU " + ids
                        + (superchipId ? " (a superchip's GPU)" : numaNodes ? " with its memory a NUMA node" : " with CoherentGPUMemoryMode \"" + mode + "\"");
                String gen = generation(gpus);
                Kind k = "Hopper".equals(gen) ? Kind.GRACE_HOPPER : "Blackwell".equals(gen) ? Kind.GRACE_BLACKWELL : Kind.GRACE_COHERENT;
                return new Platform(k, why);
            }
        }
        if (rack.gpuNuma().stream().anyMatch(RackFacts.GpuNuma::present)) {
            return new Platform(Kind.COHERENT_OTHER, "NVIDIA GPU " + ids + " with its memory a NUMA node (the driver's numa_status)"
                    + (arm.isEmpty() ? "" : ", " + String.join("/", arm) + " cores"));
        }
        if (!rack.fabricManager().nvswitches().isEmpty()) {
            return new Platform(Kind.NVSWITCH, rack.fabricManager().nvswitches().size() + " NVSwitch functions (NVIDIA, class 0x0680) beside NVIDIA GPU " + ids);
        }
        return new Platform(Kind.PCIE, "NVIDIA GPU " + ids + " on PCIe" + (arm.isEmpty() ? "" : ", " + String.join("/", arm) + " cores"));
    }

    /** Hopper (GH100: PCI ids 0x23xx) or Blackwell (GB100/GB102: 0x29xx, 0x2bxx); null for others. */
    static String generation(List<PciDevice> gpus) {
        for (PciDevice g : gpus) {
            String id = String.valueOf(g.deviceId()).toLowerCase(Locale.ROOT);
            if (id.startsWith("0x23")) return "Hopper";
            if (id.startsWith("0x29") || id.startsWith("0x2b")) return "Blackwell";
        }
        return null;
    }
}
