package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.Findings;
import hostside.core.Stats;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Selection;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;
import hostside.machine.Host;

/** What `hostside io` shows, from its one document: in the terminal, and the same figures in Markdown and HTML. */
class IoDocumentTest {
    static final Host HOST = new Host("box", "6.8", "x86_64", "none detected", "", null, "live");

    static String text(IoRun run) {
        return new TextRenderer(Style.plain()).render(IoDocument.of(run));
    }

    /** The words of a rendering with its line breaks and indentation as single spaces: what wrapping cannot change. */
    static String flat(String s) {
        return s.replaceAll("\\s+", " ");
    }

    @Test
    void theTableShowsBothUnitsLatencyTheFioJobAndWhatWasNotRun() {
        Result seq = IoResults.read("seq_read_warm_qd1", new Stats(18.17, 17.18, 19.13, 5), IoResults.latency(45.1, 254.0, 900.0), 256L << 20);
        Result rand = IoResults.read("rand_read_direct_uring_qd32", new Stats(131_868, 78_757, 138_369, 5), IoResults.latency(209.0, 931.0, 2000.0), null);
        Result sync = IoResults.write("write_fsync", new Stats(1.66, 1.6, 1.7, 3), new Stats(420, 400, 450, 3));
        Result no = Result.notRun(IoResults.test("seq_read_cold_qd1"), "the file is on tmpfs");
        IoRun run = new IoRun(HOST, null, List.of(), new IoRun.FileUsed("/data/f", 2L << 30, "xfs", true), List.of(no, seq, rand, sync),
                List.of(Findings.info("/data", "a verdict")));
        String s = text(run);
        assertThat(s).startsWith(IoDocument.TITLE + "\nbox, kernel 6.8\n");
        assertThat(flat(s)).contains("Of /data/f (2 GiB, xfs). Median of the samples, with min and max; each row names the fio job");
        assertThat(s).containsPattern("seq_read_warm_qd1 +18\\.17 +17\\.18 +19\\.13 +GB/s +17,328 IOPS +45\\.1 us +254 us +"
                + "fio --rw=read --bs=1M --size=2147483648 --ioengine=psync --iodepth=1 --direct=0 --pre_read=1 --fadvise_hint=0 --iomem=mmap --time_based --runtime=5\n");
        assertThat(s).containsPattern("rand_read_direct_uring_qd32 +131,868 +78,757 +138,369 +IOPS +0\\.54 GB/s +209 us +931 us +fio --rw=randread");
        assertThat(s).containsPattern("write_fsync +1\\.66 +1\\.60 +1\\.70 +GB/s +fsync 420 ms +fio --rw=write .* --end_fsync=1");
        assertThat(s).contains("\n  seq_read_cold_qd1: not run: the file is on tmpfs\n");
        assertThat(s).containsPattern("measurement +median +min +max +unit +also +latency p50 +p99 +fio job\n"); // not stretched by the sentence
        assertThat(s).contains("Page cache held by the file after the warm reads: 256 MiB.");
        assertThat(s).contains("What it means\n  · a verdict");
        assertThat(s).contains("Findings\n  none\n");
    }

    @Test
    void theBuffersPhysicalPiecesAreSaidWhenKnown() {
        ReadTest t = (ReadTest) IoResults.test("seq_read_direct_qd1");
        Result known = Result.ok(t, Unit.GB_PER_S, Stats.of(2.3), "hand-built", "fio " + t.fioOptions(IoResults.TARGET),
                new ReadTest.ReadDetail(IoResults.FILE, 2L << 30, 1 << 20, 1, "psync", null, null, null, 17.0, null, null, null));
        assertThat(IoDocument.pieces(List.of(known))).get().asString().contains("seq_read_direct_qd1 17 pieces").contains("254 on a Firecracker guest");
        Result counted = Result.ok(t, Unit.GB_PER_S, new Stats(1.3, 1.2, 1.4, 5), "hand-built", "fio " + t.fioOptions(IoResults.TARGET),
                new ReadTest.ReadDetail(IoResults.FILE, 2L << 30, 1 << 20, 1, "psync", null, null, null, null, null, 2.0, 254L));
        assertThat(IoDocument.pieces(List.of(counted))).as("not root: no pieces, the disk's requests still").get().asString()
                .contains("seq_read_direct_qd1 pieces not known, 2.00 requests a read").contains("This disk takes at most 254 in one request");
        assertThat(IoDocument.pieces(List.of(IoResults.read("seq_read_direct_qd1", 2.3)))).as("not root: frame numbers hidden, nothing said").isEmpty();
        Result whole = Result.ok(t, Unit.GB_PER_S, Stats.of(2.3), "hand-built", "fio " + t.fioOptions(IoResults.TARGET),
                new ReadTest.ReadDetail(IoResults.FILE, 2L << 30, 1 << 20, 1, "psync", null, null, null, 1.0, null, 1.0, 254L));
        ReadTest rand = (ReadTest) IoResults.test("rand_read_direct_qd1");
        Result page = Result.ok(rand, Unit.IOPS, Stats.of(16_000), "hand-built", "fio " + rand.fioOptions(IoResults.TARGET),
                new ReadTest.ReadDetail(IoResults.FILE, 2L << 30, 4096, 1, "psync", null, null, null, null, null, 1.0, 254L));
        assertThat(IoDocument.pieces(List.of(whole, page))).get().asString()
                .contains("seq_read_direct_qd1 1 piece, 1.00 requests a read; rand_read_direct_qd1 one page a read, 1.00 requests a read");
    }

