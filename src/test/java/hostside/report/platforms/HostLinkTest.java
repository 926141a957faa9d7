package hostside.report.platforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.report.Fleet;

class HostLinkTest {
    @Test
    void aPcieLinkIsNamedByTheGenerationItsRateIs() {
        assertThat(List.of(2.5, 5.0, 8.0, 16.0, 32.0, 64.0, 128.0).stream().map(gts -> HostLink.pcie(gts, 16).toString()))
                .containsExactly("pcie-gen1-x16", "pcie-gen2-x16", "pcie-gen3-x16", "pcie-gen4-x16", "pcie-gen5-x16", "pcie-gen6-x16", "pcie-gen7-x16");
        HostLink odd = HostLink.pcie(20.0, 8);
        assertThat(odd.generation()).as("no generation runs at 20 GT/s").isNull();
        assertThat(odd.gtPerS()).isNull();
        assertThat(odd).hasToString("pcie-x8");
        assertThat(odd.pcieWords()).isEqualTo("PCIe x8");
        assertThat(HostLink.pcie(32.0, 16).gtPerS()).isEqualTo(32.0);
        assertThat(HostLink.pcie(32.0, 16).pcieWords()).isEqualTo("PCIe Gen5 x16");
        assertThat(HostLink.C2C.pcieWords()).isEmpty();
    }

    @Test
    void theClassWordsReadBackIntoTheSameLink() throws Exception {
        for (HostLink l : List.of(new HostLink(HostLink.Kind.PCIE, 4, 16), HostLink.pcie(20.0, 4), HostLink.C2C, HostLink.INTEGRATED, HostLink.NONE, HostLink.UNKNOWN)) {
            assertThat(HostLink.parse(l.toString())).isEqualTo(l);
            assertThat(Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(l), HostLink.class)).isEqualTo(l);
        }
        assertThat(Json.MAPPER.writeValueAsString(HostLink.C2C)).isEqualTo("\"c2c\"");
        assertThat(HostLink.parse(null)).isNull();
        assertThat(HostLink.parse("pcie-gen20.0gts-x16")).as("an odd rate as hostside wrote it before").isEqualTo(HostLink.pcie(20.0, 16));
    }

    @Test
    void wordsHostsideDoesNotWriteAreRefused() {
        for (String w : List.of("pcie", "PCIe Gen5 x16", "pcie-gen8-x16", "pcie-gen0-x16", "pcie-gen5-x0", "pcie-gen5x16", "nvlink", ""))
            assertThatThrownBy(() -> HostLink.parse(w)).as(w).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Fleet.HardwareClass("NVIDIA H100", 8, "Xeon", 112, "pcie gen 5", "none", Nics.NONE, 4096L))
                .as("a class holds only words its link reads back from").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLinkPlacesAMachineInItsClass() {
        assertThat(HostLink.pcie(16.0, 16).placementClass()).isEqualTo("pcie");
        assertThat(HostLink.C2C.placementClass()).isEqualTo("c2c");
        assertThat(HostLink.INTEGRATED.placementClass()).isEqualTo("integrated");
        assertThat(HostLink.NONE.placementClass()).isNull();
        assertThat(HostLink.UNKNOWN.placementClass()).isNull();
        assertThat(Placement.linkClass(null)).isNull();
    }
}
