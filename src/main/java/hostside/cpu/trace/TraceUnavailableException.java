package hostside.cpu.trace;

import hostside.core.BadInputException;

/**
 * Tracing cannot happen here, for a reason the user can fix: strace is not installed, or ptrace
 * is denied. One line that says what to do; exit code 2 unless the caller skips the trace.
 */
public class TraceUnavailableException extends BadInputException {
    public TraceUnavailableException(String message) {
        super(message);
    }
}
