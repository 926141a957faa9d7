package hostside.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.gpu.nvml.GpuHealth;
import hostside.gpu.nvml.GpuHealth.ComputeMode;
import hostside.gpu.nvml.GpuHealth.EccCounts;
import hostside.gpu.nvml.GpuHealth.Memory;
import hostside.gpu.nvml.GpuHealth.Pcie;
import hostside.gpu.nvml.GpuHealth.RecoveryAction;
import hostside.gpu.nvml.GpuHealth.RemapHistogram;
import hostside.gpu.nvml.GpuHealth.RemappedRows;
import hostside.gpu.nvml.GpuHealth.RetiredPages;
import hostside.gpu.nvml.GpuHealth.State;
import hostside.gpu.nvml.GpuHealth.ThrottleTime;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.nvml.NvmlHealth;
import hostside.gpu.nvml.NvmlTypes;
import hostside.gpu.nvml.Unread;
import hostside.testing.RuleTally;

/**
 * Each GPU rule of node health firing and quiet, on GPUs built from the H100's real answers
 * (shared/fixtures/h100/nvidia-smi-q.txt: ECC on, nothing counted, 2560 banks with every spare,
 * 32 C with 53 C to slowdown, 700 W limit, persistence on, PCIe Gen5 x16, no replays) with one
 * thing changed.
 */
class GpuChecksTest {
    static final EccCounts ZERO = new EccCounts(0L, 0L, 0L, 0L, 0L, 0L, 0L);

    static Memory memory() {
        return new Memory(true, true, ZERO, ZERO, false, new GpuHealth.SramSources(0L, 0L, 0L, 0L, 0L), false, false, false,
                new RetiredPages(null, null, null), new RemappedRows(0L, 0L, 0L, 0L, false, false), new RemapHistogram(2560L, 0L, 0L, 0L, 0L));
    }

    static State state() {
        return new State(0x1L, 0x1ffL, new ThrottleTime(0L, 0L, 0L, 0L, 0L), 32, 34, 89, 95, 87, 95, 53, -8, -2, 71790, 72110, 700000, 700000,
                true, ComputeMode.DEFAULT, false, false, RecoveryAction.NONE, 0);
    }

    static Pcie pcie() {
        return new Pcie(5, 16, 5, 16, 5, 0L, 0L);
    }

    static GpuHealth gpu(Memory m, State s, Pcie p, List<GpuHealth.Link> links, List<Unread> unread) {
        return new GpuHealth(0, "NVIDIA H100 80GB HBM3", "GPU-b8f3780d", "0000:00:06.0", m, s, p, links, null, unread);
    }

    static GpuHealth healthy() {
        return gpu(memory(), state(), pcie(), List.of(), List.of());
    }

    static Judged judge(GpuHealth g) {
        Judged j = new Judged();
        GpuChecks.check(new NvmlHealth("libnvidia-ml.so.1", null, null, "580.159.04", "13.580.159.04", "13.0", List.of(g), List.of()), j);
        return j;
    }

    static Finding only(Judged j, Rule rule, Severity severity) {
        List<Finding> of = j.findings.stream().filter(f -> f.id().equals(rule.id())).toList();
        assertThat(of).as(rule.id() + " in " + j.findings).hasSize(1);
        assertThat(of.getFirst().severity()).isEqualTo(severity);
        assertThat(of.getFirst().subject()).isEqualTo("GPU0");
        return of.getFirst();
    }

    static Judged memoryWith(UnaryOperator<Object[]> change) {
        Memory m = memory();
        Object[] c = {m.eccEnabled(), m.eccPendingEnabled(), m.volatileErrors(), m.aggregateErrors(), m.sramThresholdExceeded(),
                m.aggregateUncorrectedSram(), m.channelRepairPending(), m.tpcRepairPending(), m.unrepairable(), m.retiredPages(),
                m.remappedRows(), m.remapHistogram()};
        c = change.apply(c);
        return judge(gpu(new Memory((Boolean) c[0], (Boolean) c[1], (EccCounts) c[2], (EccCounts) c[3], (Boolean) c[4],
                (GpuHealth.SramSources) c[5], (Boolean) c[6], (Boolean) c[7], (Boolean) c[8], (RetiredPages) c[9], (RemappedRows) c[10],
                (RemapHistogram) c[11]), state(), pcie(), List.of(), List.of()));
    }

