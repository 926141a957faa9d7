package hostside.health.host;

import java.util.List;

/**
 * Rail alignment: for each GPU asked about, the RDMA NICs by PCIe distance.
 *
 * @param rails    one per GPU address, in the order asked
 * @param unknowns reads that failed, GPUs that are not PCI functions here, RDMA devices without one
 */
public record Rails(List<Rail> rails, List<String> unknowns) {}
