package hostside.report;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

import hostside.core.Json;
import hostside.doc.MarkdownRenderer;

/** The recorded H200 report, and the same report with one module's run replaced: how the page-one tests plant a module's findings. */
public final class RecordedReports {
    private RecordedReports() {}

    static final Path H200 = Path.of("testdata/reports/h200-hostside2.json");

    public static Report h200() throws Exception {
        return ReportReader.read(Json.MAPPER.readTree(H200.toFile()), H200.getFileName().toString());
    }

    /** {@code r} with each module's run passed through {@code run} (which returns the same object for the modules it leaves). */
    public static Report withRuns(Report r, UnaryOperator<Object> run) {
        var modules = r.modules().stream().map(s -> s.data() == null ? s
                : new Report.Section(s.module(), s.title(), s.command(), s.status(), s.why(), run.apply(s.data()))).toList();
        return new Report(r.schema(), r.kind(), r.machine(), r.hardwareClass(), r.software(), r.confounders(), r.title(), r.questions(), r.headlines(),
                r.figures(), modules);
    }

    /** Page one's "What to fix here", as Markdown. */
    public static String pageOne(Report r) {
        String md = new MarkdownRenderer().render(ReportDocument.of(r));
        int at = md.indexOf("## What to fix here");
        return md.substring(at, md.indexOf("## ", at + 3));
    }
}
