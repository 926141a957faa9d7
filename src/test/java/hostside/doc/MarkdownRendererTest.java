package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.doc.Block.Bullets;
import hostside.doc.Block.Findings;
import hostside.doc.Block.Section;

/** GitHub-flavoured Markdown: headings by depth, aligned tables, findings with their marks. */
class MarkdownRendererTest {
    private final String md = new MarkdownRenderer().render(Samples.rich());

    @Test
    void headingLevelsFollowTheNestingAndStopAtSix() {
        assertThat(md.lines().filter(l -> l.startsWith("#")).toList()).containsExactly(
                "# hostside machine: sample", "## Virtual memory", "### Measurements", "#### Level four", "##### Level five", "###### Level six",
                "###### Level seven", "## Findings", "## Copies", "## Launch jitter");
    }

    @Test
    void theSubtitleIsInItalics() {
        assertThat(md.lines().toList()).containsSubsequence("# hostside machine: sample", "", "_recorded on h200-vm, 2025-06-01_");
    }

    @Test
    void rightAlignedColumnsGetAColonOnTheRight() {
        assertThat(md.lines().toList()).containsSubsequence("| measurement | median | unit | n |", "| --- | ---: | --- | ---: |",
                "| tlb\\_walk | 12.40 | ns | 31 |", "| `fault_4k` | **1850** | us | 7 |");
    }

    @Test
    void labelledValuesAreAListWithBoldKeys() {
        assertThat(md.lines().toList()).containsSubsequence("- **base page**: 4 KiB (sysfs)", "- **THP**: madvise", "- **memlock**: unlimited, as `ulimit -l` says");
    }

    @Test
    void findingsCarryTheirMarkAndNotesAreItalic() {
        assertThat(md.lines().toList()).containsSubsequence("- **✗** the link runs at Gen3 under load, half its Gen4 maximum",
                "- **!** the loader allocates on node 1, the GPU sits on node 0", "- khugepaged scans 4096 pages every 10 s");
        assertThat(md).contains("\n_fault\\_4k was cut to 1 GiB to fit the free memory_\n");
    }

    @Test
    void twoListsInARowStayTwoLists() {
        // findings then bullets: without something between them GitHub would draw one list
        assertThat(md).contains("- khugepaged scans 4096 pages every 10 s\n\n<!-- -->\n\n- pin the loader to node 0\n");
    }

    @Test
    void codeAndStrongInline() {
        assertThat(md).contains("Transparent huge pages are **off for this process**, set by `prctl(PR_SET_THP_DISABLE)` in the launcher");
    }

    @Test
    void plotsAreTheirTitleAndATableOfPoints() {
        assertThat(md.lines().toList()).containsSubsequence("**Host to device bandwidth by buffer size**", "",
                "| buffer size | pinned | min..max | pageable |", "| ---: | ---: | ---: | ---: |",
                "| 4 KiB | 2.1 GB/s | 2.0..2.1 GB/s | 0.8 GB/s |", "| 16 KiB | 6.8 GB/s | 6.5..6.9 GB/s |  |");
        assertThat(md.lines().toList()).containsSubsequence("**Launch latency**", "", "| launch latency | count |", "| ---: | ---: |",
                "| 1..2 us | 5200 |", "- **p50**: 1.8 us", "- **p99.9**: 24 us");
    }

    @Test
    void aListItemThatLooksLikeAHeadingOrAListStaysText() {
        String out = new MarkdownRenderer().render(new Document("t", List.of(new Section("s", List.of(
                new Bullets(List.of(Text.of("# not a heading"), Text.of("- not nested"), Text.of("1. not numbered"))),
                new Findings(List.of(hostside.core.Findings.info("x", "2) neither")), ""))))));
        assertThat(out.lines().toList()).containsSubsequence("- \\# not a heading", "- \\- not nested", "- 1\\. not numbered", "- 2\\) neither");
    }

    @Test
    void blocksAreSeparatedByOneBlankLine() {
        assertThat(md).doesNotContain("\n\n\n").endsWith("\n").doesNotEndWith("\n\n");
    }
}
