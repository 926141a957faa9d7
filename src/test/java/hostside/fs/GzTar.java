package hostside.fs;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

/**
 * A .tar.gz written piece by piece as concatenated gzip members (RFC 1952 allows them, and
 * GZIPInputStream reads them as one stream), so that GiBs of zeros cost one compressed MiB
 * written many times: a tarball with a 3 GiB member is made in milliseconds, not by deflating
 * 3 GiB. Each piece is whole 512-byte tar records.
 */
final class GzTar implements Closeable {
    private static final int MIB = 1 << 20;
    private static final byte[] ZERO_MIB = gz(new byte[MIB]);

    private final OutputStream out;

    GzTar(Path file) throws IOException {
        out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
    }

    static byte[] gz(byte[] data) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(b) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            g.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    /** The 512-byte ustar header of {@code e}. */
    static byte[] header(TarArchiveEntry e) {
        byte[] h = new byte[512];
        e.writeEntryHeader(h);
        return h;
    }

    /** Raw bytes already in tar records, as one gzip member. */
    GzTar raw(byte[] records) throws IOException {
        out.write(gz(records));
        return this;
    }

    /** A gzip member made beforehand (by {@link #gz}), written as it is. */
    GzTar rawGz(byte[] member) throws IOException {
        out.write(member);
        return this;
    }

    /** A member's header followed by {@code size} zero bytes (its content and padding). */
    GzTar zeros(String name, long size) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name);
        e.setSize(size);
        raw(header(e));
        long padded = (size + 511) / 512 * 512;
        for (long i = 0; i < padded / MIB; i++) out.write(ZERO_MIB);
        if (padded % MIB != 0) raw(new byte[(int) (padded % MIB)]);
        return this;
    }

    /** A small regular file. */
    GzTar file(String name, String content) throws IOException {
        byte[] c = content.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        TarArchiveEntry e = new TarArchiveEntry(name);
        e.setSize(c.length);
        byte[] rec = new byte[512 + (c.length + 511) / 512 * 512];
        System.arraycopy(header(e), 0, rec, 0, 512);
        System.arraycopy(c, 0, rec, 512, c.length);
        return raw(rec);
    }

    /**
     * A small regular file whose path is in a pax record, as GNU tar writes a path past 100
     * bytes: written by hand, as commons-compress takes seconds to encode a path of 100 KB.
     */
    GzTar paxFile(String path, String content) throws IOException {
        byte[] value = (" path=" + path + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int length = value.length; // a record is "<its own length in digits> path=...\n"
        while (length != value.length + Integer.toString(length).length()) length = value.length + Integer.toString(length).length();
        byte[] record = (length + new String(value, java.nio.charset.StandardCharsets.UTF_8)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        TarArchiveEntry pax = new TarArchiveEntry("PaxHeaders/f", org.apache.commons.compress.archivers.tar.TarConstants.LF_PAX_EXTENDED_HEADER_LC);
        pax.setSize(record.length);
        byte[] rec = new byte[512 + (record.length + 511) / 512 * 512];
        System.arraycopy(header(pax), 0, rec, 0, 512);
        System.arraycopy(record, 0, rec, 512, record.length);
        raw(rec);
        return file("f", content);
    }

    /** The end-of-archive records, and the file closed. */
    @Override
    public void close() throws IOException {
        out.write(gz(new byte[1024]));
        out.close();
    }
}
