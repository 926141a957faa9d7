package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.*;

import java.util.List;
import java.util.Map;

/**
 * What nvmlDeviceGetP2PStatus says of one ordered pair of GPUs: per capability, whether the first
 * may use the second's memory that way, and if not, why, in {@code nvidia-smi topo -p2p}'s words.
 * NVML answers without a CUDA context, and names the cause CUDA's cuDeviceCanAccessPeer does not:
 * the chipset (root complex, ACS or BIOS), the topology (no P2P across these host bridges), the
 * GPU (consumer parts), or a driver registry key.
 *
 * @param from      NVML index of the GPU that would access
 * @param to        NVML index of the GPU whose memory it would access
 * @param fromBusId {@code from}'s PCI address in the kernel's spelling, as {@link NvmlGpu#pciBusId()}
 * @param toBusId   {@code to}'s
 * @param status    capability ("read", "write", "nvlink", "atomics", "pci") to its status ("OK", "CNS",
 *                  "GNS", "TNS", "disabled by regkey", "NS", "U"), in that order; a capability NVML
 *                  would not answer is left out and named in {@code unknowns}
 * @param unknowns  "read: nvmlDeviceGetP2PStatus: Not Supported (3)" and the like
 */
public record NvmlP2p(int from, int to, String fromBusId, String toBusId, Map<String, String> status, List<String> unknowns) {

    /** The capabilities asked, in nvidia-smi's order (topo -p2p r, w, n, a, p), with their nvml.h index. */
    public static final List<Map.Entry<String, Integer>> CAPABILITIES = List.of(
            Map.entry("read", NVML_P2P_CAPS_INDEX_READ), Map.entry("write", NVML_P2P_CAPS_INDEX_WRITE),
            Map.entry("nvlink", NVML_P2P_CAPS_INDEX_NVLINK), Map.entry("atomics", NVML_P2P_CAPS_INDEX_ATOMICS),
            Map.entry("pci", NVML_P2P_CAPS_INDEX_PCI));

    public NvmlP2p {
        status = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(status));
        unknowns = List.copyOf(unknowns);
    }

    /** nvidia-smi topo -p2p's legend for an nvmlGpuP2PStatus_t. */
    static String word(int status) {
        return switch (status) {
            case NVML_P2P_STATUS_OK -> "OK";
            case NVML_P2P_STATUS_CHIPSET_NOT_SUPPORTED -> "CNS";
            case NVML_P2P_STATUS_GPU_NOT_SUPPORTED -> "GNS";
            case NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED -> "TNS";
            case NVML_P2P_STATUS_DISABLED_BY_REGKEY -> "disabled by regkey";
            case NVML_P2P_STATUS_NOT_SUPPORTED -> "NS";
            default -> "U";
        };
    }

    /** What a status other than OK means for peer traffic, in a clause. */
    public static String meaning(String word) {
        return switch (word) {
            case "CNS" -> "the chipset does not support it (the root complex, ACS or a BIOS setting)";
            case "GNS" -> "the GPU does not support it (consumer GPUs have P2P disabled)";
            case "TNS" -> "the topology does not support it (the path crosses host bridges or sockets that do not forward P2P)";
            case "disabled by regkey" -> "a driver registry key disables it";
            case "NS" -> "not supported";
            default -> "unknown";
        };
    }
}
