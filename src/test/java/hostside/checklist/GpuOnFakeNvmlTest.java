package hostside.checklist;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.gpu.nvml.FakeNvml;

/**
 * The GPU step through the real binding on the fake libnvidia-ml.so.1: GPU 0 runs the fake's
 * process 4242 (the watched PID here), GPU 1 is held by the power cap and will not list its processes.
 */
class GpuOnFakeNvmlTest {
    static final long PID = 4242;

    @TempDir
    Path dir;

    @AfterEach
    void restore() {
        FakeNvml.resetActivity(CURRENT);
    }

    Checklist gather(java.util.function.IntConsumer between) throws InterruptedException {
        ProcBox box = new ProcBox(dir);
        box.process(PID, 1, "python3", 'S', 0, 0, 0, 0, 1, 0).thread(PID, PID, "python3", 'S', 0, 0, 0, 0, 0);
        try (GpuFeed gpus = GpuFeed.nvml(FakeNvml.library())) {
            return ChecklistRun.run(box.fs(), PID, 2, true, new FakeTicker(t -> {
                box.tick(0, 0, 0, 0, 50).tick(1, 0, 0, 0, 50).tick(2, 0, 0, 0, 50).tick(3, 0, 0, 0, 50).writeStat();
                between.accept(t);
            }), gpus, i -> {});
        }
    }

    @Test
    void eachGpuOverTheWindowAndTheOneThisProcessRunsOn() throws InterruptedException {
        Checklist c = gather(t -> {});
        GpuSection g = c.gpus();
        assertThat(g.notRead()).isNull();
        assertThat(g.gpus()).hasSize(2);
        GpuSection.GpuUse h200 = g.gpus().getFirst();
        assertThat(h200.name()).isEqualTo("NVIDIA H200");
        assertThat(h200.pciBusId()).isEqualTo("0000:00:06.0");
        assertThat(h200.utilPercent()).isEqualTo(97.0);
        assertThat(h200.utilMin()).isEqualTo(97);
        assertThat(h200.powerWatts()).isEqualTo(652.0);
        assertThat(h200.powerLimitWatts()).isEqualTo(700.0);
        assertThat(h200.smClockMhz()).isEqualTo(1980.0);
        assertThat(h200.clocksEventReasons()).isEmpty();
        assertThat(h200.pcieTxKBps()).as("TX on even ticks").isEqualTo(1234.0);
        assertThat(h200.pcieRxKBps()).as("RX on odd ticks").isEqualTo(15728640.0);
        assertThat(h200.processes()).containsExactly(PID);
        assertThat(h200.usedByProcess()).isTrue();
        GpuSection.GpuUse h100 = g.gpus().get(1);
        assertThat(h100.clocksEventReasons()).containsExactly(java.util.Map.entry("power cap", 1.0));
        assertThat(h100.usedByProcess()).isFalse();
        assertThat(c.unknowns()).contains("GPU1 processes: nvmlDeviceGetComputeRunningProcesses_v3: Insufficient Permissions (4)",
                "GPU1 pcieTxKBps: nvmlDeviceGetPcieThroughput: Not Supported (3)");
        assertThat(c.verdict().text()).as("the power-capped GPU is not this process's").isEqualTo("the GPU is busy (97%) and the host is idle: healthy");
    }

    @Test
    void aGpuThatSlowsDownMidWindow() throws InterruptedException {
        Checklist c = gather(t -> {
            if (t == 2) FakeNvml.setActivity(CURRENT, 0, 30, 0x4L | 0x1L);
        });
        GpuSection.GpuUse h200 = c.gpus().gpus().getFirst();
        assertThat(h200.utilMin()).isEqualTo(30);
        assertThat(h200.utilMax()).isEqualTo(97);
        assertThat(h200.utilPercent()).isEqualTo(Rates.round((97 * 2 + 30 * 3) / 5.0, 1));
        assertThat(h200.utilMedian()).as("97, 97, 30, 30, 30").isEqualTo(30.0);
        assertThat(h200.utilSamples()).isEqualTo(5);
        assertThat(c.figures()).as("both GPUs answered five times").hasSize(2);
        Figure f = c.figures().getFirst();
        assertThat(f.scope()).isEqualTo(Scope.gpu("0000:00:06.0"));
        assertThat(List.of(f.value(), f.min(), f.max())).containsExactly(30.0, 30.0, 97.0);
        assertThat(f.samples()).isEqualTo(5);
        assertThat(h200.clocksEventReasons()).containsEntry("power cap", 0.6).containsEntry("idle", 0.6);
        assertThat(c.verdicts()).extracting(Verdicts.Code::of).containsExactly(Verdicts.Code.THROTTLED);
        assertThat(c.verdict().text()).isEqualTo("throttled: power cap on GPU0 (652 of 700 W, SM 1980 of 1980 MHz)");
    }

    @Test
    void noDriverIsSaidAndTheRestGoesOn() throws InterruptedException {
        ProcBox box = new ProcBox(dir);
        box.process(PID, 1, "python3", 'S', 0, 0, 0, 0, 1, 0).thread(PID, PID, "python3", 'S', 0, 0, 0, 0, 0);
        try (GpuFeed gpus = GpuFeed.nvml("/nonexistent/libnvidia-ml.so.1")) {
            Checklist c = ChecklistRun.run(box.fs(), PID, 1, true, new FakeTicker(t -> {}), gpus, i -> {});
            assertThat(c.gpus().notRead()).isEqualTo("no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
            assertThat(c.gpus().gpus()).isEmpty();
            assertThat(c.process()).isNotNull();
            assertThat(c.window().samples()).isEqualTo(3);
        }
    }
}