    static Object[] set(Object[] c, int i, Object v) {
        c[i] = v;
        return c;
    }

    static Judged stateWith(int i, Object v) {
        State s = state();
        Object[] c = {s.clockEventReasons(), s.supportedClockEventReasons(), s.throttleTime(), s.gpuTempC(), s.memoryTempC(), s.slowdownTempC(),
                s.shutdownTempC(), s.gpuMaxOperatingTempC(), s.memoryMaxOperatingTempC(), s.marginTempC(), s.shutdownTLimitC(), s.slowdownTLimitC(),
                s.powerAverageMw(), s.powerInstantMw(), s.powerLimitMw(), s.defaultPowerLimitMw(), s.persistenceMode(), s.computeMode(),
                s.migEnabled(), s.migPendingEnabled(), s.recoveryAction(), s.performanceState()};
        c[i] = v;
        return judge(gpu(memory(), new State((Long) c[0], (Long) c[1], (ThrottleTime) c[2], (Integer) c[3], (Integer) c[4], (Integer) c[5],
                (Integer) c[6], (Integer) c[7], (Integer) c[8], (Integer) c[9], (Integer) c[10], (Integer) c[11], (Integer) c[12], (Integer) c[13],
                (Integer) c[14], (Integer) c[15], (Boolean) c[16], (ComputeMode) c[17], (Boolean) c[18], (Boolean) c[19], (RecoveryAction) c[20],
                (Integer) c[21]), pcie(), List.of(), List.of()));
    }

    @Test
    void theH100AsItAnsweredPassesEveryGpuCheck() {
        Judged j = judge(healthy());
        assertThat(j.findings).isEmpty();
        RuleTally.quiet(j.findings, HealthRules.NOT_JUDGED);
        for (Rule r : List.of(HealthRules.GPU_LOST, HealthRules.ECC_MODE, HealthRules.ECC_UNCORRECTED, HealthRules.SRAM, HealthRules.ROW_REMAP_PENDING,
                HealthRules.ROW_REMAP_FAILED, HealthRules.REMAP_BANKS, HealthRules.UNREPAIRABLE, HealthRules.RECOVERY_ACTION, HealthRules.CLOCK_SLOWDOWN,
                HealthRules.TEMPERATURE, HealthRules.POWER_CAPPED, HealthRules.PERSISTENCE, HealthRules.COMPUTE_MODE, HealthRules.MIG_PENDING,
                HealthRules.PCIE_REPLAYS)) {
            RuleTally.quiet(j.findings, r);
            assertThat(j.passed).as(r.id()).contains(new HealthRun.Passed(r.id(), "GPU0"));
        }
        // retired pages are Not Supported on an H100 (it remaps rows): nothing said, nothing passed
        assertThat(j.passed).noneMatch(p -> p.id().equals(HealthRules.RETIRED_PAGES.id()));
    }

    @Test
    void eccOffOrChangingAtTheNextReboot() {
        only(memoryWith(c -> set(c, 0, false)), HealthRules.ECC_MODE, Severity.WARN);
        assertThat(only(memoryWith(c -> set(c, 1, false)), HealthRules.ECC_MODE, Severity.INFO).text()).contains("turns off at the next reboot");
    }

