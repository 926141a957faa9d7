package hostside.gpu.nvml;

/**
 * An NVML call that failed: "nvmlDeviceGetEccMode: GPU is lost (15)", the exported symbol,
 * nvmlErrorString's words and the nvmlReturn_t, so a user can look the code up in nvml.h.
 */
public final class NvmlException extends RuntimeException {
    private final String function;
    private final int code;
    private final String reason;

    public NvmlException(String function, int code, String reason) {
        super(function + ": " + reason);
        this.function = function;
        this.code = code;
        this.reason = reason;
    }

    /** The exported symbol that failed, e.g. "nvmlDeviceGetPciInfo_v3". */
    public String function() {
        return function;
    }

    /** The nvmlReturn_t. */
    public int code() {
        return code;
    }

    /** The message without the function name: "Not Supported (3)". */
    public String reason() {
        return reason;
    }

    /** True for the codes that describe the machine rather than a fault (see {@link Nvml#isNormalState}). */
    public boolean isNormalState() {
        return Nvml.isNormalState(code);
    }
}
