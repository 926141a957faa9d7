package hostside.learn.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import hostside.doc.HtmlRenderer;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.Modules;
import hostside.learn.SelfCheck;
import hostside.learn.Stepper;
import hostside.report.Report;

/**
 * The learning mode's pages, by path: the index, one page per module with its steppers, and the
 * self-check. Each page is whole in itself (its style and script inline, its drawings inline
 * SVG): nothing is fetched, from this server or any other. Every step is in the markup, so a
 * browser without JavaScript shows them one under the other; the script plays them one at a time.
 * Only these paths exist: anything else is not found, whatever dots or slashes it holds.
 */
public final class Site {
    private final List<Stepper> steppers;
    private final Inputs inputs;
    private final List<SelfCheck.Question> check;
    private final String source;

    /**
     * @param check  the self-check's questions answered from the report; empty without one
     * @param source where the figures come from, in words, shown on every page
     */
    public Site(List<Stepper> steppers, Inputs inputs, List<SelfCheck.Question> check, String source) {
        this.steppers = List.copyOf(steppers);
        this.inputs = inputs;
        this.check = List.copyOf(check);
        this.source = source;
    }

    /** The page at {@code path}; empty when there is none. */
    public Optional<String> page(String path) {
        if (path.equals("/")) return Optional.of(index());
        if (path.equals("/check")) return Optional.of(selfCheck());
        if (path.matches("/module/[1-6]")) return Optional.of(module(path.charAt(path.length() - 1) - '0'));
        return Optional.empty();
    }

    /** Every path that has a page, for tests and the index. */
    public static List<String> paths() {
        return List.of("/", "/module/1", "/module/2", "/module/3", "/module/4", "/module/5", "/module/6", "/check");
    }

    String index() {
        StringBuilder b = new StringBuilder();
        b.append("<h1>hostside learn</h1>\n<p>The course's six modules, stepped through with this machine's figures. Each step asks first, then shows; "
                + "the arrow keys or the buttons move through it, and the address keeps the step.</p>\n<ol class=\"modules\">\n");
        for (Modules.Module m : Modules.ALL) {
            b.append("<li><a href=\"/module/").append(m.number()).append("\">Module ").append(m.number()).append(": ").append(esc(m.title())).append("</a>. ")
                    .append(esc(m.covers()));
            List<Stepper> mine = of(m.number());
            if (!mine.isEmpty()) {
                b.append("<ul>");
                for (Stepper s : mine) b.append("<li>").append(esc(s.title())).append("</li>");
                b.append("</ul>");
            }
            b.append("</li>\n");
        }
        b.append("</ol>\n<p><a href=\"/check\">The final self-check</a>: seven questions over Modules 1 to 4, answered from this machine's report "
                + "once you have answered them yourself.</p>\n");
        return page("hostside learn", b.toString());
    }

    String module(int n) {
        Modules.Module m = Modules.get(n);
        StringBuilder b = new StringBuilder();
        b.append("<h1>Module ").append(n).append(": ").append(esc(m.title())).append("</h1>\n<p>").append(esc(m.covers())).append("</p>\n");
        List<Stepper> mine = of(n);
        if (mine.isEmpty()) b.append("<p>No stepper for this module in this version.</p>\n");
        for (Stepper s : mine) stepper(b, s, s.frames(inputs));
        b.append("<p>");
        if (n > 1) b.append("<a href=\"/module/").append(n - 1).append("\">Module ").append(n - 1).append("</a> · ");
        b.append("<a href=\"/\">All modules</a>");
        if (n < 6) b.append(" · <a href=\"/module/").append(n + 1).append("\">Module ").append(n + 1).append("</a>");
        if (n == 4) b.append(" · <a href=\"/check\">The self-check</a>");
        b.append("</p>\n");
        return page("Module " + n + ": " + m.title(), b.toString());
    }

    /** A stepper: every frame in the markup, the controls hidden until the script shows them. */
    static void stepper(StringBuilder b, Stepper s, List<Frame> frames) {
        String key = esc(s.key());
        b.append("<section class=\"stepper\" id=\"").append(key).append("\" data-key=\"").append(key).append("\" tabindex=\"0\" aria-label=\"")
                .append(esc(s.title())).append("\">\n<h2>").append(esc(s.title())).append("</h2>\n");
        b.append("<div class=\"controls\" hidden><button type=\"button\" class=\"prev\" aria-label=\"Previous step\">&#9664; Back</button>")
                .append("<span class=\"pos\">Step 1 of ").append(frames.size()).append("</span>")
                .append("<button type=\"button\" class=\"next\" aria-label=\"Next step\">Next &#9654;</button>")
                .append("<input type=\"range\" class=\"scrub\" min=\"1\" max=\"").append(frames.size()).append("\" value=\"1\" aria-label=\"Step\"></div>\n");
        b.append("<p class=\"live\" aria-live=\"polite\"></p>\n<ol class=\"frames\">\n");
        for (Frame f : frames) {
            b.append("<li class=\"frame\" id=\"").append(key).append("-step-").append(f.number()).append("\" data-step=\"").append(f.number()).append("\">\n<h3>")
                    .append(f.number()).append(". <span class=\"t\">").append(esc(f.title())).append("</span></h3>\n");
            if (f.predict() != null) predict(b, f.predict());
            b.append("<div class=\"reveal\">\n").append(f.svg()).append("\n<p class=\"caption\">").append(esc(f.caption())).append("</p>\n");
            if (!f.figures().isEmpty()) {
                b.append("<ul class=\"figures\">");
                for (Inputs.Value v : f.figures()) b.append("<li><code>").append(esc(v.key())).append("</code>: ").append(esc(v.shown())).append("</li>");
                b.append("</ul>\n");
            }
            b.append("</div>\n</li>\n");
        }
        b.append("</ol>\n</section>\n");
    }

