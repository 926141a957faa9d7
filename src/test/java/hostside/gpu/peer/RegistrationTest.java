package hostside.gpu.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.harness.TestCase;
import hostside.machine.GpuDrill;
import hostside.testing.CliRun;

/** The multi-GPU cases are where `hostside machine` runs and lists them, under nvbandwidth's names. */
class RegistrationTest {
    static final List<String> KEYS = List.of("host_to_all_memcpy_ce", "all_to_host_memcpy_ce", "device_to_device_memcpy_read_ce",
            "device_to_device_memcpy_write_ce", "device_to_device_bidirectional_memcpy_read_ce",
            "device_to_device_bidirectional_memcpy_write_ce", "device_to_device_memcpy_read_sm", "device_to_device_memcpy_write_sm",
            "device_to_device_latency_sm", "device_to_device_memcpy_staged_ce");

    @Test
    void theDrillRunsThemOnAllGpusTogether() {
        assertThat(GpuDrill.allGpuTests()).extracting(TestCase::key).containsExactlyElementsOf(KEYS);
    }

    @Test
    void machineListNamesThemAndTheOldKeysAreGone() {
        CliRun r = CliRun.of("machine", "--list");
        assertThat(r.code()).as(r.err()).isZero();
        for (String k : KEYS) assertThat(r.out()).containsPattern("(?m)^\\s*" + k + "\\s");
        assertThat(r.out()).doesNotContain("_all_gpus");
    }
}
