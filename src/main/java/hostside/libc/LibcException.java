package hostside.libc;

/** A libc call that failed, with the call and errno in the message ("mmap: ENOMEM (Cannot allocate memory)"). */
public final class LibcException extends RuntimeException {
    private final int errno;

    public LibcException(String message) {
        this(message, 0);
    }

    public LibcException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }
}
