package hostside.learn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import hostside.core.Json;
import hostside.report.ReportReader;

/** What every stepper must hold, whatever it shows: the checks each stepper's test runs on its frames. */
public final class StepperChecks {
    private StepperChecks() {}

    /** The H200 VM's report of 2026-12-04 and the dev VM's (a machine without a GPU). */
    public static Inputs h200() {
        return report("testdata/reports/h200-hostside2.json");
    }

    public static Inputs devVm() {
        return report("testdata/reports/devvm-hostside2.json");
    }

    public static Inputs report(String path) {
        try {
            return Inputs.from(ReportReader.read(Json.MAPPER.readTree(Path.of(path).toFile()), path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Frames numbered 1..n, at least {@code minFrames} of them and at least one prediction; every
     * drawing well-formed XML with an accessible name; no NaN or Infinity in any text; the same
     * frames twice from the same inputs (a pure state machine).
     */
    public static List<Frame> check(Stepper s, Inputs in, int minFrames) {
        assertThat(s.key()).matches("[a-z0-9-]+");
        assertThat(s.module()).isBetween(1, 6);
        assertThat(s.title()).isNotBlank();
        List<Frame> frames = s.frames(in);
        assertThat(frames).as(s.key() + " frames").hasSizeGreaterThanOrEqualTo(minFrames);
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.get(i);
            assertThat(f.number()).as(s.key() + " numbering").isEqualTo(i + 1);
            assertThat(f.caption()).as(s.key() + " frame " + f.number() + " caption").isNotBlank();
            for (String text : List.of(f.title(), f.caption(), f.svg(), f.predict() == null ? "" : f.predict().toString())) {
                assertThat(text).as(s.key() + " frame " + f.number()).doesNotContain("NaN").doesNotContain("Infinity").doesNotContain("null");
            }
            wellFormed(s.key() + " frame " + f.number(), f.svg());
            fitsItsCanvas(s.key() + " frame " + f.number(), f.svg());
        }
        assertThat(frames).as(s.key() + ": a stepper teaches by asking first").anyMatch(f -> f.predict() != null);
        assertThat(s.frames(in)).as(s.key() + " is pure").isEqualTo(frames);
        return frames;
    }

    /**
     * Every text of a drawing inside its canvas, by an estimate of its width (6.2 px a character
     * at the page's 12 px system font: the widest measured in chromium was 6.1): a label cut at the
     * canvas's edge is a figure the reader cannot read.
     */
    static void fitsItsCanvas(String what, String svg) {
        var vb = java.util.regex.Pattern.compile("viewBox=\"0 0 (\\d+) (\\d+)\"").matcher(svg);
        assertThat(vb.find()).as(what + " viewBox").isTrue();
        double width = Double.parseDouble(vb.group(1));
        var t = java.util.regex.Pattern.compile("<text[^>]* x=\"([-0-9.]+)\"[^>]* text-anchor=\"(start|middle|end)\">([^<]*)</text>").matcher(svg);
        while (t.find()) {
            double x = Double.parseDouble(t.group(1)), len = 6.2 * t.group(3).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").length();
            double left = switch (t.group(2)) { case "start" -> x; case "middle" -> x - len / 2; default -> x - len; };
            assertThat(left).as(what + ": \"" + t.group(3) + "\" starts left of the canvas").isGreaterThanOrEqualTo(-1);
            assertThat(left + len).as(what + ": \"" + t.group(3) + "\" runs past the canvas's " + width + " px").isLessThanOrEqualTo(width + 1);
        }
    }

    static void wellFormed(String what, String svg) {
        try {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
            assertThat(doc.getDocumentElement().getTagName()).as(what).isEqualTo("svg");
            assertThat(doc.getDocumentElement().getAttribute("aria-label")).as(what + " accessible name").isNotBlank();
        } catch (Exception e) {
            throw new AssertionError(what + ": the drawing is not well-formed XML: " + e.getMessage(), e);
        }
    }
}
