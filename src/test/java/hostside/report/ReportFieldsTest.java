package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;
import hostside.learn.Inputs;
import hostside.report.compare.CompareDocument;
import hostside.report.compare.Comparison;

/**
 * A report with a field missing or null, at any depth, is refused in one line that names the file
 * and the field, or read and drawn: never a NullPointerException (issue 36: a report without
 * "modules" gave "Cannot invoke java.util.List.iterator()" and exit 1). Each field of three real
 * reports (the first schema's, the second's as measured on the H200, and one of a recording,
 * which holds the rack module and the sections that did not run) is deleted, then set to null, in
 * turn, and the report given to everything that reads one: the pages (report --from), compare
 * (the whole report, and its head as compare reads it from a file) and learn's inputs. Fields of
 * the same shape (the same path through elements of the same keys) are tried once.
 */
class ReportFieldsTest {
    @TempDir
    Path tmp;

    /**
     * Every field's JSON pointer whose shape is not in {@code tried} yet, which it joins: a list of
     * 40 results of the same keys is tried at its first, and a shape the first schema's report
     * shares with the second's is tried in the second's only.
     */
    static List<String> fields(JsonNode n, java.util.Set<String> tried) {
        List<String> out = new ArrayList<>();
        fields(n, "", "", tried, out);
        return out;
    }

    private static void fields(JsonNode n, String at, String shape, java.util.Set<String> tried, List<String> out) {
        if (n.isObject()) {
            for (var it = n.fieldNames(); it.hasNext(); ) {
                String k = it.next(), p = at + "/" + k.replace("~", "~0").replace("/", "~1"), s = shape + "." + k;
                if (tried.add(s)) out.add(p);
                fields(n.get(k), p, s, tried, out);
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                JsonNode e = n.get(i);
                List<String> keys = new ArrayList<>();
                e.fieldNames().forEachRemaining(keys::add);
                String s = shape + "[" + (e.isObject() ? String.join(",", keys) : e.getNodeType().toString()) + "]", p = at + "/" + i;
                if (tried.add(s)) out.add(p);
                fields(e, p, s, tried, out);
            }
        }
    }

    /** {@code json} with the field at {@code pointer} deleted, or set to null. */
    static JsonNode without(JsonNode json, String pointer, boolean delete) {
        JsonNode copy = json.deepCopy();
        JsonPointer p = JsonPointer.compile(pointer);
        JsonNode parent = copy.at(p.head());
        if (parent instanceof ObjectNode o) {
            if (delete) o.remove(p.last().getMatchingProperty());
            else o.set(p.last().getMatchingProperty(), NullNode.instance);
        } else {
            ArrayNode a = (ArrayNode) parent;
            if (delete) a.remove(p.last().getMatchingIndex());
            else a.set(p.last().getMatchingIndex(), NullNode.instance);
        }
        return copy;
    }

    /** What went wrong reading and drawing {@code json}; null when it was refused in one line, or read and drawn. */
    static String fault(JsonNode json, Report.Head other) {
        Report r;
        try {
            r = ReportReader.read(json, "r.json");
        } catch (BadInputException e) {
            return refusal(e);
        } catch (RuntimeException e) {
            return "read: " + e;
        }
        try {
            var page = ReportDocument.of(r);
            new MarkdownRenderer().render(page);
            new HtmlRenderer().render(page);
        } catch (RuntimeException e) {
            return "report --from: " + e;
        }
        if (!r.head().equals(other)) { // compare reads the head alone: a field of the pages cannot change it
            String c = compared(r.head(), other);
            if (c != null) return c;
        }
        try {
            Inputs.from(r);
        } catch (RuntimeException e) {
            return "learn: " + e;
        }
        return null;
    }

    static String refusal(BadInputException e) {
        String m = e.getMessage();
        return m.lines().count() == 1 && m.startsWith("r.json: ") ? null : "a refusal not in one line naming the file: " + m;
    }

