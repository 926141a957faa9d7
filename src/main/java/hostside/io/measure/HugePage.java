package hostside.io.measure;

import java.util.Optional;

import hostside.fs.FsRoot;
import hostside.vm.facts.VmFacts;

/**
 * The transparent huge page that O_DIRECT read buffers are made of ({@link Buffers#whole}), so that
 * each request's buffer is physically whole: one DMA segment, never more than a virtual disk takes
 * in one request. Where the kernel gives none (THP {@code never}, no THP at all) or its page is
 * larger than {@link #LARGEST} (arm64 with 64 KiB base pages: 512 MiB, a region no measurement
 * should fault in for a 1 MiB buffer), the buffers stay in base pages, in whatever physical
 * pieces the allocator gives, and their pieces are said beside the figure.
 *
 * @param bytes the PMD-sized page, {@code hpage_pmd_size}
 */
public record HugePage(long bytes) {
    static final String THP = "/sys/kernel/mm/transparent_hugepage";
    /** The largest page a buffer is made of: 2 MiB on x86-64 and on arm64 with 4 KiB base pages; not 32 MiB (16 KiB) or 512 MiB (64 KiB). */
    static final long LARGEST = 4L << 20;

    /** The machine's huge page for buffers, read through {@code fs}; empty where there is none to use. */
    public static Optional<HugePage> read(FsRoot fs) {
        Optional<String> enabled = fs.text(THP + "/enabled"), pmd = fs.text(THP + "/hpage_pmd_size");
        if (enabled.isEmpty() || pmd.isEmpty()) return Optional.empty();
        return of(enabled.get(), pmd.get());
    }

    /**
     * From the two files' text: {@code enabled} ("always [madvise] never", read as the vm facts read
     * THP's settings) and {@code hpage_pmd_size} (bytes). A page only where a mapping that asks gets
     * one: {@code always} or {@code madvise}.
     */
    static Optional<HugePage> of(String enabled, String pmdSize) {
        String chosen;
        long bytes;
        try {
            chosen = VmFacts.Setting.parse(enabled).selected();
            bytes = Long.parseLong(pmdSize.strip());
        } catch (IllegalArgumentException e) { // NumberFormatException too
            return Optional.empty();
        }
        if (!(chosen.equals("always") || chosen.equals("madvise"))) return Optional.empty();
        if (bytes <= 0 || Long.bitCount(bytes) != 1 || bytes > LARGEST) return Optional.empty();
        return Optional.of(new HugePage(bytes));
    }

    /** Huge pages a region of {@code bytes} rounded up to whole pages takes. */
    public long pagesFor(long bytes) {
        return (bytes + this.bytes - 1) / this.bytes;
    }
}
