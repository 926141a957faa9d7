package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.testing.CliRun;

/**
 * The line a broken report is refused in (issue 36, a red team's round against the report
 * checks): it names the field by its JSON path, says what was wrong in words (no Java type, no
 * Jackson term), shows a number from the report short, gives the reason that fits a value of
 * another kind, and refuses a key given twice. Each case is given to report --from, compare and
 * learn --from, which read a report from another machine.
 */
class ReportMessagesTest {
    @TempDir
    Path tmp;

    /** What marks a message as Java's or Jackson's rather than hostside's. */
    static final List<String> INTERNALS = List.of("java.", "`", "Jackson", "Token", "Source:", "hostside.");

    /** The H200's report of {@code schema} (1 or 2) with {@code change} made to it, as {@code name}. */
    Path report(int schema, String name, Consumer<ObjectNode> change) throws Exception {
        ObjectNode n = (ObjectNode) Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside" + schema + ".json").toFile());
        change.accept(n);
        return text(name, Json.write(n));
    }

    Path report(String name, Consumer<ObjectNode> change) throws Exception {
        return report(2, name, change);
    }

    Path text(String name, String text) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    static ObjectNode at(ObjectNode n, String pointer) {
        return (ObjectNode) n.at(pointer);
    }

    /**
     * report --from, compare (beside a good report) and learn --from each refuse {@code bad} in one
     * line that says {@code says}, in no Java or Jackson words; report --from's line.
     */
    String refused(Path bad, String... says) throws Exception {
        Path good = report("good.json", n -> {});
        String first = null;
        for (CliRun r : new CliRun[] {CliRun.of("report", "--from", bad.toString(), "--out", tmp.resolve("out").toString()),
                CliRun.of("compare", good.toString(), bad.toString()), CliRun.of("learn", "h2d-copy", "--json", "--from", bad.toString())}) {
            r.assertOneLineError("hostside: " + bad + ": ");
            assertThat(r.err()).contains(says);
            for (String internal : INTERNALS) assertThat(r.err()).as("no Java or Jackson words").doesNotContain(internal);
            if (first == null) first = r.err().strip();
        }
        return first;
    }

    /** As {@link #refused}, by report --from and learn --from alone: compare reads a report's head, and these fields are in its pages. */
    void refusedByThePages(Path bad, String says) {
        for (CliRun r : new CliRun[] {CliRun.of("report", "--from", bad.toString(), "--out", tmp.resolve("out").toString()),
                CliRun.of("learn", "h2d-copy", "--json", "--from", bad.toString())}) {
            r.assertOneLineError("hostside: " + bad + ": ");
            assertThat(r.err()).contains(says);
            for (String internal : INTERNALS) assertThat(r.err()).as("no Java or Jackson words").doesNotContain(internal);
        }
    }

    /**
     * The red team's: "modules[0].data.runs[0].results[0]" for a result's status, ".data.nvml" for
     * ".data.gpu.nvml": the readers that read a part of a module by hand (Module 1's GPU section,
     * a result's fields, Module 4's container) dropped it from the path.
     */
    @Test
    void aFieldIsNamedByItsJsonPath() throws Exception {
        String result = "/modules/0/data/gpu/runs/0/results/0";
        refusedByThePages(report("status.json", n -> at(n, result).put("status", "bogus")),
                "(modules[0].data.gpu.runs[0].results[0].status: \"bogus\" is not ok, not run or failed)");
        refusedByThePages(report("fabric.json", n -> at(n, "/modules/0/data/gpu/nvml/gpus/0/fabric").put("state", "bogus")),
                "(modules[0].data.gpu.nvml.gpus[0].fabric.state: ");
        refusedByThePages(report("unit.json", n -> at(n, result).put("unit", "furlongs")),
                "(modules[0].data.gpu.runs[0].results[0].unit: \"furlongs\" is not a unit hostside writes)");
        refusedByThePages(report("median.json", n -> at(n, result + "/value").put("median", "fast")),
                "(modules[0].data.gpu.runs[0].results[0].value.median: a number expected, a string found)");
        refusedByThePages(report("detail.json", n -> at(n, result + "/detail").put("bufferBytes", "large")),
                "(modules[0].data.gpu.runs[0].results[0].detail.bufferBytes: a whole number from ");
        refusedByThePages(report("matrix.json", n -> at(n, "/modules/0/data").put("gpuMatrix", "none")),
                "(modules[0].data.gpuMatrix: an object expected, a string found)");
        refusedByThePages(report("section.json", n -> at(n, "/modules/1").put("status", "bogus")),
                "(modules[1].status: \"bogus\" is none of \"run\", \"not run\" and \"not in this version\")");
        refusedByThePages(report("container.json", n -> at(n, "/modules/3/data/container/facts").putArray("shm")),
                "(modules[3].data.container.facts.shm: an object expected, a list found)");
    }

