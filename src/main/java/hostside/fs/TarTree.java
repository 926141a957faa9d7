package hostside.fs;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

import hostside.core.BadInputException;

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
     * recording 1,431 entries and 51 KB; a snapshot of this project's 2-CPU VM 1,133; a snapshot
     * of a 480-thread machine would hold, by the same counts per CPU and device, about 20,000
     * entries and 20 MB (its /proc/interrupts alone 16 MB, see FileCap).
     */
    /**
     * Entries of any kind: 10 times the largest machine's snapshot. It was a million, which a
     * 13 MB tarball of empty members reached with 3.1 GB of RSS (issue 36); at this limit the
     * index itself takes about 24 MiB (measured: 198,000 empty files in 2,000 folders, 23.5 MiB),
     * counted against {@link #MAX_KEPT_BYTES} like the rest.
     */
    static final int MAX_ENTRIES = 200_000;
    /**
     * Bytes kept in memory: content, names and what the index takes for each file and folder
     * ({@link #NODE_BYTES}, {@link #FOLDER_BYTES}). Seven files at the cap, 10 times the largest
     * snapshot.
     */
    static final long MAX_KEPT_BYTES = 256L << 20;
    /**
     * Bytes unpacked, kept or skipped: a member over the cap is inflated and dropped, which costs
     * time, not memory. 4 GiB lets a recording that holds a stray 3 GiB file still load (its file
     * reads as too large) and bounds the inflating to seconds; a gzip or bzip2 bomb stops there.
     */
    static final long MAX_UNPACKED_BYTES = 4L << 30;
    /** One entry's header with its pax records and GNU long name (a path is at most 4 KiB). */
    static final int MAX_HEADER_BYTES = 1 << 20;
    /** A member's path, in bytes: PATH_MAX, past which Linux opens no file, so no machine has one. */
    static final int MAX_PATH_BYTES = 4096;
    /**
     * Names in a member's path, its top folder and its own name included. The deepest of hwloc's
     * 81 recordings has 15 (a DAX device under a PCIe bridge's NVMe), of this VM's /sys 14
     * (/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/targets/0/regions/0/end), of the H200's
     * 9; each PCIe switch between a GPU and its root port adds two (its upstream and downstream
     * ports), and a GPU node has two or three. 128 is eight times the deepest seen.
     */
    static final int MAX_DEPTH = 128;
    /**
     * What one file, link or folder of the index takes beside its name's bytes and its content:
     * its node in its folder's TreeMap (40 bytes), its name's String (24, and 16 of array
     * header), its record (16) and a file's content array header (16), with alignment. Measured
     * (JDK 25, compressed references, as in any heap under 32 GiB; a larger heap has room for the
     * half as much again it takes there): 198,000 empty files in 2,000 folders took 118 bytes each
     * beside their names.
     */
    static final int NODE_BYTES = 128;
    /**
     * What a folder takes beyond {@link #NODE_BYTES}: its TreeMap, 48 bytes, less the content
     * array it has not. Measured: 1,000 chains of 121 folders one inside another took 158 bytes a
     * folder, one-letter names included; counted, 161.
     */
    static final int FOLDER_BYTES = 32;
    /** A link's target or an unreadable file's why beside its characters: a String (24) and its array's header (16). */
    static final int STRING_BYTES = 40;

    private sealed interface Entry {}
    private record FileEntry(byte[] content) implements Entry {}
    private record UnreadableEntry(String why) implements Entry {}
    /** A FIFO, socket or device node: never read, kept so that a listing shows it. */
    private record SpecialEntry() implements Entry {}
    private record LinkEntry(String target) implements Entry {}
    /** A folder: what it holds, by name, in the order a listing gives. */
    private record DirEntry(TreeMap<String, Entry> children) implements Entry {
        DirEntry() {
            this(new TreeMap<>());
        }
    }

    /**
     * The tarball's tree, each name held once in its folder: the memory a tarball takes grows
     * with what it holds, not with its depth squared (a map from whole paths kept every parent's
     * whole path: one member 50,000 folders deep, a 300-byte tarball, took 57 s and 6.2 GB of
     * RSS to load in an 8 GiB heap).
     */
    private DirEntry root = new DirEntry();
    private final String source;
    /** Bytes of content, names and index kept so far, against MAX_KEPT_BYTES. */
    private long kept;
    private final byte[] scratch = new byte[1 << 16];

    private TarTree(String source) {
        this.source = source;
    }

    private static boolean isGzip(byte[] h) {
        return h.length >= 2 && (h[0] & 0xff) == 0x1f && (h[1] & 0xff) == 0x8b;
    }

    private static boolean isBzip2(byte[] h) {
        return h.length >= 3 && h[0] == 'B' && h[1] == 'Z' && h[2] == 'h';
    }

    private static boolean isTar(byte[] h) {
        return h.length >= 262 && new String(h, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
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
                    throw new BadInputException(String.format(Locale.ROOT,
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
        List<String> names = names(e.getName());
        Entry entry;
        String unreadable = e.getExtraPaxHeader(UNREADABLE_KEY);
        // commons-compress calls FIFOs and devices files too (isFile is "not a folder"): ask first
        if (e.isSymbolicLink()) entry = new LinkEntry(linkTarget(e));
        else if (e.isDirectory()) entry = new DirEntry();
        else if (e.isFIFO() || e.isCharacterDevice() || e.isBlockDevice()) entry = new SpecialEntry();
        else if (unreadable != null) entry = new UnreadableEntry(unreadable);
        else if (!e.isFile()) entry = null;
        else if (e.getSize() > FileCap.BYTES) entry = new UnreadableEntry(FileCap.tooLarge(e.getSize()));
        else {
            keep(e.getSize());
            entry = new FileEntry(content.readNBytes((int) e.getSize()));
        }
        drain(content);
        if (entry == null || names.isEmpty()) return;
        keep(entry instanceof LinkEntry l ? STRING_BYTES + bytesOf(l.target()) : entry instanceof UnreadableEntry u ? STRING_BYTES + bytesOf(u.why()) : 0);
        put(names, entry);
    }

    /** The names along a member's path, "." and ".." resolved as written (never above the top); bounded by PATH_MAX and {@link #MAX_DEPTH}. */
    private List<String> names(String path) {
        if (path.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: a member's path is longer than %d bytes (PATH_MAX): not a recorded machine",
                    source, MAX_PATH_BYTES));
        }
        List<String> names = new ArrayList<>();
        for (String s : path.split("/")) {
            if (s.isEmpty() || s.equals(".")) continue;
            if (s.equals("..")) {
                if (!names.isEmpty()) names.removeLast();
                continue;
            }
            names.add(s);
        }
        if (names.size() > MAX_DEPTH) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: a member's path is more than %d levels deep: not a recorded machine",
                    source, MAX_DEPTH));
        }
        return names;
    }

    /** A link's target: Linux's are shorter than PATH_MAX. */
    private String linkTarget(TarArchiveEntry e) {
        if (e.getLinkName().getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: a link's target is longer than %d bytes (PATH_MAX): not a recorded machine",
                    source, MAX_PATH_BYTES));
        }
        return e.getLinkName();
    }

    /** What a String's characters take in the heap: one byte each if all are Latin-1, two otherwise. */
    private static long bytesOf(String s) {
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) > 0xff) return 2L * s.length();
        return s.length();
    }

    private void keep(long bytes) {
        kept += bytes;
        if (kept > MAX_KEPT_BYTES) {
            throw new BadInputException(String.format(Locale.ROOT,
                    "%s: holds more than %d MiB of files and names: a recorded machine holds a few MiB", source, MAX_KEPT_BYTES >> 20));
        }
    }

    private void drain(InputStream content) throws IOException {
        while (content.read(scratch) > 0) {
            // dropped: see add
        }
    }

    /**
     * Puts {@code entry} at {@code names}, making the folders on the way (tarballs may omit them;
     * a folder takes the place of a file of its name). Every file, link and folder made is
     * counted against {@link #MAX_KEPT_BYTES} with its name, a member replaced included: what
     * is counted is never less than what is held.
     */
    private void put(List<String> names, Entry entry) {
        DirEntry dir = root;
        for (String name : names.subList(0, names.size() - 1)) {
            if (dir.children().get(name) instanceof DirEntry d) {
                dir = d;
                continue;
            }
            keep(NODE_BYTES + FOLDER_BYTES + bytesOf(name));
            DirEntry made = new DirEntry();
            dir.children().put(name, made);
            dir = made;
        }
        String name = names.getLast();
        if (dir.children().get(name) instanceof DirEntry && entry instanceof DirEntry) return; // keep what it holds
        keep(NODE_BYTES + (entry instanceof DirEntry ? FOLDER_BYTES : 0) + bytesOf(name));
        dir.children().put(name, entry);
    }

    /** hwloc's tarballs and ours hold one top folder; its name is the machine's, not part of the paths. */
    private void stripTopFolder() {
        if (root.children().containsKey("sys") || root.children().containsKey("proc")) return;
        if (root.children().size() == 1 && root.children().firstEntry().getValue() instanceof DirEntry top) root = top;
    }

    /** The entry at an absolute path as {@link FsRoot} hands them ("/sys/devices"), null where there is none. */
    private Entry at(String path) {
        Entry e = root;
        for (int from = 1; from < path.length(); ) {
            int slash = path.indexOf('/', from);
            int end = slash < 0 ? path.length() : slash;
            if (!(e instanceof DirEntry d)) return null;
            e = d.children().get(path.substring(from, end));
            if (e == null) return null;
            from = end + 1;
        }
        return e;
    }

    @Override
    public Kind kind(String path) {
        return switch (at(path)) {
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
        if (at(path) instanceof LinkEntry l) return l.target();
        throw new NoSuchFileException(path);
    }

    @Override
    public byte[] read(String path) throws IOException {
        return switch (at(path)) {
            case FileEntry f -> f.content();
            case UnreadableEntry u -> throw new IOException(u.why());
            case SpecialEntry s -> throw new IOException(FileCap.NOT_REGULAR);
            case DirEntry d -> throw new IOException("is a directory");
            case null, default -> throw new NoSuchFileException(path);
        };
    }

    @Override
    public List<String> list(String path) throws IOException {
        if (at(path) instanceof DirEntry d) return new ArrayList<>(d.children().keySet());
        throw new NoSuchFileException(path);
    }

    @Override
    public String describe() {
        return source;
    }
}
