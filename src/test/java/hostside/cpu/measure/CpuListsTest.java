package hostside.cpu.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.DatabindException;

import hostside.core.CpuSet;
import hostside.core.Json;

/** A detail's CPUs read from both spellings: the cpulist a CpuSet writes, and hostside/1's array. */
class CpuListsTest {
    static CpuSet cpus(String json) throws Exception {
        return Json.MAPPER.readValue("{\"cpus\": " + json + ", \"roundTripsPerSample\": 1}", SchedCosts.PingPong.Detail.class).cpus();
    }

    @Test
    void bothSpellingsReadAsTheSameSet() throws Exception {
        assertThat(cpus("\"0-1\"")).isEqualTo(CpuSet.of(0, 1));
        assertThat(cpus("[0, 1]")).isEqualTo(CpuSet.of(0, 1));
        assertThat(cpus("\"\"")).isEqualTo(CpuSet.EMPTY);
        assertThat(cpus("null")).isNull();
    }

    @Test
    void garbageIsAMappingErrorNotASet() {
        assertThatThrownBy(() -> cpus("\"0-zz\"")).isInstanceOf(DatabindException.class).hasMessageContaining("not a CPU list");
        assertThatThrownBy(() -> cpus("[0, -1]")).isInstanceOf(DatabindException.class).hasMessageContaining("an array of CPU numbers");
    }
}
