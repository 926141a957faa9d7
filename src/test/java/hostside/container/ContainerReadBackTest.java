package hostside.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.testing.CliRun;

/** A container run's JSON reads back into an equal run, and the container part of a report of schema hostside/1 reads too. */
class ContainerReadBackTest {
    @TempDir
    Path tmp;

    /** A tree as the JSON text reads: a tree built from records holds longs where a parsed one holds ints, and the two differ. */
    static JsonNode parsed(JsonNode tree) throws Exception {
        return Json.MAPPER.readTree(Json.write(tree));
    }

    static ContainerRun readBack(JsonNode json) throws Exception {
        return Json.MAPPER.treeToValue(json, ContainerRun.class);
    }

    @Test
    void theH200RecordingAsTheCommandWritesIt() throws Exception {
        CliRun r = CliRun.of("container", "--root", Fixtures.h200().toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode written = Json.MAPPER.readTree(r.out());
        assertThat(parsed(readBack(written).json())).isEqualTo(written);
    }

    @Test
    void tightContainersOfBothCgroupVersions() throws Exception {
        for (Rig rig : new Rig[] {Rig.v1(tmp.resolve("v1")).tight(), Rig.v2(tmp.resolve("v2")).tight()}) {
            ContainerRun run = rig.run();
            assertThat(run.findings()).isNotEmpty();
            ContainerRun back = readBack(run.json());
            assertThat(back).isEqualTo(run);
            assertThat(parsed(back.json())).isEqualTo(parsed(run.json()));
        }
    }

    @Test
    void thisMachineLive() throws Exception {
        ContainerRun run = ContainerRun.read(FsRoot.live(), LiveProcess.current(), 4, 2, 1L << 20);
        assertThat(readBack(run.json())).isEqualTo(run);
    }

    @Test
    void theContainerPartOfAReportOfTheFirstSchema() throws Exception {
        JsonNode c = Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside1.json").toFile())
                .path("modules").get(3).path("data").path("container");
        ContainerRun old = readBack(c);
        assertThat(old.verdict()).startsWith("not in a container");
        assertThat(old.facts().memory().limit().value()).isEqualTo(137438953472L);
        assertThat(old.facts().limits().memlock().softUnlimited()).isTrue();
        assertThat(old.facts().devices().deviceNodes()).containsExactly("/dev/nvidia0");
        assertThat(old.plan().workers()).isEqualTo(DataLoaderPlan.DEFAULT_WORKERS);
        assertThat(old.figures()).isEmpty();
    }
}
