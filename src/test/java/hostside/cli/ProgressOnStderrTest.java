package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.testing.CliRun;

/** A drill's progress goes to stderr, one line per case when stderr is no terminal; --json's stdout stays one document. */
class ProgressOnStderrTest {
    @TempDir
    Path tmp;

    /** stdout as one JSON document and nothing after it (trailing text would be refused). */
    static JsonNode oneDocument(CliRun r) throws Exception {
        assertThat(r.code()).as(r.err()).isZero();
        return Json.MAPPER.readerFor(JsonNode.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(r.out());
    }

    @Test
    void aMeasuredRunWithJsonHasEachCaseOnStderrAndOnlyTheDocumentOnStdout() throws Exception {
        CliRun r = CliRun.of("vm", "--only", "file_read_warm,anon_first_touch_base", "--size", "64M", "--anon-size", "8M",
                "--dir", tmp.toString(), "--json");
        JsonNode j = oneDocument(r);
        assertThat(j.path("kind").asText()).isEqualTo("vm");
        assertThat(r.out()).doesNotContain("hostside: ").doesNotContain("started");
        assertThat(r.errLinesBesideTheLoad()).satisfiesExactly(
                l -> assertThat(l).startsWith("hostside: 1/2 file_read_warm: started (elapsed "),
                l -> assertThat(l).startsWith("hostside: 1/2 file_read_warm: ok in ").contains(" left)"),
                l -> assertThat(l).startsWith("hostside: 2/2 anon_first_touch_base: started"),
                l -> assertThat(l).startsWith("hostside: 2/2 anon_first_touch_base: ok in ").doesNotContain("left"));
        assertThat(r.err()).as("no terminal here: no escape codes").doesNotContain("\r").doesNotContain("\u001b");
    }

    @Test
    void aRecordingMeasuresNothingSoItsJsonRunIsOneDocumentAndStderrStaysEmpty() throws Exception {
        for (String drill : new String[] {"machine", "vm", "cpu", "io"}) {
            CliRun r = CliRun.of(drill, "--root", Fixtures.h200().toString(), "--json");
            assertThat(oneDocument(r).path("schema").asText()).as(drill).isNotEmpty();
            assertThat(r.err()).as(drill).isEmpty();
        }
    }
}
