package hostside.io;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.doc.Block.Findings;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.FiguresTable;
import hostside.doc.Text;
import hostside.harness.Result;
import hostside.io.facts.IoFactsBlocks;
import hostside.io.measure.ReadTest.ReadDetail;
import hostside.io.measure.WriteTest.WriteDetail;
import hostside.machine.Host;

/**
 * What {@code hostside io} shows, said once for the terminal, the report and HTML: the storage and
 * network facts, the findings, the reads and writes (each figure beside its other unit, its latency
 * and the fio job that measures the same; what was not run and why), and what they mean.
 */
public final class IoDocument {
    private IoDocument() {}

    public static final String TITLE = "Storage and network: how checkpoints and datasets reach memory";

    public static Document of(IoRun run) {
        List<Block> blocks = new ArrayList<>();
        if (run.facts() != null) blocks.addAll(IoFactsBlocks.of(run.facts()));
        blocks.add(new Section("Findings", List.of(new Findings(run.findings(), "none"))));
        if (!run.results().isEmpty()) blocks.add(measurements(run));
        if (!run.verdicts().isEmpty()) blocks.add(new Section("What it means", List.of(new Findings(run.verdicts(), ""))));
        return new Document(TITLE, subtitle(run.machine()), blocks);
    }

    /** "vm, kernel 6.18.44" and, for a recording, where it was read from. */
    private static String subtitle(Host m) {
        if (m == null) return "";
        String s = (m.name().isEmpty() ? "unnamed host" : m.name()) + (m.kernel().isEmpty() ? "" : ", kernel " + m.kernel());
        return m.live() ? s : s + ", read from " + m.source();
    }

    private static Section measurements(IoRun run) {
        Set<String> whys = new LinkedHashSet<>();
        run.results().forEach(r -> whys.add(r.isOk() ? "" : r.why()));
        if (whys.size() == 1 && !whys.contains("")) {
            return new Section("Reads and writes", List.of(Note.of("not run: " + whys.iterator().next())));
        }
        List<Block> b = new ArrayList<>();
        IoRun.FileUsed f = run.file();
        Text of = f == null ? Text.of("") : Text.of("Of ").andCode(f.path()).plain(" (" + Units.bytes(f.bytes()) + ", " + f.filesystem() + "). ");
        b.add(new Paragraph(of.plain("Median of the samples, with min and max; each row names the fio job that measures the same thing.")));
        FiguresTable t = new FiguresTable("measurement", false, new Column("also", Align.RIGHT), new Column("latency p50", Align.RIGHT),
                new Column("p99", Align.RIGHT), new Column("fio job", Align.LEFT));
        List<Block> notRun = new ArrayList<>();
        for (Result r : run.results()) {
            // below the table: a sentence in a figure's column would stretch every row
            if (!r.isOk()) notRun.add(new Note(Text.code(r.key()).plain(": " + r.status() + ": " + r.why())));
            else add(t, r);
        }
        if (!t.isEmpty()) b.add(t.table());
        b.addAll(notRun);
        run.results().stream().filter(r -> r.isOk() && r.key().equals("seq_read_warm_qd1")).findFirst()
                .filter(r -> r.detail() instanceof ReadDetail d && d.pageCacheBytes() != null)
                .ifPresent(r -> b.add(Paragraph.of("Page cache held by the file after the warm reads: " + Units.bytes(((ReadDetail) r.detail()).pageCacheBytes()) + ".")));
        overall(run.results()).ifPresent(b::add);
        pieces(run.results()).ifPresent(b::add);
        coldInAVm(run).ifPresent(b::add);
        return new Section("Reads and writes", b);
    }

    /** A figure counted fio's way differs from the median by more than this share: then it is said. */
    static final double OVERALL_SAID = 0.05;

    /**
     * fio divides every byte by the whole run's time, where the table shows the median of the
     * samples: a few stalled samples pull fio's figure down and leave the median alone. Where the
     * two counts differ by more than 5% both are said, so a reader beside fio sees why.
     */
    static java.util.Optional<Block> overall(List<Result> results) {
        List<String> parts = new ArrayList<>();
        for (Result r : results) {
            if (!r.isOk()) continue;
            Double o = r.detail() instanceof ReadDetail d ? d.overall() : r.detail() instanceof WriteDetail w ? w.overall() : null;
            double m = r.value().median();
            if (o == null || Math.abs(o - m) <= OVERALL_SAID * m) continue;
            parts.add(r.key() + " " + Units.value(r.unit(), o) + " " + r.unit().symbol() + " (median " + Units.value(r.unit(), m) + ")");
        }
        if (parts.isEmpty()) return java.util.Optional.empty();
        return java.util.Optional.of(Paragraph.of("Counted as fio counts, every byte over all the samples' time (a few slow samples weigh in): "
                + String.join(", ", parts) + "."));
    }

