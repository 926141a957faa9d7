package hostside.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.harness.DetailTypes;
import hostside.report.ReadersNeed;
import hostside.testing.CliRun;

/**
 * docs/schema against the code: written as the records give it, and every document hostside wrote
 * (the fixtures in testdata/) or writes now (each command's --json from the H200 recording, a
 * report, a comparison, a live checklist) valid under it, while a document that lacks what its
 * readers need, or holds a value of the wrong type or a key its reader refuses, is not.
 */
class SchemaTest {
    static final String WRITE = "./mvnw -q -o test-compile org.codehaus.mojo:exec-maven-plugin:3.6.4:java"
            + " -Dexec.mainClass=hostside.schema.WriteSchemas -Dexec.classpathScope=test";

    static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    @TempDir
    Path tmp;

    @Test
    void docsSchemaIsWhatTheRecordsGive() throws IOException {
        Map<String, String> now = WriteSchemas.files();
        for (var f : now.entrySet()) {
            Path p = WriteSchemas.DIR.resolve(f.getKey());
            assertThat(Files.exists(p) ? Files.readString(p) : "").as(p + " is stale: write docs/schema anew with `" + WRITE + "`")
                    .isEqualTo(f.getValue());
        }
        try (Stream<Path> s = Files.list(WriteSchemas.DIR)) {
            List<String> there = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".schema.json")).sorted().toList();
            assertThat(there).as("docs/schema holds a schema of no document: write it anew with `" + WRITE + "`")
                    .containsExactlyInAnyOrderElementsOf(now.keySet());
        }
    }

    /** Every JSON document of testdata/ of the current schema, against its kind's schema; a first-schema report is outside them. */
    @Test
    void everyFixtureIsValid() throws IOException {
        List<Path> fixtures;
        try (Stream<Path> s = Files.walk(Fixtures.testdata())) {
            fixtures = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(fixtures).isNotEmpty();
        for (Path p : fixtures) {
            JsonNode doc = Json.MAPPER.readTree(p.toFile());
            // a snapshot's own file (NVML's answers, testdata/health/h100-nvml-health.json) is input to a drill, not a document of one
            if (!doc.has("schema") && doc.has("gpus") && doc.has("library")) continue;
            if (doc.path("schema").asText().equals("hostside/1")) {
                assertThat(errors(doc)).as(p + ": a hostside/1 report is read by report --from, never described by docs/schema")
                        .anyMatch(e -> e.startsWith("/schema:"));
                continue;
            }
            assertThat(errors(doc)).as(p.toString()).isEmpty();
        }
    }

    @Test
    void eachDrillOfTheRecordingIsValid() throws IOException {
        String h200 = Fixtures.h200().toString();
        List<String> kinds = new ArrayList<>();
        for (String drill : List.of("machine", "vm", "cpu", "io", "container", "rack", "health")) {
            CliRun r = CliRun.of(drill, "--json", "--root", h200);
            // health exits 3 on it: GPUs on its bus, and no NVML answers in a recording made before snapshots kept them
            assertThat(r.code()).as(drill + ": " + r.err()).isEqualTo(drill.equals("health") ? 3 : 0);
            JsonNode doc = Json.MAPPER.readTree(r.out());
            assertThat(errors(doc)).as(drill).isEmpty();
            kinds.add(Documents.ALL.stream().filter(d -> d == doc(doc)).findFirst().orElseThrow().file());
        }
        assertThat(kinds).containsExactly("machine", "vm", "cpu", "io", "container", "rack", "health");
    }

    /** A report of the recording, and a comparison of it with the two recorded ones: the documents a fleet reads. */
    @Test
    void aFreshReportAndItsComparisonAreValid() throws IOException {
        Path out = tmp.resolve("results");
        CliRun r = CliRun.of("report", "--json", "--root", Fixtures.h200().toString(), "--out", out.toString(), "--name", "h200-fresh");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(r.out());
        assertThat(errors(report)).isEmpty();
        assertThat(detailKeys(report)).as("every detail's key has its record in the schema").isSubsetOf(Documents.detailTypes().keySet());

        Path reports = Fixtures.testdata().resolve("reports");
        CliRun c = CliRun.of("compare", "--json", out.resolve("h200-fresh.json").toString(), reports.resolve("h200-hostside2.json").toString(),
                reports.resolve("devvm-hostside2.json").toString());
        assertThat(c.code()).as(c.err()).isZero();
        assertThat(errors(Json.MAPPER.readTree(c.out()))).isEmpty();
    }

    /** This JVM's own process over a second: a live checklist, with its rates. */
    @Test
    void aLiveChecklistIsValid() throws IOException {
        CliRun r = CliRun.of("checklist", Long.toString(ProcessHandle.current().pid()), "--seconds", "1", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(errors(Json.MAPPER.readTree(r.out()))).isEmpty();
    }

    @Test
    void theRulebookIsValid() throws IOException {
        assertThat(errors(Json.MAPPER.readTree(CliRun.of("rules", "--json").out()))).isEmpty();
        JsonNode one = Json.MAPPER.readTree(CliRun.of("rules", "M3-SYSCALL", "--json").out());
        assertThat(validate(Documents.ALL.getLast(), one)).isEmpty();
    }

    /** What the readers need, a value's type and a key a strict reader refuses: each makes a valid report invalid, at its place. */
    @Test
    void aReportItsReadersWouldRefuseIsInvalid() throws IOException {
        JsonNode h200 = Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside2.json").toFile());
        assertThat(errors(h200)).isEmpty();

        ObjectNode noQuestions = h200.deepCopy();
        noQuestions.remove("questions");
        assertThat(errors(noQuestions)).anyMatch(e -> e.startsWith(": ") && e.contains("questions"));

        ObjectNode nullHost = h200.deepCopy();
        ((ObjectNode) nullHost.at("/modules/0/data/host")).remove("kernel");
        assertThat(errors(nullHost)).anyMatch(e -> e.startsWith("/modules/0/data/host: ") && e.contains("kernel"));

        ObjectNode textValue = h200.deepCopy();
        ((ObjectNode) textValue.at("/figures/0")).put("value", "55.46 GB/s");
        assertThat(errors(textValue)).anyMatch(e -> e.startsWith("/figures/0/value: "));

        ObjectNode badUnit = h200.deepCopy();
        ((ObjectNode) badUnit.at("/figures/0")).put("unit", "GiB/s");
        assertThat(errors(badUnit)).anyMatch(e -> e.startsWith("/figures/0/unit: "));

        ObjectNode badScope = h200.deepCopy();
        ((ObjectNode) badScope.at("/figures/0")).put("scope", "gpu0");
        assertThat(errors(badScope)).anyMatch(e -> e.startsWith("/figures/0/scope: "));

        ObjectNode unknownKey = h200.deepCopy();
        ((ObjectNode) unknownKey.at("/figures/0")).put("median", 1.0);
        assertThat(errors(unknownKey)).anyMatch(e -> e.startsWith("/figures/0: ") && e.contains("median"));

        ObjectNode okWithoutValue = h200.deepCopy();
        ObjectNode result = (ObjectNode) firstOk(okWithoutValue.at("/modules/1/data/host"));
        result.remove("value");
        assertThat(errors(okWithoutValue)).anyMatch(e -> e.contains("value"));

        ObjectNode wrongDetail = h200.deepCopy();
        ObjectNode detailed = (ObjectNode) firstOk(wrongDetail.at("/modules/1/data/host"));
        ((ObjectNode) detailed.get("detail")).put("noSuchField", 1);
        assertThat(errors(wrongDetail)).anyMatch(e -> e.contains("noSuchField"));

        ObjectNode otherSchema = h200.deepCopy();
        otherSchema.put("schema", "hostside/3");
        assertThat(errors(otherSchema)).anyMatch(e -> e.startsWith("/schema: "));
    }

    /** The schema's detail records are those ReportReader registers, key by key. */
    @Test
    void detailRecordsAreTheReadersOnes() {
        ReadersNeed.schemas(); // ReportReader registers every drill's cases as it loads
        Documents.detailTypes().forEach((key, type) -> assertThat(DetailTypes.of(key)).as(key).isEqualTo(type));
    }

    private static JsonNode firstOk(JsonNode results) {
        for (JsonNode r : results) if (r.path("status").asText().equals("ok") && r.path("detail").isObject()) return r;
        throw new AssertionError("no result that measured with a detail");
    }

    /** Every result's key whose detail is not null, anywhere in {@code n}. */
    private static TreeSet<String> detailKeys(JsonNode n) {
        TreeSet<String> out = new TreeSet<>();
        if (n.isObject() && n.has("key") && n.has("status") && n.path("detail").isObject() && !n.path("detail").isEmpty()) out.add(n.get("key").asText());
        for (JsonNode c : n) out.addAll(detailKeys(c));
        return out;
    }

    /** The document {@code doc} is, by its kind; Module 1's has none, the rulebook neither kind nor schema. */
    static Documents.Doc doc(JsonNode doc) {
        String kind = doc.path("kind").asText(null);
        if (kind == null) return Documents.ALL.stream().filter(d -> d.file().equals(doc.has("rules") ? "rules" : "machine")).findFirst().orElseThrow();
        return Documents.ALL.stream().filter(d -> kind.equals(d.kind())).findFirst().orElseThrow(() -> new AssertionError("no schema for kind " + kind));
    }

    /** Each error as "instance location: message". */
    static List<String> errors(JsonNode doc) throws IOException {
        return validate(doc(doc), doc);
    }

    static List<String> validate(Documents.Doc d, JsonNode doc) throws IOException {
        String schema = Files.readString(WriteSchemas.DIR.resolve(d.file() + ".schema.json"));
        List<Error> errors = REGISTRY.getSchema(schema).validate(Json.MAPPER.writeValueAsString(doc), InputFormat.JSON);
        return errors.stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
    }
}
