package hostside.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output that remembers its first failure. A PrintWriter (and System.out) swallows
 * write errors, so `hostside machine --json > full-disk/m.json` used to exit 0 with half a JSON
 * document written: the run must end with exit 1 and a line that says the output was lost. A
 * reader that left on purpose (`| head`, EPIPE) gets no line, only the exit status, as a C tool
 * killed by SIGPIPE gives none.
 */
final class StdoutGuard extends OutputStream {
    private final OutputStream out = new FileOutputStream(FileDescriptor.out);
    private IOException failure;

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (failure != null) throw failure; // the first failure stands; nothing written after it
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void flush() throws IOException {
        if (failure != null) throw failure;
        out.flush();
    }

    /** Null while every write succeeded. */
    IOException failure() {
        return failure;
    }

    /** Whether the failure is a reader that went away (EPIPE), which asks for no message. */
    static boolean readerLeft(IOException e) {
        return e.getMessage() != null && e.getMessage().contains("Broken pipe");
    }
}
