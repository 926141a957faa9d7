package hostside.cpu.trace;

import static hostside.cpu.trace.StraceSummaryTest.resource;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;

import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

import hostside.core.Style;
import hostside.cpu.TraceDocument;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;

/** `cpu --trace` as a document: the same facts in text, Markdown and HTML, from the recorded cat traces. */
class TraceDocumentTest {
    static TraceDocument.Trace cat() {
        TimedTrace timed = TraceParser.parse(resource("timed_cat.txt"));
        StraceSummary summary = StraceSummary.parse(resource("summary_cat.txt"));
        SyscallProfile profile = SyscallProfile.of(timed, "cat /tmp/st/small.txt");
        return new TraceDocument.Trace("cat /tmp/st/small.txt", "", "6.8", ProfileVerdicts.headline(profile),
                "the command exited with status 0 (in both runs)", false, profile, summary, SyscallProfile.of(summary, "cat /tmp/st/small.txt", 0.01),
                CrossCheck.compare(summary, timed), ProfileVerdicts.of(profile), profile.notes(), ProfileVerdicts.CAVEAT);
    }

    @Test
    void theGroupsTheirCallsAndTheCheckInEveryRendering() {
        TraceDocument.Trace t = cat();
        Document d = TraceDocument.of(t);
        String text = new TextRenderer(Style.plain(), 1000).render(d);
        String md = new MarkdownRenderer().render(d);
        List<String> html = Jsoup.parse(new HtmlRenderer().render(d)).select("h1, h2, tr, p, li").eachText();
        List<List<String>> all = List.of(text.lines().toList(), md.lines().toList(), html);
        for (List<String> lines : all) {
            assertThat(lines).anyMatch(l -> l.contains("Syscall profile of cat /tmp/st/small.txt"));
            assertThat(lines).anyMatch(l -> l.contains(t.headline()));
            assertThat(lines).anyMatch(l -> l.contains("the command exited with status 0 (in both runs)"));
            assertThat(lines).anyMatch(l -> l.contains(t.check().headline()));
            assertThat(lines).anyMatch(l -> l.contains(ProfileVerdicts.CAVEAT));
            for (SyscallProfile.GroupStats g : t.profile().groups()) {
                String calls = String.format(Locale.ROOT, "%,d", g.calls());
                assertThat(lines).as(g.group().label()).anyMatch(l -> l.contains(g.group().label()) && l.contains(calls));
            }
            String total = String.format(Locale.ROOT, "%,d", t.summary().total().orElseThrow().calls());
            assertThat(lines).as("strace -c's total").anyMatch(l -> l.contains("total") && l.contains(total));
        }
        assertThat(text).startsWith("Syscall profile of cat /tmp/st/small.txt\nstrace 6.8\n");
        assertThat(text).containsPattern("\\nBusiest threads\\n +TID +process +name +calls").contains("\nCross-check\n");
    }
}
