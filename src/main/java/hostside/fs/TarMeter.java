package hostside.fs;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The unpacked tar stream as the tar reader takes it, counted, with an allowance: each entry's
 * header (with its pax records and GNU long names, which the tar reader gathers in memory) may
 * take {@code headerBytes}, its content its own size, and the whole stream {@code totalBytes}.
 * Past the allowance a read fails with {@link Exceeded}: a gzip bomb or a 3 GiB "long name"
 * ends as bad input after a bounded amount of inflating, never in OutOfMemoryError.
 */
final class TarMeter extends FilterInputStream {
    /** A limit was reached; the message says which. */
    static final class Exceeded extends IOException {
        Exceeded(String message) {
            super(message);
        }
    }

    private final long headerBytes;
    private final long totalBytes;
    private long taken;
    private long allowed;
    private String over;

    TarMeter(InputStream in, long headerBytes, long totalBytes) {
        super(in);
        this.headerBytes = headerBytes;
        this.totalBytes = totalBytes;
        header();
    }

    /** The next bytes are a header: at most {@code headerBytes} of them. */
    void header() {
        allow(headerBytes, String.format(java.util.Locale.ROOT,
                "a tar header (pax records or a GNU long name) of more than %d MiB", headerBytes >> 20));
    }

    /** The next bytes are an entry's content of {@code size} bytes. */
    void content(long size) {
        allow(size, "an entry longer than its header says");
    }

    private void allow(long bytes, String why) {
        long want = taken + Math.max(0, bytes);
        if (want < 0 || want >= totalBytes) {
            allowed = totalBytes;
            over = String.format(java.util.Locale.ROOT, "unpacks to more than %d GiB", totalBytes >> 30);
        } else {
            allowed = want;
            over = why;
        }
    }

    private long left() throws Exceeded {
        if (taken >= allowed) throw new Exceeded(over);
        return allowed - taken;
    }

    @Override
    public int read() throws IOException {
        left();
        int b = in.read();
        if (b >= 0) taken++;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) return 0;
        int n = in.read(b, off, (int) Math.min(len, left()));
        if (n > 0) taken += n;
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        if (n <= 0) return 0;
        long k = in.skip(Math.min(n, left()));
        if (k > 0) taken += k;
        return k;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public synchronized void mark(int readlimit) {
        // not supported: the count would go back with a reset
    }

    @Override
    public synchronized void reset() throws IOException {
        throw new IOException("mark/reset not supported");
    }
}
