package hostside.gpu.nvml;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static hostside.gpu.nvml.FakeNvml.Variant.OLD;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The checklist's per-sample readings (NvmlActivity through NvmlWatch) against the fake libnvidia-ml.so.1. */
class NvmlActivityTest {

    @AfterEach
    void restore() {
        FakeNvml.resetActivity(CURRENT);
        FakeNvml.setDeviceCount(CURRENT, 2);
    }

    private static NvmlWatch watch(FakeNvml.Variant v) {
        NvmlResult<NvmlWatch> r = NvmlWatch.open(FakeNvml.library(v));
        assertThat(r.why()).isNull();
        return r.orNull();
    }

    @Test
    void aBusyGpuWithItsProcessAndOnePcieCounter() {
        try (NvmlWatch w = watch(CURRENT)) {
            assertThat(w.gpus()).extracting(NvmlWatch.Gpu::name).containsExactly("NVIDIA H200", "NVIDIA H100 80GB HBM3");
            assertThat(w.gpus()).extracting(NvmlWatch.Gpu::pciBusId).containsExactly("0000:00:06.0", "0001:0a:00.0");
            NvmlActivity a = w.read(0, NvmlActivity.Pcie.TX);
            assertThat(a.unknowns()).isEmpty();
            assertThat(a.utilGpuPercent()).isEqualTo(97);
            assertThat(a.utilMemoryPercent()).isEqualTo(41);
            assertThat(a.memoryTotalBytes()).isEqualTo(150754820096L);
            assertThat(a.memoryUsedBytes()).as("v2: what processes hold, without the driver's reserve, as nvidia-smi says").isEqualTo(512L << 20);
            assertThat(a.powerMilliwatts()).isEqualTo(652000);
            assertThat(a.powerLimitMilliwatts()).isEqualTo(700000);
            assertThat(a.smClockMhz()).isEqualTo(1980);
            assertThat(a.smClockMaxMhz()).isEqualTo(1980);
            assertThat(a.clocksEventReasons()).isZero();
            assertThat(a.pcieTxKBps()).isEqualTo(1234);
            assertThat(a.pcieRxKBps()).as("not asked this time").isNull();
            assertThat(a.processes()).containsExactly(new NvmlActivity.ComputeProcess(4242, 75161927680L));
            assertThat(w.read(0, NvmlActivity.Pcie.RX).pcieRxKBps()).isEqualTo(15728640);
        }
    }

    @Test
    void aPowerCappedGpuWhoseCountersAreNotAllGiven() {
        try (NvmlWatch w = watch(CURRENT)) {
            NvmlActivity a = w.read(1, NvmlActivity.Pcie.BOTH);
            assertThat(a.utilGpuPercent()).isEqualTo(35);
            assertThat(NvmlActivity.reasonNames(a.clocksEventReasons())).containsExactly("power cap");
            assertThat(a.pcieTxKBps()).isNull();
            assertThat(a.pcieRxKBps()).isNull();
            assertThat(a.processes()).isNull();
            assertThat(a.unknowns()).containsExactly(
                    "pcieTxKBps: nvmlDeviceGetPcieThroughput: Not Supported (3)",
                    "pcieRxKBps: nvmlDeviceGetPcieThroughput: Not Supported (3)",
                    "processes: nvmlDeviceGetComputeRunningProcesses_v3: Insufficient Permissions (4)");
        }
    }

    @Test
    void theProcessListTakesNvmlsTwoStepsAndMarksMissingMemory() {
        FakeNvml.clearProcesses(CURRENT, 0);
        try (NvmlWatch w = watch(CURRENT)) {
            assertThat(w.read(0, NvmlActivity.Pcie.NONE).processes()).as("none running: SUCCESS on the count call").isEmpty();
            for (int pid = 100; pid < 106; pid++) FakeNvml.addProcess(CURRENT, 0, pid, pid == 103 ? -1 : pid * 1000L);
            List<NvmlActivity.ComputeProcess> procs = w.read(0, NvmlActivity.Pcie.NONE).processes();
            assertThat(procs).hasSize(6);
            assertThat(procs.get(0)).isEqualTo(new NvmlActivity.ComputeProcess(100, 100_000L));
            assertThat(procs.get(3).usedGpuMemoryBytes()).as("NVML_VALUE_NOT_AVAILABLE").isNull();
        }
    }

    @Test
    void anOlderDriverAnswersUnderTheThrottleName() {
        try (NvmlWatch w = watch(OLD)) {
            NvmlActivity a = w.read(1, NvmlActivity.Pcie.NONE);
            assertThat(a.clocksEventReasons()).isEqualTo(NvmlTypes.nvmlClocksEventReasonSwPowerCap);
            assertThat(a.unknowns()).noneMatch(u -> u.startsWith("clocksEventReasons"));
            assertThat(a.memoryUsedBytes()).as("no v2 before R510: v1's used, reserve included").isEqualTo((512L + 616) << 20);
        }
    }

    @Test
    void noDriverNoGpuAndShutdown() {
        assertThat(NvmlWatch.open("/nonexistent/libnvidia-ml.so.1").why())
                .isEqualTo("no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
        int before = FakeNvml.initCount(CURRENT);
        FakeNvml.setDeviceCount(CURRENT, 0);
        assertThat(NvmlWatch.open(FakeNvml.library()).why()).isEqualTo("no NVIDIA GPU (NVML counts 0)");
        assertThat(FakeNvml.initCount(CURRENT)).as("shut down again when there is nothing to watch").isEqualTo(before);
        FakeNvml.setDeviceCount(CURRENT, 2);
        NvmlWatch w = watch(CURRENT);
        assertThat(FakeNvml.initCount(CURRENT)).isEqualTo(before + 1);
        w.close();
        assertThat(FakeNvml.initCount(CURRENT)).isEqualTo(before);
        assertThat(w.shutdownProblem()).isNull();
    }

    @Test
    void reasonNamesInNvmlsWords() {
        assertThat(NvmlActivity.reasonNames(0)).isEmpty();
        assertThat(NvmlActivity.reasonNames(0x1)).containsExactly("idle");
        assertThat(NvmlActivity.reasonNames(0x4 | 0x40 | 0x80)).containsExactly("power cap", "HW thermal slowdown", "HW power brake");
        assertThat(NvmlActivity.reasonNames(0x8 | 0x20)).containsExactly("HW slowdown", "SW thermal slowdown");
        assertThat(NvmlActivity.reasonNames(0x1000 | 0x2)).containsExactly("application clocks", "bits 0x1000");
    }
}
