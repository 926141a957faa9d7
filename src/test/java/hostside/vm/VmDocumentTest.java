package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import hostside.core.Figure;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.Cut;
import hostside.harness.DrillContext;
import hostside.harness.Result;
import hostside.harness.Selection;
import hostside.vm.measure.ManagedMigration;

/**
 * Module 2's one document: every figure in the text, the Markdown and the HTML alike; what the old
 * text view showed and what the report's Markdown showed (the union); the TLB curve as a plot.
 */
class VmDocumentTest {
    static final VmRun MEASURED = Runs.measured(new Cut("--anon-size", 1L << 40, 256L << 20, "a quarter of available memory (by hand)"));

    static String text(VmRun run) {
        return new TextRenderer(Style.plain(), 200).render(VmDocument.of(run));
    }

    /** The cells of the text table row that starts with {@code key} (cells are two or more spaces apart). */
    static List<String> textRow(String text, String key) {
        for (String line : text.lines().toList()) {
            List<String> cells = List.of(line.strip().split("\\s{2,}"));
            if (cells.getFirst().equals(key)) return cells;
        }
        throw new AssertionError("no row " + key + " in\n" + text);
    }

    static List<String> markdownRow(String md, String key) {
        for (String line : md.lines().toList()) {
            if (!line.startsWith("| `" + key + "` |")) continue;
            List<String> cells = new ArrayList<>();
            for (String c : line.substring(1, line.length() - 1).split("\\|")) cells.add(c.strip());
            cells.set(0, key); // as code: `key`
            return cells;
        }
        throw new AssertionError("no row " + key + " in\n" + md);
    }

    static List<String> htmlRow(String html, String key) {
        for (Element tr : Jsoup.parse(html).select("tr")) {
            List<String> cells = tr.select("td").eachText();
            if (!cells.isEmpty() && cells.getFirst().equals(key)) return cells;
        }
        throw new AssertionError("no row " + key);
    }

    @Test
    void everyFigureIsInItsRowInTheThreeRenderings() {
        Document doc = VmDocument.of(MEASURED);
        String text = new TextRenderer(Style.plain(), 200).render(doc), md = new MarkdownRenderer().render(doc), html = new HtmlRenderer().render(doc);
        List<Figure> figures = MEASURED.figures();
        assertThat(figures).hasSize(17);
        for (Figure f : figures) {
            List<String> expected = List.of(f.key(), Units.figure(f.value()), Units.figure(f.min()), Units.figure(f.max()), f.unit().symbol(),
                    Integer.toString(f.samples()));
            assertThat(textRow(text, f.key()).subList(0, 6)).as("text " + f.key()).isEqualTo(expected);
            assertThat(markdownRow(md, f.key()).subList(0, 6)).as("markdown " + f.key()).isEqualTo(expected);
            assertThat(htmlRow(html, f.key()).subList(0, 6)).as("html " + f.key()).isEqualTo(expected);
        }
    }

    @Test
    void theFaultsEachCaseCostAreBesideItsFigure() {
        Document doc = VmDocument.of(MEASURED);
        String text = new TextRenderer(Style.plain(), 200).render(doc), md = new MarkdownRenderer().render(doc);
        assertThat(textRow(text, "anon_first_touch_base")).last().isEqualTo("256.0");
        assertThat(textRow(text, "file_mmap_cold")).last().isEqualTo("0.9");
        assertThat(markdownRow(md, "anon_first_touch_thp").get(6)).isEqualTo("0.5");
        assertThat(markdownRow(md, "managed_prefetch_h2d").get(6)).as("no faults counted for a prefetch").isEmpty();
    }

    @Test
    void settingsShowTheUnionOfTheTwoOldViews() {
        String t = text(MEASURED);
        // both showed these
        assertThat(t).containsPattern("base page\\s+4 KiB \\(").contains("enabled madvise, defrag madvise, shmem never, huge page 2 MiB")
                .containsPattern("hugetlb\\s+2 MiB: 0 pages, 0 free; 1 GiB: 0 pages, 0 free")
                .contains("overcommit_memory 1, swappiness 60, numa_balancing 0, zone_reclaim_mode 0, max_map_count");
        // the text view alone showed: the architecture, khugepaged, the mTHP sizes, Mlocked and the hard memlock limit
        assertThat(t).containsPattern("arch\\s+x86_64").containsPattern("khugepaged\\s+defrag 1, 4096 pages per 10000 ms, max_ptes_none 511, collapsed 0")
                .contains(", Mlocked ").containsPattern("memlock\\s+\\S+ soft, \\S+ hard");
        assertThat(t).containsPattern("memory\\s+\\S+ \\S+ total, \\S+ \\S+ available, AnonHugePages ");
    }

