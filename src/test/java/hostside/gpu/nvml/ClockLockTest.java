package hostside.gpu.nvml;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The locked-clocks confounder: each sign NVML can show, and what no sign means. */
class ClockLockTest {
    @AfterEach
    void reset() {
        FakeNvml.resetClockPolicy(CURRENT);
        FakeNvml.resetActivity(CURRENT);
    }

    private static List<NvmlGpu> gpus() {
        return NvmlReader.read(FakeNvml.library()).gpus();
    }

    @Test
    void defaultsEverywhereAreNotLocked() {
        List<NvmlGpu> g = gpus();
        assertThat(ClockLock.of(g.get(0))).isEqualTo(new ClockLock(false, List.of()));
        // no applications clocks, but the reasons and the power limit were read: still a "no"
        assertThat(ClockLock.of(g.get(1))).isEqualTo(new ClockLock(false, List.of()));
        assertThat(ClockLock.of(g)).isEqualTo(new ClockLock(false, List.of()));
    }

    @Test
    void applicationsClocksBelowTheDefaultAreALock() {
        FakeNvml.setClockPolicy(CURRENT, 0, 1410, 0, 700000, 1980);
        ClockLock one = ClockLock.of(gpus().get(0));
        assertThat(one.locked()).isTrue();
        assertThat(one.signs()).containsExactly("applications clocks SM 1410 MHz, default 1980 (nvidia-smi -ac)");
        ClockLock all = ClockLock.of(gpus());
        assertThat(all.locked()).isTrue();
        assertThat(all.signs()).containsExactly("GPU0: applications clocks SM 1410 MHz, default 1980 (nvidia-smi -ac)");
    }

    @Test
    void aPowerLimitBelowTheDefaultIsACap() {
        FakeNvml.setClockPolicy(CURRENT, 1, 0, 0, 450000, 345);
        ClockLock all = ClockLock.of(gpus());
        assertThat(all.locked()).isTrue();
        assertThat(all.signs()).containsExactly("GPU1: power limit 450 W, default 700 W (nvidia-smi -pl, or the platform)");
    }

    @Test
    void theClockSettingReasonBelowTheMaximumIsALockedRange() {
        // nvidia-smi -lgc 1200,1200 under load: applications clocks untouched, the SM clock held at 1200
        FakeNvml.setClockPolicy(CURRENT, 0, 0, 0, 700000, 1200);
        FakeNvml.setActivity(CURRENT, 0, 97, NvmlTypes.nvmlClocksEventReasonApplicationsClocksSetting);
        ClockLock one = ClockLock.of(gpus().get(0));
        assertThat(one.locked()).isTrue();
        assertThat(one.signs()).containsExactly("SM clock 1200 of 1980 MHz held by a clock setting (nvidia-smi -lgc or -ac)");
    }

    @Test
    void theReasonAtTheMaximumOrAtTheDefaultApplicationsClockIsNoSign() {
        // at the maximum: the setting holds nothing down
        FakeNvml.setActivity(CURRENT, 0, 97, NvmlTypes.nvmlClocksEventReasonApplicationsClocksSetting);
        assertThat(ClockLock.of(gpus().get(0)).locked()).isFalse();
        // a board whose default applications clock is below its maximum (V100) shows the reason
        // under every load, at that default: not an administrator's lock
        NvmlGpu g = gpus().get(0);
        NvmlGpu v100 = withClocks(g, 1312, 1530, new NvmlGpu.ClockPolicy(1312, 1312, 877, 877, 300000, 300000,
                NvmlTypes.nvmlClocksEventReasonApplicationsClocksSetting));
        assertThat(ClockLock.of(v100)).isEqualTo(new ClockLock(false, List.of()));
    }

    @Test
    void withoutTheReasonsOrTheSettingsItIsUnknown() {
        NvmlGpu g = gpus().get(0);
        assertThat(ClockLock.of(withClocks(g, 1980, 1980, null))).isEqualTo(new ClockLock(null, List.of()));
        NvmlGpu noReasons = withClocks(g, 1980, 1980, new NvmlGpu.ClockPolicy(1980, 1980, 3201, 3201, 700000, 700000, null));
        assertThat(ClockLock.of(noReasons).locked()).isNull();
        // one GPU unknown, the other not locked: unknown; no GPU at all: unknown
        assertThat(ClockLock.of(List.of(noReasons, gpus().get(1))).locked()).isNull();
        assertThat(ClockLock.of(List.of()).locked()).isNull();
    }

    private static NvmlGpu withClocks(NvmlGpu g, int sm, int smMax, NvmlGpu.ClockPolicy clocks) {
        return new NvmlGpu(g.index(), g.name(), g.uuid(), g.pciBusId(), g.pcieGen(), g.pcieWidth(), g.pcieMaxGen(),
                g.pcieMaxWidth(), g.pcieGpuMaxGen(), g.numaNode(), g.cpuAffinity(), g.persistenceMode(), sm, smMax,
                g.memClockMhz(), g.memClockMaxMhz(), g.eccEnabled(), g.eccPendingEnabled(), g.memoryTotalBytes(),
                g.nvLinks(), g.fabric(), g.addressingMode(), g.migEnabled(), g.migPendingEnabled(), clocks, g.unknowns());
    }
}
