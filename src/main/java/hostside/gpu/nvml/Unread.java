package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_FUNCTION_NOT_FOUND;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_GPU_IS_LOST;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_NOT_SUPPORTED;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_NO_PERMISSION;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_RESET_REQUIRED;

/**
 * Why NVML did not give one field of the health read. The predicates are health.md section 9's
 * table: not supported is "n/a on this GPU", no permission "unknown (needs root)", a missing
 * symbol "unknown (driver too old)"; a lost GPU and one that needs a reset are findings.
 *
 * @param field the field's path in {@link NvmlHealth}'s JSON, "memory.remappedRows" or
 *              "nvLinks[3].replayErrors"
 * @param code  the nvmlReturn_t; NVML_ERROR_FUNCTION_NOT_FOUND (13) also when the library does not
 *              export the function; 0 (NVML_SUCCESS) when NVML answered with a value this header
 *              does not know (a recovery action newer than hostside), which {@code why} names
 * @param why   NVML's words with the call, "nvmlDeviceGetRetiredPages: Not Supported (3)"
 */
public record Unread(String field, int code, String why) {

    public boolean notSupported() {
        return code == NVML_ERROR_NOT_SUPPORTED;
    }

    public boolean noPermission() {
        return code == NVML_ERROR_NO_PERMISSION;
    }

    /** The library lacks the function, or has it and says FUNCTION_NOT_FOUND. */
    public boolean driverTooOld() {
        return code == NVML_ERROR_FUNCTION_NOT_FOUND;
    }

    /** NVML_ERROR_GPU_IS_LOST: the GPU fell off the bus (cf. Xid 79); nothing more was asked of it. */
    public boolean gpuLost() {
        return code == NVML_ERROR_GPU_IS_LOST;
    }

    /** NVML_ERROR_RESET_REQUIRED: the GPU needs a reset before it answers again; nothing more was asked of it. */
    public boolean resetRequired() {
        return code == NVML_ERROR_RESET_REQUIRED;
    }

    /** Whether the read of the GPU stopped here (health.md section 9: stop querying that GPU). */
    boolean stopsTheGpu() {
        return gpuLost() || resetRequired();
    }
}
