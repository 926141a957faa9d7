package hostside.health.host;

import java.util.List;

/**
 * An RDMA device (InfiniBand HCA or RoCE NIC function) with its ports.
 *
 * @param name       as the kernel names it: mlx5_0
 * @param hcaType    hca_type ("MT4129"); null when absent
 * @param firmware   fw_ver ("28.41.1000"); null when absent
 * @param pciAddress the PCI function it is (its device link); null for a software device (rxe, siw)
 * @param ports      its ports
 */
public record IbDevice(String name, String hcaType, String firmware, String pciAddress, List<IbPort> ports) {}
