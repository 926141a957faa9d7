package hostside.io.measure;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.fs.FsRoot;

/**
 * The transparent huge page that O_DIRECT read buffers are made of ({@link Buffers#whole}), so that
 * each request's buffer is physically whole: one DMA segment, never more than a virtual disk takes
 * in one request. Where the kernel gives none (THP {@code never}, no THP at all) or its page is
 * larger than {@link #LARGEST} (arm64 with 64 KiB base pages: 512 MiB, a region no measurement
 * should fault in for a 1 MiB buffer), the buffers stay in base pages, in whatever physical
 * pieces the allocator gives, and their pieces are said beside the figure.
 *
 * @param bytes  the PMD-sized page, {@code hpage_pmd_size}
 * @param policy THP's {@code enabled} setting, {@code always} or {@code madvise}
 */
public record HugePage(long bytes, String policy) {
    static final String THP = "/sys/kernel/mm/transparent_hugepage";
    /** The largest page a buffer is made of: 2 MiB on x86-64 and on arm64 with 4 KiB base pages; not 32 MiB (16 KiB) or 512 MiB (64 KiB). */
    static final long LARGEST = 4L << 20;
    private static final Pattern CHOSEN = Pattern.compile("\\[(\\w+)]");

    /** The machine's huge page for buffers, read through {@code fs}; empty where there is none to use. */
    public static Optional<HugePage> read(FsRoot fs) {
        Optional<String> enabled = fs.text(THP + "/enabled"), pmd = fs.text(THP + "/hpage_pmd_size");
        if (enabled.isEmpty() || pmd.isEmpty()) return Optional.empty();
        return of(enabled.get(), pmd.get());
    }

    /** From the two files' text: {@code enabled} ("always [madvise] never") and {@code hpage_pmd_size} (bytes). */
    static Optional<HugePage> of(String enabled, String pmdSize) {
        Matcher m = CHOSEN.matcher(enabled);
        if (!m.find() || !(m.group(1).equals("always") || m.group(1).equals("madvise"))) return Optional.empty();
        long bytes;
        try {
            bytes = Long.parseLong(pmdSize.strip());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (bytes <= 0 || Long.bitCount(bytes) != 1 || bytes > LARGEST) return Optional.empty();
        return Optional.of(new HugePage(bytes, m.group(1)));
    }

    /** Huge pages a region of {@code bytes} rounded up to whole pages takes. */
    public long pagesFor(long bytes) {
        return (bytes + this.bytes - 1) / this.bytes;
    }
}
