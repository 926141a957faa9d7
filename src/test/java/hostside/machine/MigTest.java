package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.gpu.nvml.NvmlFacts;
import hostside.gpu.nvml.NvmlGpu;

/** A GPU in MIG mode is a state of the machine: its copy rows say why they did not run. */
class MigTest {
    static NvmlGpu gpu(String address, Boolean mig) {
        return new NvmlGpu(0, "NVIDIA H100", "GPU-x", address, 5, 16, 5, 16, 5, null, CpuSet.range(0, 15), true, 1000, 1980, 2619, 2619,
                true, true, 80L << 30, List.of(), null, "none", mig, mig, null, List.of());
    }

    static NvmlFacts facts(NvmlGpu... gpus) {
        return new NvmlFacts("libnvidia-ml.so.1", null, "580.159.04", "13.580.159.04", "13.0", List.of(gpus), List.of(), List.of());
    }

    @Test
    void migModeIsNamed() {
        assertThat(GpuDrill.migReason(facts(gpu("0000:00:06.0", true)), "0000:00:06.0")).get().asString().startsWith("MIG mode is on");
    }

    @Test
    void noMigNoReason() {
        assertThat(GpuDrill.migReason(facts(gpu("0000:00:06.0", false)), "0000:00:06.0")).isEmpty();
        assertThat(GpuDrill.migReason(facts(gpu("0000:00:06.0", null)), "0000:00:06.0")).isEmpty();
        assertThat(GpuDrill.migReason(facts(gpu("0000:00:07.0", true)), "0000:00:06.0")).isEmpty();
        assertThat(GpuDrill.migReason(null, "0000:00:06.0")).isEmpty();
    }
}
