package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Style;
import hostside.doc.Block.Findings;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;

/** The terminal view: aligned tables, wrapped prose, indented sections, colour only when asked for. */
class TextRendererTest {
    private static final String ANSI = "\u001b[";

    /** Style with colour on; forTerminal() would say no in a test, as no console is attached. */
    private static Style colour() {
        return Style.colour();
    }

    private static List<String> lines(String text) {
        return text.lines().toList();
    }

    @Test
    void tableColumnsLineUpAndFiguresAreRightAligned() {
        Table t = new Table(List.of(new Column("measurement", Align.LEFT), new Column("median", Align.RIGHT), new Column("unit", Align.LEFT),
                new Column("n", Align.RIGHT)), List.of(
                List.of(Text.of("tlb_walk"), Text.of("12.40"), Text.of("ns"), Text.of("31")),
                List.of(Text.of("page_fault_first_touch"), Text.strong("1850"), Text.of("us"), Text.of("7")),
                List.of(Text.of("x"), Text.of("0.5"), Text.of("GB/s"), Text.of("1024"))));
        String text = new TextRenderer(Style.plain()).render(new Document("t", List.of(new Section("S", List.of(t)))));
        List<String> rows = lines(text).subList(3, 7);
        assertThat(rows.getFirst()).startsWith("  measurement");
        // the last column is a figure, right-aligned: every row ends at the same column
        assertThat(rows).extracting(String::length).containsOnly(rows.getFirst().length());
        int unit = rows.getFirst().indexOf("unit");
        for (String r : rows) {
            assertThat(r.substring(unit, unit + 1)).as(r).isNotBlank();
            assertThat(r.charAt(unit - 1)).as(r).isEqualTo(' ');
        }
        // the median column is right-aligned: its figures end where its header ends
        int medianEnd = rows.getFirst().indexOf("median") + "median".length();
        assertThat(rows.get(1).substring(0, medianEnd)).endsWith("12.40");
        assertThat(rows.get(2).substring(0, medianEnd)).endsWith("1850");
        assertThat(rows.get(3).substring(0, medianEnd)).endsWith("0.5");
    }

    @Test
    void aTableLineIsNeverWrapped() {
        String wide = "w".repeat(70);
        Table t = new Table(List.of(new Column("a", Align.LEFT), new Column("b", Align.LEFT)), List.of(List.of(Text.of(wide), Text.of(wide))));
        String text = new TextRenderer(Style.plain(), 40).render(new Document("t", List.of(t)));
        assertThat(text).contains(wide + "  " + wide);
    }

    @Test
    void paragraphsWrapAtTheWidthWithoutSplittingWords() {
        String prose = "Pageable copies go through a staging buffer, so their speed depends on the CPU, memcpy and NUMA placement "
                + "rather than the link; pinned buffers on the GPU's own node show what the link can do, and a size sweep shows "
                + "where TLB and IOMMU mapping start to cost. A-very-long-hyphenated-word-that-is-longer-than-the-line-itself stays whole.";
        for (int width : new int[] {30, 40, 100}) {
            String text = new TextRenderer(Style.plain(), width).render(new Document("t", List.of(new Section("S", List.of(Paragraph.of(prose))))));
            List<String> body = lines(text).subList(3, lines(text).size());
            assertThat(body).hasSizeGreaterThan(1);
            for (String l : body) {
                assertThat(l).startsWith("  ").doesNotStartWith("   ");
                if (!l.contains("A-very-long")) assertThat(l.length()).as(l).isLessThanOrEqualTo(width);
            }
            List<String> words = Arrays.stream(String.join(" ", body).trim().split("\\s+")).toList();
            assertThat(words).containsExactly(prose.split(" "));
        }
    }

    @Test
    void aLongValueHangsUnderItselfAndKeysArePadded() {
        KeyValues kv = new KeyValues(List.of(KeyValues.Entry.of("THP", "madvise"),
                KeyValues.Entry.of("khugepaged", "defrag 1, 4096 pages per 10000 ms, max_ptes_none 511, collapsed 12")));
        String text = new TextRenderer(Style.plain(), 50).render(new Document("t", List.of(kv)));
        assertThat(lines(text)).containsSubsequence(
                "THP         madvise",
                "khugepaged  defrag 1, 4096 pages per 10000 ms,",
                "            max_ptes_none 511, collapsed 12");
    }