    @Test
    void theFirstSchemasReportRendersWithItsMthpSizesAndMlockedMemory() throws Exception {
        Runs.registerDetails();
        String t = text(VmReadBackTest.readBack(VmReadBackTest.firstSchemaVm()));
        assertThat(t).contains("huge page 2 MiB, 9 mTHP sizes").contains("Mlocked 7.1 MiB").contains("unlimited soft, unlimited hard (CAP_IPC_LOCK: not enforced)");
        assertThat(textRow(t, "tlb_reach_base")).startsWith("tlb_reach_base", "277");
        assertThat(textRow(t, "anon_first_touch_thp_huge_percent")).startsWith("anon_first_touch_thp_huge_percent", "100");
    }

    @Test
    void theGpuPartShowsEveryGpuWithItsAttributesAndGranularity() {
        String t = text(MEASURED);
        assertThat(t).contains("GPU0 NVIDIA H200 (0000:00:06.0)").containsPattern("coherence\\s+none")
                .containsPattern("CUDA VMM granularity\\s+2 MiB minimum, 2 MiB recommended")
                .containsPattern("concurrentManagedAccess\\s+1: managed memory usable by CPU and GPU at the same time")
                .containsPattern("directManagedMemAccessFromHost\\s+unknown: ")
                .contains("GPU1 NVIDIA H100 80GB HBM3 (0000:00:07.0)")
                .containsPattern("CUDA VMM granularity\\s+unknown \\(cuMemGetAllocationGranularity: CUDA_ERROR_NOT_SUPPORTED \\(801\\)\\)");
        String noGpu = text(new VmRun(MEASURED.machine(), MEASURED.facts(), List.of(), MEASURED.host(), VmGpu.notRun("no NVIDIA driver"), List.of()));
        assertThat(noGpu).contains("The GPU's view of host memory\n  not run: no NVIDIA driver\n");
    }

    @Test
    void findingsWithTheirMarksOrNone() {
        assertThat(text(MEASURED)).contains("! a warning made by hand").contains("· overcommit_memory=1");
        VmRun none = new VmRun(MEASURED.machine(), MEASURED.facts(), List.of(), MEASURED.host(), MEASURED.gpu(), MEASURED.verdicts());
        assertThat(text(none)).contains("Findings\n  None.\n");
        assertThat(new MarkdownRenderer().render(VmDocument.of(none))).contains("None.");
    }

    @Test
    void howEachWasMeasuredWithItsPeerAndWhereItRan() {
        String t = text(MEASURED);
        // the report's Markdown had the method in a column; the document says it once per case, with the peer tool
        assertThat(t).contains("- file_read_cold: read by hand; peer: fio --rw=read --size=1g")
                .contains("- tlb_reach_base: walked by hand; peer: lmbench lat_mem_rd")
                .contains("- anon_first_touch_base: touched by hand\n")
                .contains("GPU cases ran on GPU0: NVIDIA H200 (0000:00:06.0)")
                .contains("file reads: a 1 GiB test file in /var/tmp (removed afterwards); a cold sample reads its first 256 MiB")
                .contains("note: anon_first_touch_base: --anon-size 1.0 TiB asked, 256.0 MiB used: a quarter of available memory (by hand)");
        assertThat(new MarkdownRenderer().render(VmDocument.of(MEASURED))).contains("`file_read_cold`: read by hand; peer: `fio --rw=read --size=1g`");
    }

    @Test
    void cpuFaultsGetrusageDidNotSeeAreSaidUncountedNotCounted() {
        // Runs' CPU-fault case counted 0, as the H200 does: its method line said "migrated by hand", the document says what 0 means
        String t = text(MEASURED);
        assertThat(textRow(t, "managed_cpu_faults_d2h")).last().isEqualTo("uncounted");
        assertThat(t.replaceAll("\\s+", " ")).contains("- managed_cpu_faults_d2h: one CPU write per base page, host clock; getrusage(RUSAGE_THREAD) saw none"
                + " of its faults (0 counted): nvidia-uvm resolves them outside the kernel's per-task fault accounting, so the figure is the migration's"
                + " time alone and how many faults it took is unknown");
        assertThat(textRow(t, "managed_prefetch_h2d")).as("a prefetch counts no faults at all: nothing to say").doesNotContain("uncounted");
    }

    @Test
    void aRecordedRunsOldMethodLineIsSaidAgainFromItsCount() throws Exception {
        // hostside/1 wrote "faults from getrusage(RUSAGE_THREAD)" beside a count of 0
        Runs.registerDetails();
        VmRun old = VmReadBackTest.readBack(VmReadBackTest.firstSchemaVm());
        Result back = old.gpu().results().stream().filter(r -> r.key().equals("managed_cpu_faults_d2h")).findFirst().orElseThrow();
        assertThat(back.method()).contains("faults from getrusage");
        String line = text(old).lines().filter(l -> l.contains("- managed_cpu_faults_d2h:")).findFirst().orElseThrow();
        assertThat(line).doesNotContain("faults from getrusage").contains("saw none of its faults (0 counted)");
    }

    @Test
    void aCountTheCounterSawIsNamed() {
        assertThat(ManagedMigration.cpuMethod(131072)).isEqualTo("one CPU write per base page, host clock; getrusage(RUSAGE_THREAD) counted 131072 faults a lap");
        assertThat(ManagedMigration.cpuMethod(0)).doesNotContain("counted 0 faults").contains("saw none").contains("unknown");
    }

