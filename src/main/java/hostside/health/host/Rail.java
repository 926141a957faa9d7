package hostside.health.host;

import java.util.List;

/**
 * One GPU and the RDMA NICs, nearest first: its rail is the first. GPUDirect RDMA goes best through
 * a NIC under the same PCIe switch (PIX or PXB) (shared/design/health.md section 6, nvidia-smi topo's legend).
 *
 * @param gpu  the GPU's PCI address, as asked
 * @param nics every RDMA NIC with a PCI function, nearest first (ties in the kernel's device name
 *             order); empty when the machine has none, or when the GPU is not a PCI function here
 */
public record Rail(String gpu, List<NicDistance> nics) {

    /** The nearest NIC; null when there is none. */
    public NicDistance nearest() {
        return nics.isEmpty() ? null : nics.getFirst();
    }
}
