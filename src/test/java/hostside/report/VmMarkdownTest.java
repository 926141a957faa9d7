package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.harness.DetailTypes;
import hostside.harness.TestCase;
import hostside.vm.VmDrill;
import hostside.vm.VmRun;

/** The report's Module 2 section reads the TLB curve in both shapes: hostside/1's "points" and the sweep that replaced it. */
class VmMarkdownTest {
    static JsonNode firstSchemaVm() throws Exception {
        JsonNode report = Json.MAPPER.readTree(Files.readString(hostside.Fixtures.testdata().resolve("reports/h200-hostside1.json")));
        for (JsonNode m : report.path("modules")) if (m.path("data").path("kind").asText().equals("vm")) return m.path("data");
        throw new AssertionError("no vm module");
    }

    static String render(JsonNode vm) {
        StringBuilder md = new StringBuilder();
        VmMarkdown.render(md, vm);
        return md.toString();
    }

    @Test
    void theTlbTableAndTheFiguresComeFromEitherSchema() throws Exception {
        JsonNode old = firstSchemaVm();
        List<TestCase<?>> cases = new ArrayList<>(VmDrill.hostTests());
        cases.addAll(VmDrill.gpuTests());
        DetailTypes.register(cases);
        JsonNode current = Json.MAPPER.treeToValue(old, VmRun.class).json();
        assertThat(current.path("host").get(6).path("detail").has("points")).as("the new shape").isFalse();
        for (JsonNode vm : List.of(old, current)) {
            String md = render(vm);
            assertThat(md).contains("TLB reach: random dependent loads").containsPattern("\\| 4 GiB \\| 276\\.9 \\| 130\\.7 \\| 2\\.12x \\|")
                    .containsPattern("\\| 64 KiB \\| 2\\.4 \\| 2\\.3 \\| 1\\.06x \\|");
            assertThat(md).contains("`anon_first_touch_base`").contains("| 256.0 |").contains("What it means");
        }
    }
}
