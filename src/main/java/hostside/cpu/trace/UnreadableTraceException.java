package hostside.cpu.trace;

/** strace's output file held no summary or trace that can be read: a one-line message. */
public class UnreadableTraceException extends RuntimeException {
    public UnreadableTraceException(String message) {
        super(message, null, false, false);
    }
}