    @Test
    void coldReadsInAVmSayTheHostMayStillCacheTheFile() {
        List<Result> cold = List.of(IoResults.read("seq_read_cold_qd1", 1.7));
        Host vm = new Host("vm", "6.18", "x86_64", "VM (KVM)", "", null, "live"), metal = new Host("node", "6.8", "x86_64", "none detected", "", null, "live");
        IoRun.FileUsed f = new IoRun.FileUsed(IoResults.FILE, 2L << 30, "ext4", true);
        assertThat(IoDocument.coldInAVm(new IoRun(vm, null, List.of(), f, cold, List.of()))).get().asString().contains("cold in the guest only");
        assertThat(IoDocument.coldInAVm(new IoRun(metal, null, List.of(), f, cold, List.of()))).isEmpty();
        assertThat(IoDocument.coldInAVm(new IoRun(vm, null, List.of(), f, List.of(IoResults.read("seq_read_warm_qd1", 9.0)), List.of()))).as("no cold read").isEmpty();
    }

    @Test
    void aFigureCountedAsFioCountsItIsSaidWhereItDiffers() {
        ReadTest t = (ReadTest) IoResults.test("seq_read_cold_qd1");
        Result stalled = Result.ok(t, Unit.GB_PER_S, new Stats(3.63, 0.64, 4.66, 5), "hand-built", "fio " + t.fioOptions(IoResults.TARGET),
                new ReadTest.ReadDetail(IoResults.FILE, 2L << 30, 1 << 20, 1, "psync", null, 0.0, 1L << 30, null, 2.41, null, null));
        Result steady = Result.ok(t, Unit.GB_PER_S, new Stats(3.63, 3.5, 3.7, 5), "hand-built", "fio " + t.fioOptions(IoResults.TARGET),
                new ReadTest.ReadDetail(IoResults.FILE, 2L << 30, 1 << 20, 1, "psync", null, 0.0, 1L << 30, null, 3.60, null, null));
        assertThat(IoDocument.overall(List.of(stalled))).get().asString().contains("seq_read_cold_qd1 2.41 GB/s (median 3.63)");
        assertThat(IoDocument.overall(List.of(steady))).as("within 5%: nothing to explain").isEmpty();
        assertThat(IoDocument.overall(List.of(IoResults.read("seq_read_cold_qd1", 3.63)))).as("an old report kept no such count").isEmpty();
    }

    @Test
    void aRecordingSaysOnceWhyNothingWasMeasuredBesideItsFacts() {
        IoRun run = IoDrill.DRILL.run(DrillContext.alone(FsRoot.open(Fixtures.h200().toString()), Selection.all(), ProgressSink.NONE, null),
                IoDrill.DRILL.defaults());
        String s = text(run);
        assertThat(s).contains("Reads and writes\n  not run: " + Runner.RECORDED + "\n");
        assertThat(s).contains("Data paths", "Network interfaces", "GPUDirect", "unknown: kernel modules: /proc/modules: missing");
        assertThat(s).containsPattern("eth0 +ethernet +- +unknown \\(the driver reports -1\\) +1400 +up");
        assertThat(s).contains("\nFindings\n");
        if (run.findings().isEmpty()) assertThat(s).contains("Findings\n  none\n");
        for (var f : run.findings()) assertThat(flat(s)).contains(f.text());
        assertThat(s).contains(", read from ").doesNotContain("What it means");
    }

    /** Each figure of a run of every case, as the document writes it, found in the text, the Markdown and the HTML. */
    @Test
    void everyFigureIsInAllThreeRenderings() {
        IoRun run = IoReadBackTest.everyCase();
        Document d = IoDocument.of(run);
        String text = new TextRenderer(Style.plain()).render(d);
        String md = new MarkdownRenderer().render(d);
        String html = org.jsoup.Jsoup.parse(new HtmlRenderer().render(d)).text();
        List<String> values = new ArrayList<>();
        for (Result r : run.results()) {
            values.add(Units.value(r.unit(), r.value().median()));
            values.add(Units.value(r.unit(), r.value().min()));
            values.add(Units.value(r.unit(), r.value().max()));
            values.add(r.anchor());
            if (r.detail() instanceof ReadTest.ReadDetail rd) {
                double other = rd.otherUnit(r.unit(), r.value()).median();
                values.add(r.unit() == Unit.IOPS ? String.format(java.util.Locale.ROOT, "%.2f GB/s", other) : String.format(java.util.Locale.ROOT, "%,.0f IOPS", other));
                values.add(IoDocument.us(rd.latencyUs().p50()));
                values.add(IoDocument.us(rd.latencyUs().p99()));
            } else if (r.detail() instanceof WriteTest.WriteDetail w && w.fsyncMs() != null) {
                values.add(String.format(java.util.Locale.ROOT, "fsync %.0f ms", w.fsyncMs().median()));
            }
        }
        assertThat(values).hasSizeGreaterThan(60);
        for (String v : values) {
            assertThat(text).as("text").contains(v);
            assertThat(md).as("Markdown").contains(v);
            assertThat(html).as("HTML").contains(v);
        }
        assertThat(run.verdicts()).isNotEmpty();
        for (var v : run.verdicts()) {
            assertThat(flat(text)).contains(v.text());
            assertThat(flat(html)).contains(v.text());
        }
        for (var f : run.findings()) assertThat(flat(html)).contains(f.text());
        assertThat(md).contains("## Reads and writes", "## Data paths", "## RDMA", "## What it means");
    }
}