    /**
     * The red team's: Jackson's own words reached the user ("Cannot deserialize value of type
     * `java.util.ArrayList<Report$Section>`", "(64, from
     * `StreamReadConstraints.getMaxNestingDepth()`)", "[Source: REDACTED ...]", "No content to map
     * due to end-of-input"). Broken inputs of every kind the reading meets, each in words.
     */
    @Test
    void noMessageSpeaksJavaOrJackson() throws Exception {
        String good = Json.write(Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside2.json").toFile()));
        Map<Path, String> cases = new LinkedHashMap<>();
        cases.put(text("empty.json", ""), "not a report: an empty file");
        cases.put(text("blank.json", "  \n"), "not a report: an empty file");
        cases.put(text("cut.json", good.substring(0, 5000)), "not a report: cut off before its JSON ends (line ");
        cases.put(text("words.json", "hostside report"), "not a report: not JSON (line 1, column ");
        cases.put(text("nan.json", "{\"kind\": \"report\", \"schema\": \"hostside/2\", \"x\": NaN}"), "not a report: not JSON: NaN or Infinity");
        cases.put(text("escape.json", "{\"kind\": \"report\", \"x\": \"\\q\"}"), "not a report: not JSON: a backslash escape JSON does not have (line 1, column ");
        cases.put(text("control.json", "{\"kind\": \"report\", \"x\": \"\u0001\"}"), "not a report: not JSON: a control character in a string, unescaped");
        cases.put(text("closed.json", "{\"kind\": \"report\"]"), "not a report: not JSON: a bracket closed that was never opened");
        cases.put(text("deep.json", "{\"kind\": \"report\", \"x\": " + "[".repeat(100) + "]".repeat(100) + "}"), "not a report: nested deeper than 64 levels");
        cases.put(text("long-number.json", "{\"kind\": \"report\", \"x\": " + "1".repeat(200) + "}"), "not a report: a number longer than 100 characters");
        cases.put(text("long-string.json", "{\"kind\": \"report\", \"x\": \"" + "x".repeat(2 << 20) + "\"}"), "not a report: a string longer than 1048576 characters");
        cases.put(text("long-key.json", "{\"kind\": \"report\", \"" + "k".repeat(2000) + "\": 1}"), "not a report: a key longer than 1024 characters");
        cases.put(text("after.json", good + "{}"), "not a report: data after the end of its JSON document");
        cases.put(report("modules.json", n -> n.putObject("modules")), "(modules: a list expected, an object found)");
        cases.put(report("title.json", n -> n.putArray("title")), "(title: an object expected, a list found)");
        cases.put(report("headlines.json", n -> n.put("headlines", "none")), "(headlines: a list expected, a string found)");
        cases.put(report("kernel.json", n -> at(n, "/modules/0/data/host").putObject("kernel")), "(modules[0].data.host.kernel: a string expected, an object found)");
        cases.put(report("true.json", n -> ReportChecksTest.figure(n, 0).put("value", true)), "(figures[0].value: a number expected, true found)");
        cases.put(report("samples.json", n -> ReportChecksTest.figure(n, 0).put("samples", "five")),
                "(figures[0].samples: a whole number from -2147483648 to 2147483647 expected, a string found)");
        cases.put(report("scope.json", n -> ReportChecksTest.figure(n, 0).put("scope", 5)), "(figures[0].scope: a string expected, a whole number found)");
        cases.put(report("unit.json", n -> ReportChecksTest.figure(n, 0).put("unit", "furlongs")), "(figures[0].unit: \"furlongs\" is not a unit hostside writes)");
        cases.put(report("schema.json", n -> n.put("schema", "hostside/9")), "a report of schema \"hostside/9\"");
        for (var c : cases.entrySet()) {
            if (c.getValue().contains("(modules") || c.getValue().contains("(title") || c.getValue().contains("(headlines")) refusedByThePages(c.getKey(), c.getValue());
            else refused(c.getKey(), c.getValue());
        }
    }

    /**
     * The red team's: a median of 1e-320 gave a message of 330 characters ("0.000..."), 1e300 all
     * its 300 digits, 123456789012345678901234567890 was shown as 123000000000000000000000000000.
     */
    @Test
    void aNumberIsShownShortAndAsItWas() throws Exception {
        String tiny = refused(report("tiny.json", n -> ReportChecksTest.figure(n, 0).put("value", 1e-320).put("min", 1e-320)), "its value is 1e-320 GB/s, finer than");
        assertThat(tiny.length()).isLessThan(250);
        String huge = refused(report("huge.json", n -> ReportChecksTest.figure(n, 0).put("max", 1e300)), "its max is 1e300 GB/s, beyond");
        assertThat(huge.length()).isLessThan(250);
        refused(report("long.json", n -> ReportChecksTest.figure(n, 0).set("max", new BigIntegerNode(new BigInteger("123456789012345678901234567890")))),
                "its max is 1.2345678901234568e29 GB/s");
        refused(report("samples.json", n -> ReportChecksTest.figure(n, 0).set("samples", new DecimalNode(new BigDecimal("1e30")))),
                "(figures[0].samples: a whole number from -2147483648 to 2147483647 expected, 1e30 found)");
        refused(report("fraction.json", n -> ReportChecksTest.figure(n, 0).put("value", -55.3).put("min", -55.4)), "its value is -55.3 GB/s");
        assertThat(Quoted.number(-0.0)).isEqualTo("-0");
        assertThat(Quoted.number(140)).isEqualTo("140");
    }

    /** The red team's: "value": [1, 2, 3] in a result (whose reader passes over a value that is no object) was "value is missing or null". */
    @Test
    void aValueOfAnotherKindIsSaidToBeOne() throws Exception {
        for (int schema : new int[] {1, 2}) {
            Path p = report(schema, "list-" + schema + ".json", n -> at(n, "/modules/0/data/gpu/runs/0/results/0").putArray("value").add(1).add(2).add(3));
            refusedByThePages(p, "modules[0].data.gpu.runs[0].results[0].value: an object expected, a list found");
        }
        refused(report("figure.json", n -> ReportChecksTest.figure(n, 0).putArray("value").add(1).add(2).add(3)),
                "(figures[0].value: a number expected, a list found)");
        // missing is still missing
        refusedByThePages(report("gone.json", n -> at(n, "/modules/0/data/gpu/runs/0/results/0").remove("value")),
                "modules[0].data.gpu.runs[0].results[0].value is missing or null in a result that measured");
    }

    /** The red team's: a report with two "figures" keys was read (the last won): which figures it holds is up to the reader. */
    @Test
    void aKeyGivenTwiceIsRefusedNamingIt() throws Exception {
        String good = Json.write(Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside2.json").toFile()));
        int end = good.lastIndexOf('}');
        refused(text("twice.json", good.substring(0, end) + ", \"figures\": []}"), "not a report: the key \"figures\" twice in one object (line ");
        // inside a figure, and inside the pages that compare passes over unread
        int figures = good.indexOf("\"figures\" : [");
        int value = good.indexOf("\"value\" : ", figures);
        refused(text("twice-value.json", good.substring(0, value) + "\"value\" : 1.0, " + good.substring(value)),
                "not a report: the key \"value\" twice in one object (in figures[0]) (line ");
        int kernel = good.indexOf("\"kernel\" : ", good.indexOf("\"modules\" : ["));
        refused(text("twice-kernel.json", good.substring(0, kernel) + "\"kernel\" : \"6.8\", " + good.substring(kernel)),
                "not a report: the key \"kernel\" twice in one object (in modules[0].data.host) (line ");
    }
}