    /**
     * In a VM "cold" reaches only as far as the guest: what the guest just wrote or read is still
     * in the host's own cache, which the guest cannot drop (fio's cold jobs read from it as well).
     */
    static java.util.Optional<Block> coldInAVm(IoRun run) {
        boolean vm = run.machine() != null && run.machine().virtualization().startsWith("VM");
        boolean cold = run.results().stream().anyMatch(r -> r.isOk() && r.key().endsWith("_cold_qd1"));
        if (!vm || !cold) return java.util.Optional.empty();
        return java.util.Optional.of(Paragraph.of("In this VM the cold reads are cold in the guest only: the host may still cache the file's blocks"
                + " (the test file was just written, and fio's files are too), so a checkpoint the host has not read lately can load several times slower."));
    }

    /**
     * Where the O_DIRECT 1 MiB reads' buffers fell in physical memory, and how many requests the
     * disk got for each read, when known: on a VM each piece is a segment the virtual disk copies on
     * its own, a buffer in more pieces than the disk's max_segments goes as two requests, and the
     * figure follows both (docs/measurements/2026-12-07-odirect-split-devvm.md); hence buffers of
     * huge pages (docs/measurements/2026-12-07-odirect-whole-devvm.md).
     */
    static java.util.Optional<Block> pieces(List<Result> results) {
        List<String> parts = new ArrayList<>();
        Long segments = null;
        for (Result r : results) {
            if (!(r.isOk() && r.detail() instanceof ReadDetail d) || d.bufferPieces() == null && d.requestsPerRead() == null) continue;
            parts.add(r.key() + (d.blockBytes() <= 4096 ? " one page a read" : d.bufferPieces() == null ? " pieces not known"
                    : String.format(Locale.ROOT, d.bufferPieces() == 1 ? " %.0f piece" : " %.0f pieces", d.bufferPieces()))
                    + (d.requestsPerRead() == null ? "" : String.format(Locale.ROOT, ", %.2f requests a read", d.requestsPerRead())));
            if (d.maxSegments() != null) segments = d.maxSegments();
        }
        if (parts.isEmpty()) return java.util.Optional.empty();
        return java.util.Optional.of(Paragraph.of("Physically contiguous pieces per 1 MiB O_DIRECT buffer (1 to 256), and the requests the disk"
                + " completed for each read (every reader of the disk counts): " + String.join("; ", parts)
                + ". Each piece is a DMA segment; a VM's virtual disk copies them one by one, so a scattered buffer reads slower than a contiguous one."
                + (segments != null
                        ? " This disk takes at most " + segments + " in one request (queue/max_segments): a buffer in more goes as two requests, 2.00 a read."
                        : " A virtio disk takes at most its queue's max_segments (254 on a Firecracker guest) in one request: a buffer in more becomes two.")
                + " hostside makes these buffers of transparent huge pages where the kernel gives them (THP always or madvise): one piece a"
                + " read, as fio's --iomem=shmhuge job's; in base pages (fio's --iomem=mmap, a loader's plain buffer) they fall where the page"
                + " allocator puts them, and two runs compare only at like counts."));
    }

    /** A measured row: its figures, then the other unit or the fsync time, latency p50 and p99, and the fio job. */
    private static void add(FiguresTable t, Result r) {
        boolean iops = r.unit() == Unit.IOPS;
        String also = "", p50 = "", p99 = "";
        if (r.detail() instanceof ReadDetail d) {
            Stats other = d.otherUnit(r.unit(), r.value());
            also = iops ? String.format(Locale.ROOT, "%.2f GB/s", other.median()) : String.format(Locale.ROOT, "%,.0f IOPS", other.median());
            if (d.latencyUs() != null) {
                p50 = us(d.latencyUs().p50());
                p99 = us(d.latencyUs().p99());
            }
        } else if (r.detail() instanceof WriteDetail w && w.fsyncMs() != null) {
            also = String.format(Locale.ROOT, "fsync %.0f ms", w.fsyncMs().median());
        }
        t.add(Text.code(r.key()), r.value(), r.unit(), Text.of(also), Text.of(p50), Text.of(p99),
                r.anchor() == null ? Text.of("") : Text.code(r.anchor()));
    }

    static String us(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f us", v) : String.format(Locale.ROOT, "%.1f us", v);
    }
}