    @Test
    void uncorrectableErrorsSinceTheDriverLoadedAreBadOlderOnesHistory() {
        EccCounts two = new EccCounts(0L, 2L, 0L, 0L, 0L, 0L, 2L);
        assertThat(only(memoryWith(c -> set(c, 2, two)), HealthRules.ECC_UNCORRECTED, Severity.BAD).text()).contains("2 uncorrectable ECC errors");
        only(memoryWith(c -> set(c, 3, two)), HealthRules.ECC_UNCORRECTED, Severity.INFO);
        // without NVML's total, DRAM's and SRAM's are added
        assertThat(GpuChecks.uncorrected(new EccCounts(0L, 1L, 0L, 2L, 3L, null, null))).isEqualTo(6L);
    }

    @Test
    void sramPastItsThresholdOrUncorrectable() {
        only(memoryWith(c -> set(c, 4, true)), HealthRules.SRAM, Severity.BAD);
        only(memoryWith(c -> set(c, 3, new EccCounts(0L, 0L, 0L, 1L, 0L, 0L, 1L))), HealthRules.SRAM, Severity.WARN);
    }

    @Test
    void retiredPagesAtDcgmsLimitOrPending() {
        only(memoryWith(c -> set(c, 9, new RetiredPages(60L, 3L, false))), HealthRules.RETIRED_PAGES, Severity.BAD);
        only(memoryWith(c -> set(c, 9, new RetiredPages(1L, 0L, true))), HealthRules.RETIRED_PAGES, Severity.WARN);
        Judged few = memoryWith(c -> set(c, 9, new RetiredPages(61L, 1L, false)));
        RuleTally.quiet(few.findings, HealthRules.RETIRED_PAGES);
        assertThat(few.passed).contains(new HealthRun.Passed(HealthRules.RETIRED_PAGES.id(), "GPU0"));
    }

    @Test
    void rowRemappingPendingFailedOrOutOfSpares() {
        assertThat(only(memoryWith(c -> set(c, 10, new RemappedRows(1L, 3L, 0L, 0L, true, false))), HealthRules.ROW_REMAP_PENDING, Severity.WARN).text())
                .contains("1 for correctable, 3 for uncorrectable");
        only(memoryWith(c -> set(c, 10, new RemappedRows(0L, 8L, 0L, 0L, false, true))), HealthRules.ROW_REMAP_FAILED, Severity.BAD);
        only(memoryWith(c -> set(c, 11, new RemapHistogram(2557L, 0L, 0L, 1L, 2L))), HealthRules.REMAP_BANKS, Severity.WARN);
        only(memoryWith(c -> set(c, 8, true)), HealthRules.UNREPAIRABLE, Severity.BAD);
    }

