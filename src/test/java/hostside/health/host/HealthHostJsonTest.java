package hostside.health.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.type.TypeReference;

import hostside.core.Json;

/** Every fact of this package reads back from the JSON it writes as the same record (the lead records them in reports). */
class HealthHostJsonTest {

    private static <T> void roundTrips(T value, Class<T> type) throws Exception {
        String json = Json.MAPPER.writeValueAsString(value);
        assertThat(Json.MAPPER.readValue(json, type)).isEqualTo(value);
    }

    @Test
    void theFactsOfTheIbNodeRoundTrip() throws Exception {
        var fs = Machines.ibNode();
        PcieAer aer = AerReader.read(fs, List.of(Machines.GPU0, Machines.GPU1, "0000:99:00.0"));
        roundTrips(aer, PcieAer.class);
        IbPorts ib = IbReader.read(fs);
        roundTrips(ib, IbPorts.class);
        roundTrips(RailReader.read(fs, List.of(Machines.GPU0, Machines.GPU1), ib), Rails.class);
        SoftwareStack s = SoftwareReader.read(fs);
        roundTrips(s, SoftwareStack.class);
        List<VersionCheck> checks = VersionAgreement.check(s);
        String json = Json.MAPPER.writeValueAsString(checks);
        assertThat(Json.MAPPER.readValue(json, new TypeReference<List<VersionCheck>>() {})).isEqualTo(checks);
    }

    @Test
    void statesAreWrittenAsTheirNamesAndMethodsAreNotFields() throws Exception {
        String port = Json.MAPPER.writeValueAsString(IbReader.read(Machines.ibNode()).devices().get(1).ports().getFirst());
        assertThat(port).contains("\"state\" : \"ACTIVE\"").contains("\"physicalState\" : \"LINK_UP\"").doesNotContain("\"counter\"");
        String stack = Json.MAPPER.writeValueAsString(SoftwareReader.read(Machines.h100Vm()));
        assertThat(stack).doesNotContain("driverVersion").doesNotContain("upstreamVersion");
        roundTrips(SoftwareReader.read(Machines.h200()), SoftwareStack.class);
        roundTrips(AerReader.read(Machines.h200(), List.of("0000:00:06.0")), PcieAer.class);
    }
}