    /** Compare's side by side (three machines), its statistics (nine) and its JSON, with {@code head} among them. */
    static String compared(Report.Head head, Report.Head other) {
        try {
            List<Comparison.Input> three = List.of(new Comparison.Input("a", head), new Comparison.Input("b", other), new Comparison.Input("c", head));
            List<Comparison.Input> nine = new ArrayList<>();
            for (int i = 0; i < 9; i++) nine.add(new Comparison.Input("m" + i, i == 4 ? head : other));
            for (List<Comparison.Input> in : List.of(three, nine)) {
                Comparison c = Comparison.of(in);
                new TextRenderer(Style.plain()).render(CompareDocument.of(c, in, null));
                Json.write(Json.MAPPER.valueToTree(c));
            }
            return null;
        } catch (RuntimeException e) {
            return "compare: " + e;
        }
    }

    /** The fields of {@code json} (those of a shape not {@code tried}) whose absence or null a reader does not survive, each with what happened. */
    List<String> faults(String name, JsonNode json, java.util.Set<String> tried) throws Exception {
        Report.Head base = ReportReader.read(json, "base").head();
        List<String> out = new ArrayList<>();
        for (String field : fields(json, tried)) {
            for (boolean delete : new boolean[] {true, false}) {
                JsonNode broken = without(json, field, delete);
                String f = fault(broken, base);
                String top = field.split("/")[1];
                if (f == null && !ReportFiles.PAGES.contains(top)) f = head(broken, base); // compare reads these from the file itself
                if (f != null) out.add(name + (delete ? " without " : " with null ") + field + ": " + f);
            }
        }
        return out;
    }

    private String head(JsonNode json, Report.Head other) throws Exception {
        Path p = tmp.resolve("r.json");
        Files.writeString(p, Json.write(json));
        try {
            return compared(ReportFiles.head(p), other);
        } catch (BadInputException e) {
            return e.getMessage().lines().count() == 1 && e.getMessage().startsWith(p + ": ") ? null : "compare's head: " + e.getMessage();
        } catch (RuntimeException e) {
            return "compare's head: " + e;
        }
    }

    static JsonNode fixture(String name) throws Exception {
        return Json.MAPPER.readTree(Fixtures.testdata().resolve("reports").resolve(name).toFile());
    }

    @Test
    void everyFieldOfThreeRealReportsMissingOrNull() throws Exception {
        ReportOutputTest.Result r = ReportOutputTest.run("report", "--root", Fixtures.h200().toString(), "--out", tmp.toString(), "--name", "h200", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode recorded = Json.MAPPER.readTree(r.out());
        assertThat(recorded.path("modules").get(4).path("data").path("platform").isObject()).as("the rack module is in it").isTrue();
        java.util.Set<String> tried = new java.util.HashSet<>();
        List<String> faults = new ArrayList<>(faults("h200-hostside2.json", fixture("h200-hostside2.json"), tried));
        faults.addAll(faults("h200-hostside1.json", fixture("h200-hostside1.json"), tried));
        faults.addAll(faults("the recording's report", recorded, tried));
        assertThat(tried).as("fields of every module").hasSizeGreaterThan(1400);
        assertThat(faults).isEmpty();
    }

    @Test
    void theFieldsNamedRequiredAreRefusedByName() throws Exception {
        JsonNode v2 = fixture("h200-hostside2.json");
        for (String[] f : new String[][] {{"/modules", "modules"}, {"/modules/0/data/host/kernel", "modules[0].data.host.kernel"},
                {"/figures/3/unit", "figures[3].unit"}, {"/modules/3/data/container/facts/shm", "modules[3].data.container.facts.shm"},
                {"/class/hostLink", "class.hostLink"}}) {
            for (boolean delete : new boolean[] {true, false}) {
                assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ReportReader.read(without(v2, f[0], delete), "r.json")))
                        .isInstanceOf(BadInputException.class).hasMessage("r.json: " + f[1] + " is missing or null");
            }
        }
    }
}