    @Test
    void aLostGpuIsBadAndNothingElseOfItIsJudged() {
        Judged j = judge(gpu(memory(), state(), pcie(), List.of(), List.of(new Unread("memory.eccMode", NvmlTypes.NVML_ERROR_GPU_IS_LOST, "GPU is lost (15)"))));
        assertThat(j.findings).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo(HealthRules.GPU_LOST.id());
            assertThat(f.severity()).isEqualTo(Severity.BAD);
            assertThat(f.text()).contains("fell off the bus");
        });
        assertThat(j.passed).isEmpty();
        Judged reset = judge(gpu(null, null, null, null, List.of(new Unread("state", NvmlTypes.NVML_ERROR_RESET_REQUIRED, "Reset required (16)"))));
        assertThat(only(reset, HealthRules.GPU_LOST, Severity.BAD).text()).contains("needs a reset");
    }

    @Test
    void theDriversRecoveryAction() {
        assertThat(only(stateWith(20, RecoveryAction.GPU_RESET), HealthRules.RECOVERY_ACTION, Severity.BAD).text()).contains("GPU reset");
        only(stateWith(20, RecoveryAction.NODE_REBOOT), HealthRules.RECOVERY_ACTION, Severity.BAD);
        only(stateWith(20, RecoveryAction.DRAIN_P2P), HealthRules.RECOVERY_ACTION, Severity.WARN);
    }

    @Test
    void clocksHeldDownByTheHardware() {
        assertThat(only(stateWith(0, 0x41L), HealthRules.CLOCK_SLOWDOWN, Severity.BAD).text()).contains("HW Thermal Slowdown");
        only(stateWith(0, 0x8L), HealthRules.CLOCK_SLOWDOWN, Severity.WARN);
        assertThat(only(stateWith(2, new ThrottleTime(0L, 0L, 0L, 2_500_000_000L, 0L)), HealthRules.CLOCK_SLOWDOWN, Severity.INFO).text())
                .contains("2.5 s in HW thermal slowdown");
    }

    @Test
    void temperaturePowerPersistenceComputeAndMig() {
        only(stateWith(9, 0), HealthRules.TEMPERATURE, Severity.BAD);
        only(stateWith(9, 3), HealthRules.TEMPERATURE, Severity.WARN);
        assertThat(only(stateWith(14, 500000), HealthRules.POWER_CAPPED, Severity.WARN).text()).contains("500 W, below its default 700 W");
        only(stateWith(16, false), HealthRules.PERSISTENCE, Severity.WARN);
        only(stateWith(17, ComputeMode.PROHIBITED), HealthRules.COMPUTE_MODE, Severity.BAD);
        only(stateWith(17, ComputeMode.EXCLUSIVE_PROCESS), HealthRules.COMPUTE_MODE, Severity.INFO);
        assertThat(only(stateWith(19, true), HealthRules.MIG_PENDING, Severity.WARN).text()).contains("turns on at the next GPU reset");
    }

    @Test
    void pcieReplaysAgainstDcgmsRate() {
        assertThat(GpuChecks.replayLimit(5, 16)).isEqualTo(31L);
        assertThat(GpuChecks.replayLimit(4, 8)).isEqualTo(8L);
        assertThat(GpuChecks.replayLimit(7, 16)).as("past Gen6: Gen6's rate, as DCGM caps it").isEqualTo(62L);
        only(judge(gpu(memory(), state(), new Pcie(5, 16, 5, 16, 5, 5L, 0L), List.of(), List.of())), HealthRules.PCIE_REPLAYS, Severity.INFO);
        only(judge(gpu(memory(), state(), new Pcie(5, 16, 5, 16, 5, 40L, 0L), List.of(), List.of())), HealthRules.PCIE_REPLAYS, Severity.WARN);
    }

    static List<GpuHealth.Link> links(int active, int of, long recoveries, long crc) {
        List<GpuHealth.Link> out = new ArrayList<>();
        for (int i = 0; i < of; i++) out.add(new GpuHealth.Link(i, i < active, 6, 0L, i == 0 ? recoveries : 0L, i == 0 ? crc : 0L, 0L, null, null));
        return out;
    }

    @Test
    void nvLinksDownOrCountingErrors() {
        assertThat(only(judge(gpu(memory(), state(), pcie(), links(17, 18, 0, 0), List.of())), HealthRules.NVLINK_DOWN, Severity.BAD).text())
                .contains("NVLink 17 inactive, 17 of 18 active");
        only(judge(gpu(memory(), state(), pcie(), links(0, 18, 0, 0), List.of())), HealthRules.NVLINK_DOWN, Severity.WARN);
        Judged clean = judge(gpu(memory(), state(), pcie(), links(18, 18, 0, 0), List.of()));
        RuleTally.quiet(clean.findings, HealthRules.NVLINK_DOWN);
        RuleTally.quiet(clean.findings, HealthRules.NVLINK_ERRORS);
        assertThat(clean.passed).extracting(HealthRun.Passed::id).contains(HealthRules.NVLINK_DOWN.id(), HealthRules.NVLINK_ERRORS.id());
        assertThat(only(judge(gpu(memory(), state(), pcie(), links(18, 18, 2, 0), List.of())), HealthRules.NVLINK_ERRORS, Severity.WARN).text())
                .contains("link 0 2 recoveries");
        only(judge(gpu(memory(), state(), pcie(), links(18, 18, 0, 9), List.of())), HealthRules.NVLINK_ERRORS, Severity.INFO);
    }

    @Test
    void whatNvmlRefusedIsNotJudgedAndWhatTheGpuLacksIsNotSaid() {
        Judged j = judge(gpu(memory(), state(), pcie(), List.of(), List.of(
                new Unread("memory.remappedRows", NvmlTypes.NVML_ERROR_NO_PERMISSION, "Insufficient Permissions (4)"),
                new Unread("memory.retiredPages", NvmlTypes.NVML_ERROR_NOT_SUPPORTED, "Not Supported (3)"))));
        Finding f = only(j, HealthRules.NOT_JUDGED, Severity.UNKNOWN);
        assertThat(f.text()).contains("memory.remappedRows").doesNotContain("retiredPages");
    }

    @Test
    void aDriverThatWillNotLoadIsBadAndNoLibraryIsNoGpu() {
        Judged mismatch = new Judged();
        GpuChecks.check(new NvmlHealth("libnvidia-ml.so.1", "NVML library and kernel driver versions differ", NvmlTypes.NVML_ERROR_LIB_RM_VERSION_MISMATCH,
                null, null, null, List.of(), List.of()), mismatch);
        assertThat(mismatch.findings).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo(HealthRules.DRIVER.id());
            assertThat(f.severity()).isEqualTo(Severity.BAD);
        });
        Judged none = new Judged();
        GpuChecks.check(new NvmlHealth("libnvidia-ml.so.1", "no NVIDIA driver", NvmlTypes.NVML_ERROR_LIBRARY_NOT_FOUND, null, null, null, List.of(),
                List.of()), none);
        RuleTally.quiet(none.findings, HealthRules.DRIVER);
    }

    static Judged withFabric(NvmlGpu.Fabric f) {
        return judge(new GpuHealth(0, "NVIDIA H100 80GB HBM3", "GPU-1", "0000:18:00.0", memory(), state(), pcie(), List.of(), f, List.of()));
    }

    @Test
    void theNvLinkFabricRegistration() {
        assertThat(only(withFabric(new NvmlGpu.Fabric(NvmlGpu.Fabric.State.IN_PROGRESS, null, null, null, null)), HealthRules.FABRIC, Severity.BAD)
                .text()).contains("CUDA cannot start on it");
        only(withFabric(new NvmlGpu.Fabric(NvmlGpu.Fabric.State.COMPLETED, "Unknown Error (999)", "c0ffee00-0000-0000-0000-000000000001", 1L,
                NvmlGpu.Fabric.HealthSummary.HEALTHY, 999, 0L, null)), HealthRules.FABRIC, Severity.BAD);
        only(withFabric(new NvmlGpu.Fabric(NvmlGpu.Fabric.State.COMPLETED, null, "c0ffee00-0000-0000-0000-000000000001", 1L,
                NvmlGpu.Fabric.HealthSummary.LIMITED_CAPACITY, 0, 0L, null)), HealthRules.FABRIC, Severity.WARN);
        Judged healthy = withFabric(new NvmlGpu.Fabric(NvmlGpu.Fabric.State.COMPLETED, null, "c0ffee00-0000-0000-0000-000000000001", 1L,
                NvmlGpu.Fabric.HealthSummary.HEALTHY, 0, 0L, null));
        RuleTally.quiet(healthy.findings, HealthRules.FABRIC);
        assertThat(healthy.passed).contains(new HealthRun.Passed(HealthRules.FABRIC.id(), "GPU0"));
        assertThat(withFabric(new NvmlGpu.Fabric(NvmlGpu.Fabric.State.NOT_SUPPORTED, null, null, null, null)).passed)
                .noneMatch(p -> p.id().equals(HealthRules.FABRIC.id()));
    }
}
