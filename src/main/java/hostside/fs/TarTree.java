package hostside.fs;

import hostside.core.BadInputException;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/**
 * A recorded machine held in memory: a tarball in the layout of hwloc's test suite and of
 * {@code hostside snapshot} (one top folder holding sys/ and proc/, or sys/ and proc/ at the top).
 */
final class TarTree implements Tree {
    /** Pax header key that marks a file which could not be read when it was recorded. */
    static final String UNREADABLE_KEY = "hostside.unreadable";

    /*
     * What one tarball may hold, so that no tarball takes unbounded memory or time to load. A
     * real recording is far below each: hwloc's test suite's largest (81 machines, up to 128
     * CPUs) holds 9,384 entries and 407 KB of content, unpacking to about 5 MB; the H200's
     * recording 1,431 entries and 51 KB; a snapshot of a 480-thread machine would hold, by the
     * same counts per CPU and device, about 20,000 entries and 20 MB (its /proc/interrupts alone
     * 16 MB, see FileCap).
     */
    /**
     * Entries of any kind: 50 times the largest machine's snapshot. At the limit the index takes
     * about 240 MiB of heap (measured: 990,000 entries of 45-character names, 237 MiB).
     */
    static final int MAX_ENTRIES = 1_000_000;
    /** Bytes kept in memory, content and names: 8 files at the cap, 10 times the largest snapshot. */
    static final long MAX_KEPT_BYTES = 256L << 20;
    /**
     * Bytes unpacked, kept or skipped: a member over the cap is inflated and dropped, which costs
     * time, not memory. 4 GiB lets a recording that holds a stray 3 GiB file still load (its file
     * reads as too large) and bounds the inflating to seconds; a gzip or bzip2 bomb stops there.
     */
    static final long MAX_UNPACKED_BYTES = 4L << 30;
    /** One entry's header with its pax records and GNU long name (a path is at most 4 KiB). */
    static final int MAX_HEADER_BYTES = 1 << 20;

    private sealed interface Entry {}
    private record FileEntry(byte[] content) implements Entry {}
    private record UnreadableEntry(String why) implements Entry {}
    /** A FIFO, socket or device node: never read, kept so that a listing shows it. */
    private record SpecialEntry() implements Entry {}
    private record LinkEntry(String target) implements Entry {}
    private record DirEntry(TreeSet<String> children) implements Entry {}

    private final Map<String, Entry> entries = new HashMap<>();
    private final String source;
    /** Bytes of names and content kept so far, against MAX_KEPT_BYTES. */
    private long kept;
    private final byte[] scratch = new byte[1 << 16];

    private TarTree(String source) {
        this.source = source;
        entries.put("/", new DirEntry(new TreeSet<>()));
    }

    private static boolean isGzip(byte[] h) {
        return h.length >= 2 && (h[0] & 0xff) == 0x1f && (h[1] & 0xff) == 0x8b;
    }

    private static boolean isBzip2(byte[] h) {
        return h.length >= 3 && h[0] == 'B' && h[1] == 'Z' && h[2] == 'h';
    }

    private static boolean isTar(byte[] h) {
        return h.length >= 262 && new String(h, 257, 5, java.nio.charset.StandardCharsets.US_ASCII).equals("ustar");
    }

    static TarTree load(Path file) {
        String name = file.toString();
        byte[] head;
        // opened as InputFile opens (each time): a FIFO or device swapped in after FsRoot's look is refused, not read
        try (InputStream in = InputFile.open(file, MAX_UNPACKED_BYTES)) {
            head = in.readNBytes(512);
        } catch (InputFile.NotRegular e) {
            throw new BadInputException(name + ": not a folder nor a tarball (" + e.getMessage() + ")");
        } catch (InputFile.TooLarge e) {
            throw new BadInputException(name + ": not a recorded machine (" + e.getMessage() + ")");
        } catch (NoSuchFileException e) {
            throw new BadInputException(name + ": no such file");
        } catch (AccessDeniedException e) {
            throw new BadInputException(name + ": permission denied");
        } catch (IOException e) {
            throw new BadInputException(name + ": cannot read (" + e.getMessage() + ")");
        }
        TarTree tree = new TarTree(name);
        try (InputStream raw = new BufferedInputStream(InputFile.open(file, MAX_UNPACKED_BYTES), 1 << 16);
             InputStream unpacked = isGzip(head) ? new GZIPInputStream(raw, 1 << 16)
                     : isBzip2(head) ? new BZip2CompressorInputStream(raw)
                     : raw;
             TarMeter meter = new TarMeter(unpacked, MAX_HEADER_BYTES, MAX_UNPACKED_BYTES);
             TarArchiveInputStream tar = new TarArchiveInputStream(meter)) {
            if (!isGzip(head) && !isBzip2(head) && !isTar(head)) {
                throw new BadInputException(name + ": not a tarball (.tar, .tar.gz or .tar.bz2) nor a folder");
            }
            TarArchiveEntry e;
            int count = 0;
            while ((e = tar.getNextEntry()) != null) {
                if (++count > MAX_ENTRIES) {
                    throw new BadInputException(String.format(java.util.Locale.ROOT,
                            "%s: more than %d entries: a recorded machine holds tens of thousands", name, MAX_ENTRIES));
                }
                meter.content(e.getSize());
                tree.add(e, tar);
                meter.header();
            }
            if (count == 0) throw new BadInputException(name + ": the tarball is empty");
        } catch (BadInputException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            TarMeter.Exceeded limit = exceeded(e);
            if (limit != null) throw new BadInputException(name + ": " + limit.getMessage() + ": not a recorded machine");
            throw new BadInputException(name + ": not a readable tarball (" + oneLine(e) + ")");
        }
        tree.stripTopFolder();
        return tree;
    }

