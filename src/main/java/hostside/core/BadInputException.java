package hostside.core;

/** Input the user gave that cannot be used: a one-line message, exit code 2, no stack trace. */
public class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message, null, false, false);
    }
}