    @Test
    void theTlbCurveIsAPlotOfTwoSeriesWithTheirSpread() {
        Block.LinePlot plot = find(VmDocument.of(MEASURED).blocks(), Block.LinePlot.class);
        assertThat(plot.x()).isEqualTo(new Block.Axis("working set", Unit.BYTES, true));
        assertThat(plot.y().unit()).isEqualTo(Unit.NS);
        assertThat(plot.series()).extracting(Block.LinePlot.Series::name).containsExactly("base pages", "huge pages");
        Block.LinePlot.Point last = plot.series().getFirst().points().getLast();
        assertThat(last.x()).isEqualTo(4.0 * (1L << 30));
        assertThat(last.y()).isEqualTo(276.9);
        assertThat(last.low()).isEqualTo(276.9 * 0.95);
        assertThat(last.high()).isEqualTo(276.9 * 1.05);
        assertThat(plot.series().get(1).points()).hasSize(9);
        // the numbers under it, in text: each size with both medians and spreads, then the ratio base / huge
        String t = text(MEASURED);
        assertThat(t).containsPattern("4 GiB\\s+277 ns\\s+263\\.\\.291 ns\\s+131 ns\\s+124\\.\\.137 ns");
        assertThat(t).containsPattern("(?m)^\\s+1 MiB\\s+2\\.13x$").containsPattern("(?m)^\\s+4 GiB\\s+2\\.12x$");
        assertThat(new HtmlRenderer().render(VmDocument.of(MEASURED))).contains("<svg");
    }

    @Test
    void aRatioTheNoiseCouldMakeIsMarkedInTheTable() {
        // +-5% either side: 1.05x at 64 KiB is inside the spread, 2.13x at 1 MiB is not
        VmRun run = new VmRun(MEASURED.machine(), MEASURED.facts(), List.of(), List.of(Runs.tlb(false, 1.05, 1.0, 2.13), Runs.tlb(true, 1.0, 1.0, 1.0)),
                MEASURED.gpu(), List.of());
        String t = text(run);
        assertThat(t).containsPattern("(?m)^\\s+64 KiB\\s+1\\.05x \\(even within noise\\)$").containsPattern("(?m)^\\s+256 KiB\\s+1\\.00x \\(even within noise\\)$")
                .containsPattern("(?m)^\\s+1 MiB\\s+2\\.13x$");
    }

    @Test
    void aWalkWithoutItsPartnerIsOneSeriesAndNoRatio() {
        Block.LinePlot plot = find(VmDocument.of(Runs.someNotMeasured()).blocks(), Block.LinePlot.class);
        assertThat(plot.series()).extracting(Block.LinePlot.Series::name).containsExactly("base pages");
        assertThat(text(Runs.someNotMeasured())).doesNotContain("base / huge");
    }

    @Test
    void casesThatDidNotRunSayWhyInTheirRow() {
        String t = text(Runs.someNotMeasured());
        assertThat(textRow(t, "file_mmap_cold")).containsExactly("file_mmap_cold", "not run: /tmp is on tmpfs: its files live in memory");
        assertThat(textRow(t, "tlb_reach_huge")).containsExactly("tlb_reach_huge", "failed: mmap: ENOMEM");
        assertThat(t).doesNotContain("- tlb_reach_huge:");
    }

    @Test
    void aRecordingSaysOnceThatNothingWasMeasured() {
        VmRun run = VmDrill.DRILL.run(DrillContext.alone(FsRoot.open(hostside.Fixtures.h200().toString()), Selection.all(), k -> { }, null),
                VmDrill.DRILL.defaults());
        String t = text(run);
        assertThat(t).contains("Measurements\n  not run: recorded machine: nothing is measured under --root\n")
                .contains("The GPU's view of host memory\n  not run: recorded machine").doesNotContain("What it means")
                .contains("read from ");
        assertThat(Pattern.compile("not run: recorded machine").matcher(t).results().count()).isEqualTo(2);
    }

    @Test
    void whatItMeansIsTheVerdicts() {
        String md = new MarkdownRenderer().render(VmDocument.of(MEASURED));
        assertThat(MEASURED.verdicts()).hasSize(7);
        assertThat(md).contains("What it means");
        for (var v : MEASURED.verdicts()) assertThat(text(MEASURED).replaceAll("\\s+", " ")).contains(v.text());
        assertThat(md).contains("First touch costs 1.65 us per 4 KiB page");
    }

    @Test
    void numbersDoNotFollowTheLocale() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.GERMANY);
            assertThat(text(MEASURED)).contains("1.59").doesNotContain("1,59").contains("256.0").doesNotContain("256,0");
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    static <B extends Block> B find(List<Block> blocks, Class<B> type) {
        for (Block b : blocks) {
            if (type.isInstance(b)) return type.cast(b);
            if (b instanceof Block.Section s) {
                try {
                    return find(s.blocks(), type);
                } catch (AssertionError notThere) {
                    // look further
                }
            }
        }
        throw new AssertionError("no " + type.getSimpleName());
    }
}