    /** The tar reader may wrap what the meter threw. */
    private static TarMeter.Exceeded exceeded(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof TarMeter.Exceeded x) return x;
        return null;
    }

    private static String oneLine(Exception e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    /**
     * One member. Only a regular file's content is read into memory, and only up to the cap: a
     * larger one is read through in chunks and dropped (its size is in its header), and reads
     * as "too large". Whatever is left of any member is drained the same way before the next.
     */
    private void add(TarArchiveEntry e, InputStream content) throws IOException {
        String path = normalise(e.getName());
        Entry entry;
        String unreadable = e.getExtraPaxHeader(UNREADABLE_KEY);
        // commons-compress calls FIFOs and devices files too (isFile is "not a folder"): ask first
        if (e.isSymbolicLink()) entry = new LinkEntry(e.getLinkName());
        else if (e.isDirectory()) entry = new DirEntry(new TreeSet<>());
        else if (e.isFIFO() || e.isCharacterDevice() || e.isBlockDevice()) entry = new SpecialEntry();
        else if (unreadable != null) entry = new UnreadableEntry(unreadable);
        else if (!e.isFile()) entry = null;
        else if (e.getSize() > FileCap.BYTES) entry = new UnreadableEntry(FileCap.tooLarge(e.getSize()));
        else {
            keep(e.getSize() + path.length());
            entry = new FileEntry(content.readNBytes((int) e.getSize()));
        }
        drain(content);
        if (entry == null || path.equals("/")) return;
        if (!(entry instanceof FileEntry)) {
            keep(path.length() + (entry instanceof LinkEntry l ? l.target().length() : 0)
                    + (entry instanceof UnreadableEntry u ? u.why().length() : 0));
        }
        put(path, entry);
    }

    private void keep(long bytes) {
        kept += bytes;
        if (kept > MAX_KEPT_BYTES) {
            throw new BadInputException(String.format(java.util.Locale.ROOT,
                    "%s: holds more than %d MiB of files and names: a recorded machine holds a few MiB", source, MAX_KEPT_BYTES >> 20));
        }
    }

    private void drain(InputStream content) throws IOException {
        while (content.read(scratch) > 0) {
            // dropped: see add
        }
    }

    private void put(String path, Entry entry) {
        Entry old = entries.get(path);
        if (old instanceof DirEntry d && entry instanceof DirEntry) return; // keep children
        entries.put(path, entry);
        // Tarballs may omit directory entries: make the parents.
        String child = path;
        while (!child.equals("/")) {
            String parent = parentOf(child);
            DirEntry dir;
            if (entries.get(parent) instanceof DirEntry d) {
                dir = d;
            } else {
                dir = new DirEntry(new TreeSet<>());
                entries.put(parent, dir);
            }
            if (!dir.children().add(nameOf(child))) break;
            child = parent;
        }
    }

    /** hwloc's tarballs and ours hold one top folder; its name is the machine's, not part of the paths. */
    private void stripTopFolder() {
        DirEntry top = (DirEntry) entries.get("/");
        if (top.children().contains("sys") || top.children().contains("proc")) return;
        if (top.children().size() != 1) return;
        String prefix = "/" + top.children().first();
        if (!(entries.get(prefix) instanceof DirEntry)) return;
        Map<String, Entry> moved = new HashMap<>();
        for (var en : entries.entrySet()) {
            String p = en.getKey();
            if (p.equals(prefix)) moved.put("/", en.getValue());
            else if (p.startsWith(prefix + "/")) moved.put(p.substring(prefix.length()), en.getValue());
        }
        entries.clear();
        entries.putAll(moved);
    }

    static String normalise(String name) {
        List<String> parts = new ArrayList<>();
        for (String s : name.split("/")) {
            if (s.isEmpty() || s.equals(".")) continue;
            if (s.equals("..")) {
                if (!parts.isEmpty()) parts.removeLast();
                continue;
            }
            parts.add(s);
        }
        return "/" + String.join("/", parts);
    }

    private static String parentOf(String path) {
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }

    private static String nameOf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public Kind kind(String path) {
        return switch (entries.get(path)) {
            case null -> Kind.MISSING;
            case DirEntry d -> Kind.DIR;
            case LinkEntry l -> Kind.LINK;
            case FileEntry f -> Kind.FILE;
            case UnreadableEntry u -> Kind.FILE;
            case SpecialEntry s -> Kind.SPECIAL;
        };
    }

    @Override
    public String linkTarget(String path) throws IOException {
        if (entries.get(path) instanceof LinkEntry l) return l.target();
        throw new NoSuchFileException(path);
    }

    @Override
    public byte[] read(String path) throws IOException {
        return switch (entries.get(path)) {
            case FileEntry f -> f.content();
            case UnreadableEntry u -> throw new IOException(u.why());
            case SpecialEntry s -> throw new IOException(FileCap.NOT_REGULAR);
            case DirEntry d -> throw new IOException("is a directory");
            case null, default -> throw new NoSuchFileException(path);
        };
    }

    @Override
    public List<String> list(String path) throws IOException {
        if (entries.get(path) instanceof DirEntry d) return new ArrayList<>(d.children());
        throw new NoSuchFileException(path);
    }

    @Override
    public String describe() {
        return source;
    }
}
