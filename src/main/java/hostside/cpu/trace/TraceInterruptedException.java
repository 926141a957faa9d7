package hostside.cpu.trace;

/** The thread running a trace was interrupted; strace and its command were stopped and cleaned up. */
public class TraceInterruptedException extends RuntimeException {
    public TraceInterruptedException(String message) {
        super(message, null, false, false);
    }
}
