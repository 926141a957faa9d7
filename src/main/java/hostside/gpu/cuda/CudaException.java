package hostside.gpu.cuda;

/** A CUDA driver call that failed: which call, the CUresult's name and number. */
public final class CudaException extends RuntimeException {
    private final int code;

    CudaException(String call, int code, String name) {
        super(call + ": " + name + " (" + code + ")", null, false, false);
        this.code = code;
    }

    CudaException(String message) {
        super(message, null, false, false);
        this.code = -1;
    }

    public int code() {
        return code;
    }
}
