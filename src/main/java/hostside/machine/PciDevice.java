package hostside.machine;

import java.util.List;

import hostside.core.CpuSet;

/**
 * One PCI function, placed in the PCIe tree.
 *
 * @param address     domain:bus:device.function, "0000:00:06.0"
 * @param kind        gpu, nic, nvme, bridge or other
 * @param name        what people call it: "GPU0", "mlx5_0", "eth0", "nvme0"; "" for others
 * @param description vendor and class ("NVIDIA 3D controller"), or the GPU's model when the driver says
 * @param numaNode    null where the kernel says -1 (or nothing)
 * @param localCpus   CPUs the kernel calls local to the device, "" when it does not say
 * @param link        null when the device has no PCIe link attributes (integrated, or old kernels)
 * @param upstream    the bridge above it, null on a root bus
 * @param hostBridge  the root complex it hangs off, "pci0000:00"; null when the tree is unknown
 * @param interfaces  network interfaces, RDMA devices, NVMe controllers it provides
 * @param netSpeedMbps for a NIC, its first interface's speed in Mb/s; null when the kernel does not say
 * @param rdma        for a NIC, whether it has an RDMA device (InfiniBand or RoCE verbs)
 */
// "gpu" and "nic" are written (scripts read them) but derived from kind, so not read back
@com.fasterxml.jackson.annotation.JsonIgnoreProperties(value = {"gpu", "nic"}, allowGetters = true)
public record PciDevice(
        String address,
        PciKind kind,
        String name,
        String classCode,
        String vendorId,
        String deviceId,
        String description,
        String driver,
        Integer numaNode,
        CpuSet localCpus,
        PciLink link,
        String upstream,
        String hostBridge,
        List<String> interfaces,
        Integer netSpeedMbps,
        boolean rdma,
        String iommuGroup) {

    public boolean isGpu() {
        return kind == PciKind.GPU;
    }

    public boolean isNic() {
        return kind == PciKind.NIC;
    }

    /**
     * PCI device IDs that only superchips' GPUs have (GH200 96 GB and 144 GB, GB200): GPUs attached
     * to their Grace CPU by NVLink-C2C, whatever their PCIe function's place in the tree says.
     */
    public static final List<String> SUPERCHIP_GPUS = List.of("0x2342", "0x2348", "0x2941");

    /** An NVIDIA GPU of a superchip ({@link #SUPERCHIP_GPUS}): its CPU is reached over NVLink-C2C. */
    public boolean superchipGpu() {
        return isGpu() && "0x10de".equalsIgnoreCase(vendorId) && deviceId != null && SUPERCHIP_GPUS.contains(deviceId.toLowerCase(java.util.Locale.ROOT));
    }

    /** The name if it has one, else its address. */
    public String label() {
        return name.isEmpty() ? address : name;
    }
}
