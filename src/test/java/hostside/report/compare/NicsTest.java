package hostside.report.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.report.Fleet;
import hostside.report.platforms.Nics;

class NicsTest {
    @Test
    void theFastestGroupIsTheComputeFabricPerGpu() {
        assertThat(Nics.parse("8x400g-rdma,2x200g").gbpsPerGpu(8)).isEqualTo(400.0);
        assertThat(Nics.parse("2x200g,4x400g-rdma,4x400g").gbpsPerGpu(4)).as("both groups at the fastest speed count").isEqualTo(800.0);
        assertThat(Nics.parse("1xunknown").gbpsPerGpu(1)).as("no speed known").isNull();
        assertThat(Nics.NONE.gbpsPerGpu(8)).isNull();
        assertThat(Nics.parse("1x100g").gbpsPerGpu(0)).as("no GPU to share it").isNull();
    }

    @Test
    void theClassWordsReadBackIntoTheSameGroups() throws Exception {
        Nics n = Nics.parse("2x400g-rdma,1x25g,1xunknown");
        assertThat(n.groups()).containsExactly(new Nics.Group(2, 400, true), new Nics.Group(1, 25, false), new Nics.Group(1, null, false));
        assertThat(n).hasToString("2x400g-rdma,1x25g,1xunknown");
        assertThat(Nics.parse("none")).isEqualTo(Nics.NONE).hasToString("none");
        // a report holds the words, and reads them back as they were
        Fleet.HardwareClass c = new Fleet.HardwareClass("NVIDIA H100", 8, "Xeon", 112, "pcie-gen5-x16", "nvswitch-8", n, 4096L);
        String json = Json.MAPPER.writeValueAsString(c);
        assertThat(json).contains("\"nics\" : \"2x400g-rdma,1x25g,1xunknown\"");
        assertThat(Json.MAPPER.readValue(json, Fleet.HardwareClass.class)).isEqualTo(c);
    }

    @Test
    void wordsHostsideDidNotWriteAreRefused() {
        assertThatThrownBy(() -> Nics.parse("8x400gbit")).hasMessageContaining("not a group of NICs");
        assertThatThrownBy(() -> Nics.parse("99999999999x400g")).hasMessageContaining("out of range");
    }
}
