package hostside.core;

/** A file under the root held something its parser cannot make sense of. */
public class GarbageException extends RuntimeException {
    public GarbageException(String message) {
        super(message, null, false, false);
    }
}
