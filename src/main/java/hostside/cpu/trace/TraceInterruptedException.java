package hostside.cpu.trace;

/** The thread running a trace was interrupted; strace and its command were stopped and cleaned up. */
public class TraceInterruptedException extends RuntimeException {
    public TraceInterruptedException(String message) {
        super(message, null, false, false);
    }

    /** The message alone: the CLI prints an unexpected failure as "hostside: failed: " + the exception, and a class name tells a user nothing. */
    @Override
    public String toString() {
        return getMessage();
    }
}
