package hostside.health.host;

/**
 * An RDMA NIC as seen from one GPU.
 *
 * @param rdmaDevice the RDMA device (mlx5_0); one PCI function may carry several (a bond)
 * @param pciAddress its PCI function
 * @param level      the PCIe relationship between the GPU and it
 */
public record NicDistance(String rdmaDevice, String pciAddress, PcieLevel level) {}
