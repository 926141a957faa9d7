package hostside.gpu.peer;

import java.util.Map;

/**
 * What the CUDA driver says about one ordered pair of GPUs: whether {@code from} may map
 * {@code to}'s memory, and the attributes of the link between them (cuDeviceGetP2PAttribute).
 * A field is null when the driver refused to say; {@code unknown} then names the field and the
 * driver's error, as "performanceRank: CUDA_ERROR_INVALID_VALUE (1)" (an older driver, a GPU
 * the question does not apply to).
 *
 * @param from            CUDA ordinal of the GPU that would access
 * @param to              CUDA ordinal of the GPU whose memory it would access
 * @param fromAddress     {@code from}'s PCI address in sysfs's spelling: the join with the PCIe tree
 *                        (CUDA orders GPUs fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID)
 * @param toAddress       {@code to}'s PCI address
 * @param canAccessPeer   cuDeviceCanAccessPeer: peer access may be enabled from {@code from} to {@code to}
 * @param performanceRank the link's relative performance among this machine's pairs (0 is the best;
 *                        CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK)
 * @param accessSupported CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED
 * @param nativeAtomics   every CUDA atomic works natively over the link (NATIVE_ATOMIC_SUPPORTED):
 *                        NVLink, not PCIe
 * @param cudaArrayAccess CUDA arrays (textures) can be read over the link (CUDA_ARRAY_ACCESS_SUPPORTED)
 */
public record PeerAccess(int from, int to, String fromAddress, String toAddress, Boolean canAccessPeer, Integer performanceRank, Boolean accessSupported,
                         Boolean nativeAtomics, Boolean cudaArrayAccess, Map<String, String> unknown) {

    /** Peer access may be enabled from {@code from} to {@code to}; false also when the driver would not say. */
    public boolean reachable() {
        return Boolean.TRUE.equals(canAccessPeer);
    }
}
