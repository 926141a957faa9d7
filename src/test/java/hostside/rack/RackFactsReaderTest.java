package hostside.rack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class RackFactsReaderTest {

    @Test
    void driverParamsAreReadWithTheirQuotesRemoved() {
        // the lines as the H200's driver writes them (testdata/h200), and a CDMM one
        RackFacts.DriverParams p = RackFactsReader.params("""
                EnableUserNUMAManagement: 1
                NvLinkDisable: 1
                ImexChannelCount: 2048
                CreateImexChannel0: 0
                CoherentGPUMemoryMode: ""
                RegistryDwords: ""
                """);
        assertThat(p.coherentGpuMemoryMode()).isEmpty();
        assertThat(p.enableUserNumaManagement()).isEqualTo(1);
        assertThat(p.imexChannelCount()).isEqualTo(2048);
        assertThat(p.createImexChannel0()).isZero();
        assertThat(RackFactsReader.params("CoherentGPUMemoryMode: \"driver\"\nEnableUserNUMAManagement: 0\n").coherentGpuMemoryMode()).isEqualTo("driver");
        assertThat(RackFactsReader.params("ModifyDeviceFiles: 1\n").coherentGpuMemoryMode()).as("a driver without the parameter").isNull();
    }

    @Test
    void numaStatusAsThePower9DriverWritesIt() {
        // testdata/hwloc/nvidiagpunumanodes: Address and Size in hex without 0x
        List<String> unknowns = new ArrayList<>();
        RackFacts.GpuNuma g = RackFactsReader.numaStatus("0035:05:00.0", Optional.of("""
                Node:      250
                Status:    online
                Address:   40000000000
                Size:      3f0000000
                """), unknowns);
        assertThat(g.present()).isTrue();
        assertThat(g.node()).isEqualTo(250);
        assertThat(g.status()).isEqualTo("online");
        assertThat(g.sizeBytes()).isEqualTo(0x3f0000000L);
        assertThat(unknowns).isEmpty();

        RackFacts.GpuNuma none = RackFactsReader.numaStatus("0009:01:00.0", Optional.empty(), unknowns);
        assertThat(none.present()).isFalse();
        assertThat(none.node()).isNull();

        RackFacts.GpuNuma bad = RackFactsReader.numaStatus("0009:01:00.0", Optional.of("Node: x\nStatus: offline\n"), unknowns);
        assertThat(bad.node()).isNull();
        assertThat(bad.status()).isEqualTo("offline");
        assertThat(unknowns).singleElement().asString().contains("0009:01:00.0");
    }
}
