package hostside.report;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.doc.MarkdownRenderer;

/** A report's Markdown as `hostside report` writes it: the JSON read back into the records, drawn as a document. */
public final class ReportMarkdown {
    private ReportMarkdown() {}

    public static String render(JsonNode report) {
        return new MarkdownRenderer().render(ReportDocument.of(ReportReader.read(report, "a test's report")));
    }
}
