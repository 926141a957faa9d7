package hostside.core;

/**
 * Input the user gave that cannot be used: a one-line message, exit code 2, no stack trace. The
 * message quotes file names and values from the input, so it is made {@link Printable} here, once:
 * printed by Main, passed over by compare or kept as a drill's reason, it holds no control.
 */
public class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(Printable.of(message), null, false, false);
    }
}
