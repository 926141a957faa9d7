package hostside.learn.m2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import hostside.core.Unit;
import hostside.learn.Frame;
import hostside.learn.Inputs;

/**
 * What Modules 2 and 5's tests check beyond StepperChecks: drawings on the 640 x 260 canvas with
 * lines short enough to read, every quoted figure with its source, and inputs made up for the cases
 * the two recorded reports do not cover.
 */
public final class Drawn {
    private Drawn() {}

    /** The longest text line a drawing may hold: about the canvas's width at the page's type size. */
    static final int LONGEST = 96;

    /** The text of each {@code <text>} element of a drawing, in order. */
    public static List<String> texts(String svg) {
        try {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
            NodeList nodes = doc.getElementsByTagName("text");
            List<String> out = new ArrayList<>();
            for (int i = 0; i < nodes.getLength(); i++) out.add(nodes.item(i).getTextContent());
            return out;
        } catch (Exception e) {
            throw new AssertionError("not XML: " + e.getMessage(), e);
        }
    }

    /** The boxes of a drawing: their text (lines joined by a space) to their class ("box on"). */
    public static Map<String, String> boxes(String svg) {
        try {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
            NodeList gs = doc.getElementsByTagName("g");
            Map<String, String> out = new LinkedHashMap<>();
            for (int i = 0; i < gs.getLength(); i++) {
                Element g = (Element) gs.item(i);
                if (!g.getAttribute("class").startsWith("box")) continue;
                NodeList ts = g.getElementsByTagName("text");
                List<String> lines = new ArrayList<>();
                for (int j = 0; j < ts.getLength(); j++) lines.add(ts.item(j).getTextContent());
                out.put(String.join(" ", lines), g.getAttribute("class").trim());
            }
            return out;
        } catch (Exception e) {
            throw new AssertionError("not XML: " + e.getMessage(), e);
        }
    }

    /**
     * Every drawing is the 640 x 260 canvas, no text line is longer than {@link #LONGEST}
     * characters, and every figure a frame quotes says where it comes from: this machine, or a named
     * typical or reference source.
     */
    public static void readable(List<Frame> frames) {
        for (Frame f : frames) {
            assertThat(f.svg()).as("frame " + f.number() + " canvas").contains("viewBox=\"0 0 640 260\"");
            for (String t : texts(f.svg())) {
                assertThat(t.length()).as("frame " + f.number() + " text '" + t + "'").isLessThanOrEqualTo(LONGEST);
            }
            for (Inputs.Value v : f.figures()) {
                assertThat(v.units()).as(v.key() + " unit").isNotBlank();
                if (!v.mine()) assertThat(v.note()).as(v.key() + ": a typical figure names its source").isNotBlank();
                assertThat(v.shown()).doesNotContain("NaN").doesNotContain("null");
            }
        }
    }

    /** The frames' predictions, in order. */
    public static List<Frame.Predict> predictions(List<Frame> frames) {
        return frames.stream().map(Frame::predict).filter(p -> p != null).toList();
    }

    /** The chosen answer's text. */
    public static String answer(Frame.Predict p) {
        return p.choices().get(p.answer());
    }

    /** A prediction by a word of its question. */
    public static Frame.Predict asking(List<Frame> frames, String word) {
        return predictions(frames).stream().filter(p -> p.question().contains(word)).findFirst()
                .orElseThrow(() -> new AssertionError("no question with '" + word + "' in " + predictions(frames)));
    }

    /** Inputs with only the facts given (read here) and figures given (measured here): key, value pairs. */
    public static Inputs machine(Map<String, String> facts, Map<String, Double> figures) {
        Map<String, Inputs.Fact> f = new LinkedHashMap<>();
        Map<String, Inputs.Value> values = new LinkedHashMap<>();
        facts.forEach((k, v) -> {
            if (READ_AS_NUMBERS.containsKey(k)) values.put(k, read(k, v));
            else f.put(k, new Inputs.Fact(k, v, Inputs.Source.READ));
        });
        figures.forEach((k, v) -> values.put(k, new Inputs.Value(k, v, unit(k), Inputs.Source.MEASURED, "")));
        return new Inputs("a made-up machine", values, f);
    }

    /** What Inputs.from reads as numbers, with their units: a fixture writes them as a report's words ("max", "unlimited" for no limit). */
    static final Map<String, Unit> READ_AS_NUMBERS = Map.of(Inputs.PAGE_SIZE_BYTES, Unit.BYTES, Inputs.GPU_COUNT, Unit.COUNT, Inputs.CORES, Unit.COUNT,
            Inputs.SHM_BYTES, Unit.BYTES, Inputs.MEMLOCK_BYTES, Unit.BYTES, Inputs.PIDS_MAX, Unit.COUNT);

    static Inputs.Value read(String key, String words) {
        double v = words.equals("max") || words.equals("unlimited") ? Double.POSITIVE_INFINITY : Long.parseLong(words);
        return new Inputs.Value(key, v, READ_AS_NUMBERS.get(key), Inputs.Source.READ, "");
    }

    private static Unit unit(String key) {
        if (key.startsWith("tlb_reach") || key.contains("latency")) return Unit.NS;
        if (key.startsWith("anon_first_touch")) return Unit.MS_PER_GIB;
        return Unit.GB_PER_S;
    }
}