    private static void predict(StringBuilder b, Frame.Predict p) {
        b.append("<div class=\"predict\" data-answer=\"").append(p.answer()).append("\">\n<p class=\"q\">").append(esc(p.question())).append("</p>\n<ul class=\"choices\">");
        for (int i = 0; i < p.choices().size(); i++) {
            b.append("<li><button type=\"button\" class=\"choice\" data-i=\"").append(i).append("\">").append(esc(p.choices().get(i))).append("</button></li>");
        }
        b.append("</ul>\n<p class=\"ask-only\"><button type=\"button\" class=\"show\">Show me</button></p>\n")
                .append("<p class=\"why-live\" hidden><span class=\"verdict\"></span> ").append(esc(p.why())).append("</p>\n")
                .append("<details><summary>The answer</summary><p>").append(esc(p.choices().get(p.answer()))).append(": ").append(esc(p.why())).append("</p></details>\n</div>\n");
    }

    String selfCheck() {
        StringBuilder b = new StringBuilder("<h1>The final self-check</h1>\n<div class=\"check\">\n");
        if (check.isEmpty()) {
            b.append("<p>The self-check is answered from a report of this machine, and there is none here: run <code>hostside report</code>, "
                    + "then <code>hostside learn --from results/&lt;host&gt;.json</code>. The questions are for you to answer meanwhile:</p>\n<ol>\n");
            for (String q : QUESTIONS) b.append("<li>").append(esc(q)).append("</li>\n");
            b.append("</ol>\n</div>\n");
            return page("The final self-check", b.toString());
        }
        b.append("<p>Answer each out loud or in the box, without notes; then see what this machine's report says, and where.</p>\n<ol>\n");
        for (SelfCheck.Question q : check) {
            String id = "q" + q.number();
            b.append("<li class=\"question\" id=\"").append(id).append("\"><p><label for=\"").append(id).append("-mine\">").append(esc(q.question())).append("</label></p>\n")
                    .append("<textarea id=\"").append(id).append("-mine\" placeholder=\"Your answer\"></textarea>\n")
                    .append("<p><button type=\"button\" class=\"reveal-answer\">What this machine says</button></p>\n")
                    .append("<div class=\"answer\" tabindex=\"-1\" aria-live=\"polite\"><p>").append(esc(q.answer())).append("</p>");
            if (!q.evidence().isEmpty()) b.append("<p class=\"evidence\">Evidence: ").append(esc(q.evidence())).append("</p>");
            if (!q.findings().isEmpty()) {
                // the report's own conclusions on this question, by rule: what page one and compare say, never a second opinion
                b.append("<p class=\"evidence\">The report's findings (hostside rules ID explains each):</p><ul class=\"findings\">");
                for (Report.Concluded c : q.findings()) {
                    b.append("<li><code>").append(esc(c.id())).append("</code> ").append(esc(c.severity().toString())).append(": ").append(esc(c.text()));
                    if (!c.fix().isEmpty() && c.severity().toFix()) b.append(" Fix: ").append(esc(c.fix()));
                    b.append("</li>");
                }
                b.append("</ul>");
            }
            b.append("</div>\n<details><summary>What this machine says</summary><p>").append(esc(q.answer())).append("</p></details></li>\n");
        }
        b.append("</ol>\n</div>\n");
        return page("The final self-check", b.toString());
    }

    /** The seven questions, asked even without a report to answer them. */
    static final List<String> QUESTIONS = List.of("How much CPU feeds each GPU here?", "How fast does host memory reach each GPU here, and is it coherent?",
            "What does pageable memory cost a host-to-device copy here?", "What do transparent huge pages do here?",
            "What jitter does a feeder thread see here, quiet and loaded?", "Which I/O path should a checkpoint loader take here?",
            "Which container limit would break training here?");

    private List<Stepper> of(int module) {
        return steppers.stream().filter(s -> s.module() == module).toList();
    }

    private String page(String title, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + esc(title) + "</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n<header class=\"site\"><a href=\"/\">hostside learn</a>"
                + "<span class=\"source\">figures: " + esc(source) + "</span></header>\n<main>\n" + body + "</main>\n<script>\n" + JS + "</script>\n</body>\n</html>\n";
    }

    private static final String CSS = resource("learn.css"), JS = resource("learn.js");

    private static String resource(String name) {
        try (InputStream in = Site.class.getResourceAsStream("/hostside/learn/" + name)) {
            if (in == null) throw new IllegalStateException("this build has no /hostside/learn/" + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String esc(String s) {
        return HtmlRenderer.esc(s);
    }
}
