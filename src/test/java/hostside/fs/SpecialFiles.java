package hostside.fs;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;

/** Makes the files a recording should never hold: FIFOs, sockets, device nodes, sparse giants. */
public final class SpecialFiles {
    /** Set to 1 to let the device-node cases skip where mknod is refused (not root); CI runs as root and must run them. */
    static final String ALLOW = "HOSTSIDE_ALLOW_NO_MKNOD_TEST";

    private SpecialFiles() {}

    public static Path fifo(Path p) throws Exception {
        Files.createDirectories(p.getParent());
        Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        String out = new String(mk.getInputStream().readAllBytes());
        if (mk.waitFor() != 0) fail("mkfifo " + p + ": " + out);
        return p;
    }

    /** A bound unix socket; the channel stays open for the test (closed with it). */
    public static ServerSocketChannel socket(Path p) throws IOException {
        Files.createDirectories(p.getParent());
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        s.bind(UnixDomainSocketAddress.of(p));
        return s;
    }

    /** A character device node (mknod needs root, which CI has). */
    public static Path charDevice(Path p, int major, int minor) throws Exception {
        Files.createDirectories(p.getParent());
        Process mk = new ProcessBuilder("mknod", p.toString(), "c", Integer.toString(major), Integer.toString(minor))
                .redirectErrorStream(true).start();
        String out = new String(mk.getInputStream().readAllBytes()).strip();
        if (mk.waitFor() != 0) {
            String why = "mknod " + p + " refused (" + out + "): this test needs root, as CI has; set " + ALLOW + "=1 to skip it elsewhere";
            if ("1".equals(System.getenv(ALLOW))) Assumptions.abort(why);
            fail(why);
        }
        return p;
    }

    /** A file of {@code size} bytes that uses no disk: its size set, nothing written. */
    public static Path sparse(Path p, long size) throws IOException {
        Files.createDirectories(p.getParent());
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(size);
        }
        return p;
    }
}
