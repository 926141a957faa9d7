package hostside.health.host;

import java.util.List;

/**
 * The RDMA devices of the machine. An empty list is a machine without InfiniBand or RoCE (or
 * without their drivers loaded): /sys/class/infiniband is absent or empty.
 *
 * @param devices  in the kernel's name order
 * @param unknowns reads that failed or held no number, with their paths
 */
public record IbPorts(List<IbDevice> devices, List<String> unknowns) {}
