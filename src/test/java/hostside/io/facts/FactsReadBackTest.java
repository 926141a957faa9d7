package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Json;

/** The storage and network facts read back from their JSON into equal records: every record kind, unknowns included. */
class FactsReadBackTest {
    @TempDir
    Path tmp;

    @Test
    void theTrainingBox() throws Exception {
        IoFacts f = new Rig(tmp).read("/data/x", "/shared", "/");
        assertThat(f.gpuDirect().cufile().present()).isTrue();
        assertThat(f.blockDevices()).anySatisfy(b -> assertThat(b.controller()).isNotNull());
        assertThat(Json.MAPPER.treeToValue(Json.MAPPER.valueToTree(f), IoFacts.class)).isEqualTo(f);
    }

    @Test
    void withoutAMountTable() throws Exception {
        IoFacts f = new Rig(tmp).remove("/proc/self/mountinfo").read("/x");
        assertThat(f.unknowns()).isNotEmpty();
        assertThat(Json.MAPPER.treeToValue(Json.MAPPER.valueToTree(f), IoFacts.class)).isEqualTo(f);
    }
}