    @Test
    void sectionsIndentTwoSpacesPerLevelAndTopTitlesStandAlone() {
        String text = new TextRenderer(Style.plain()).render(Samples.rich());
        assertThat(lines(text)).containsSubsequence("", "Virtual memory", "  base page  4 KiB (sysfs)", "  Measurements", "    Level four",
                "      Fourth level prose.", "      Level five", "        Level six", "          Level seven", "            Seventh level prose, deeper than h6.");
    }

    @Test
    void findingsHaveAMarkPerSeverity() {
        String text = new TextRenderer(Style.plain()).render(Samples.rich());
        assertThat(lines(text)).contains("  ✗ the link runs at Gen3 under load, half its Gen4 maximum",
                "  ! the loader allocates on node 1, the GPU sits on node 0", "  · khugepaged scans 4096 pages every 10 s");
    }

    @Test
    void noFindingsSayWhatTheDrillSaysThen() {
        String text = new TextRenderer(Style.plain()).render(new Document("t", List.of(new Section("Findings", List.of(new Findings(List.of(), "none"))))));
        assertThat(lines(text)).contains("  none");
    }

    @Test
    void plainStyleWritesNoAnsiCodes() {
        assertThat(new TextRenderer(Style.plain()).render(Samples.rich())).doesNotContain(ANSI);
    }

    @Test
    void aColouredStyleMarksABadFindingInRedAndAWarningInYellow() throws ReflectiveOperationException {
        Document d = new Document("t", List.of(new Findings(List.of(hostside.core.Findings.bad("GPU0", "slow link"), hostside.core.Findings.warn("NUMA", "far node"),
                hostside.core.Findings.info("THP", "fine")), "")));
        List<String> l = lines(new TextRenderer(colour()).render(d));
        assertThat(l.get(2)).contains("\u001b[31m✗ \u001b[0m").contains("\u001b[31mslow\u001b[0m");
        assertThat(l.get(3)).contains("\u001b[33m! \u001b[0m");
        assertThat(l.get(4)).isEqualTo("· fine");
    }

    @Test
    void colourDoesNotChangeTheLayout() throws ReflectiveOperationException {
        String coloured = new TextRenderer(colour(), 60).render(Samples.rich());
        assertThat(coloured).contains(ANSI);
        assertThat(coloured.replaceAll("\u001b\\[[0-9;]*m", "")).isEqualTo(new TextRenderer(Style.plain(), 60).render(Samples.rich()));
    }

    @Test
    void aSweepIsATableOfItsPoints() {
        String text = new TextRenderer(Style.plain()).render(Samples.rich());
        assertThat(lines(text)).containsSubsequence("  Host to device bandwidth by buffer size",
                "  buffer size     pinned         min..max   pageable",
                "        4 KiB   2.1 GB/s    2.0..2.1 GB/s   0.8 GB/s",
                "       16 KiB   6.8 GB/s    6.5..6.9 GB/s",
                "        1 GiB  51.9 GB/s  49.3..52.9 GB/s");
    }

    @Test
    void aHistogramHasBarsScaledToTheLargestAndItsMarks() {
        String text = new TextRenderer(Style.plain()).render(Samples.rich());
        List<String> bars = lines(text).stream().filter(l -> l.contains("#")).toList();
        assertThat(bars).hasSize(6);
        assertThat(bars.getFirst()).contains("1..2 us").contains("5200").endsWith("  " + "#".repeat(40));
        assertThat(bars.get(1)).endsWith(" " + "#".repeat(24));
        // one sample still shows
        assertThat(bars.getLast()).contains("32..64 us").endsWith(" #");
        assertThat(lines(text)).containsSubsequence("  p50    1.8 us", "  p99    9.5 us", "  p99.9  24 us");
    }
}
