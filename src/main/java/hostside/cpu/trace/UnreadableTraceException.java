package hostside.cpu.trace;

/** strace's output file held no summary or trace that can be read: a one-line message. */
public class UnreadableTraceException extends RuntimeException {
    public UnreadableTraceException(String message) {
        super(message, null, false, false);
    }

    /** The message alone: the CLI prints an unexpected failure as "hostside: failed: " + the exception, and a class name tells a user nothing. */
    @Override
    public String toString() {
        return getMessage();
    }
}
