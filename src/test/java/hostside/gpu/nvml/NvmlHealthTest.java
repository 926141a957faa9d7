package hostside.gpu.nvml;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static hostside.gpu.nvml.FakeNvml.Variant.OLD;
import static hostside.gpu.nvml.NvmlTypes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.gpu.nvml.GpuHealth.ComputeMode;
import hostside.gpu.nvml.GpuHealth.EccCounts;
import hostside.gpu.nvml.GpuHealth.Link;
import hostside.gpu.nvml.GpuHealth.Memory;
import hostside.gpu.nvml.GpuHealth.Pcie;
import hostside.gpu.nvml.GpuHealth.RecoveryAction;
import hostside.gpu.nvml.GpuHealth.RemapHistogram;
import hostside.gpu.nvml.GpuHealth.RemappedRows;
import hostside.gpu.nvml.GpuHealth.SramSources;
import hostside.gpu.nvml.GpuHealth.State;
import hostside.gpu.nvml.GpuHealth.ThrottleTime;

/** The health read on the fake NVML: the H100's answers by default, each value as set, each error code as health.md section 9 says. */
class NvmlHealthTest {
    static final String MISSING_MAX_GEN =
            "nvmlDeviceGetGpuMaxPcieLinkGeneration: not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetGpuMaxPcieLinkGeneration)";

    @BeforeEach
    @AfterEach
    void reset() {
        for (FakeNvml.Variant v : List.of(CURRENT, OLD)) {
            FakeNvml.resetHealth(v);
            FakeNvml.resetLinks(v);
            FakeNvml.resetActivity(v);
            FakeNvml.setLinkVersion(v, 0, NVML_NVLINK_VERSION_4_0);
            FakeNvml.setDeviceCount(v, 2);
        }
    }

    static GpuHealth gpu0(FakeNvml.Variant v) {
        NvmlHealth h = NvmlHealth.read(FakeNvml.library(v));
        assertThat(h.notRun()).isNull();
        return h.gpus().getFirst();
    }

    @Test
    void aDefaultReadIsTheH100sAnswers() {
        NvmlHealth h = NvmlHealth.read(FakeNvml.library());
        assertThat(h.driverVersion()).isEqualTo("580.95.05");
        assertThat(h.cudaDriverVersion()).isEqualTo("13.0");
        assertThat(h.unread()).isEmpty();
        GpuHealth g = h.gpus().getFirst();
        assertThat(List.of(g.index(), g.name(), g.pciBusId())).containsExactly(0, "NVIDIA H200", "0000:00:06.0");
        EccCounts zeros = new EccCounts(0L, 0L, 0L, 0L, 0L, 0L, 0L);
        assertThat(g.memory()).isEqualTo(new Memory(true, true, zeros, zeros, false, new SramSources(0L, 0L, 0L, 0L, 0L), false, false,
                false, null, new RemappedRows(0L, 0L, 0L, 0L, false, false), new RemapHistogram(2560L, 0L, 0L, 0L, 0L)));
        assertThat(g.state()).isEqualTo(new State(0L, 0x1ffL, new ThrottleTime(0L, 0L, 0L, 0L, 0L), 32, 34, 89, 95, 87, 95, 53, -8, -2,
                70644, 71188, 700000, 700000, true, ComputeMode.DEFAULT, false, false, RecoveryAction.NONE, 0));
        assertThat(g.pcie()).isEqualTo(new Pcie(5, 16, 5, 16, null, 0L, 0L));
        // link 0 active (NVLink 4.0: the error counters), link 1 inactive (nothing asked)
        assertThat(g.nvLinks()).containsExactly(new Link(0, true, NVML_NVLINK_VERSION_4_0, 0L, 0L, 0L, 0L, null, null),
                new Link(1, false, null, null, null, null, null, null, null));
        assertThat(g.fabric().state()).isEqualTo(NvmlGpu.Fabric.State.COMPLETED);
        // Hopper retires no pages (NOT_SUPPORTED, as the H100 answered), and the fake lacks one symbol
        assertThat(g.unread()).containsExactly(
                new Unread("memory.retiredPages.singleBit", NVML_ERROR_NOT_SUPPORTED, "nvmlDeviceGetRetiredPages: Not Supported (3)"),
                new Unread("memory.retiredPages.doubleBit", NVML_ERROR_NOT_SUPPORTED, "nvmlDeviceGetRetiredPages: Not Supported (3)"),
                new Unread("memory.retiredPages.pending", NVML_ERROR_NOT_SUPPORTED,
                        "nvmlDeviceGetRetiredPagesPendingStatus: Not Supported (3)"),
                new Unread("pcie.gpuMaxGen", NVML_ERROR_FUNCTION_NOT_FOUND, MISSING_MAX_GEN));
        assertThat(g.unread().getLast().driverTooOld()).isTrue();
        assertThat(g.unread().getFirst().notSupported()).isTrue();
        // GPU 1 has no NVLink (NOT_SUPPORTED at link 0) and no permission for persistence mode
        GpuHealth g1 = h.gpus().get(1);
        assertThat(g1.nvLinks()).isEmpty();
        assertThat(g1.state().persistenceMode()).isNull();
        assertThat(g1.unread()).filteredOn(u -> u.field().equals("state.persistenceMode")).singleElement()
                .satisfies(u -> assertThat(u.noPermission()).isTrue());
    }

    @Test
    void everyValueIsTheOneSet() {
        String[] keys = {"ecc.volatile.dram.corrected", "ecc.volatile.dram.uncorrected", "ecc.aggregate.dram.corrected",
                "ecc.aggregate.dram.uncorrected", "ecc.volatile.total.corrected", "ecc.volatile.total.uncorrected",
                "ecc.aggregate.total.corrected", "ecc.aggregate.total.uncorrected", "sram.aggregateUncParity", "sram.aggregateUncSecDed",
                "sram.aggregateCor", "sram.volatileUncParity", "sram.volatileUncSecDed", "sram.volatileCor", "sram.l2", "sram.sm",
                "sram.pcie", "sram.mcu", "sram.other", "retiredPages.singleBit", "retiredPages.doubleBit", "rows.correctable",
                "rows.uncorrectable", "rows.correctableInactive", "rows.uncorrectableInactive", "histogram.max", "histogram.high",
                "histogram.partial", "histogram.low", "histogram.none", "throttle.swPowerCapNs", "throttle.syncBoostNs",
                "throttle.swThermalNs", "throttle.hwThermalNs", "throttle.hwPowerBrakeNs", "temp.gpu", "temp.memory", "temp.shutdown",
                "temp.slowdown", "temp.memoryMax", "temp.gpuMax", "temp.margin", "power.averageMw", "power.instantMw", "pstate",
                "pcie.replays", "pcie.replayRollovers", "nvlink.replay", "nvlink.recovery", "nvlink.crcFlit", "nvlink.crcData"};
        // each its own number: 101, 102, ... so that two swapped fields cannot pass
        for (int i = 0; i < keys.length; i++) FakeNvml.setHealth(CURRENT, 0, keys[i], 101 + i);
        for (String flag : List.of("sram.thresholdExceeded", "rows.pending", "rows.failure", "repair.channel", "repair.tpc",
                "unrepairable", "retiredPages.pending")) {
            FakeNvml.setHealth(CURRENT, 0, flag, 1);
        }
        FakeNvml.setHealth(CURRENT, 0, "retiredPages.result", NVML_SUCCESS);
        FakeNvml.setHealth(CURRENT, 0, "retiredPages.pendingResult", NVML_SUCCESS);
        FakeNvml.setHealth(CURRENT, 0, "clocks.supportedReasons", 0xff);
        FakeNvml.setHealth(CURRENT, 0, "tlimit.shutdown", -12);
        FakeNvml.setHealth(CURRENT, 0, "tlimit.slowdown", -5);
        FakeNvml.setHealth(CURRENT, 0, "computeMode", NVML_COMPUTEMODE_PROHIBITED);
        FakeNvml.setHealth(CURRENT, 0, "recoveryAction", NVML_GPU_RECOVERY_ACTION_DRAIN_P2P);
        FakeNvml.setActivity(CURRENT, 0, 97, nvmlClocksThrottleReasonHwThermalSlowdown | nvmlClocksThrottleReasonHwSlowdown);

        GpuHealth g = gpu0(CURRENT);
        assertThat(g.memory()).isEqualTo(new Memory(true, true,
                new EccCounts(101L, 102L, 114L, 112L, 113L, 105L, 106L),
                new EccCounts(103L, 104L, 111L, 109L, 110L, 107L, 108L),
                true, new SramSources(115L, 116L, 118L, 117L, 119L), true, true, true,
                new GpuHealth.RetiredPages(120L, 121L, true),
                new RemappedRows(122L, 123L, 124L, 125L, true, true),
                new RemapHistogram(126L, 127L, 128L, 129L, 130L)));
        assertThat(g.state()).isEqualTo(new State(0x48L, 0xffL, new ThrottleTime(131L, 132L, 133L, 134L, 135L), 136, 137, 139, 138,
                141, 140, 142, -12, -5, 143, 144, 700000, 700000, true, ComputeMode.PROHIBITED, false, false, RecoveryAction.DRAIN_P2P,
                145));
        assertThat(ClockEvents.names(g.state().clockEventReasons())).containsExactly("HW Slowdown", "HW Thermal Slowdown");
        assertThat(g.pcie()).isEqualTo(new Pcie(5, 16, 5, 16, null, 146L, 147L));
        assertThat(g.nvLinks().getFirst()).isEqualTo(new Link(0, true, NVML_NVLINK_VERSION_4_0, 148L, 149L, 150L, 151L, null, null));
        assertThat(g.unread()).extracting(Unread::field).containsExactly("pcie.gpuMaxGen");
    }

    @Test
    void nvlink5CountersComeFromTheFieldsOfTheOneBatch() {
        FakeNvml.setLinkVersion(CURRENT, 0, NVML_NVLINK_VERSION_5_0);
        FakeNvml.setHealth(CURRENT, 0, "nvlink.symbolErrors", 17);
        FakeNvml.setHealth(CURRENT, 0, "nvlink.recoveryFailed", 2);
        assertThat(gpu0(CURRENT).nvLinks().getFirst()).isEqualTo(new Link(0, true, NVML_NVLINK_VERSION_5_0, null, null, null, null, 17L, 2L));
    }

    @Test
    void notSupportedAndNoPermissionAreUnreadsAndTheReadGoesOn() {
        FakeNvml.failCall(CURRENT, 0, "nvmlDeviceGetRowRemapperHistogram", NVML_ERROR_NO_PERMISSION);
        FakeNvml.failCall(CURRENT, 1, "nvmlDeviceGetMarginTemperature", NVML_ERROR_NOT_SUPPORTED);
        NvmlHealth h = NvmlHealth.read(FakeNvml.library());
        GpuHealth g = h.gpus().getFirst();
        assertThat(g.memory().remapHistogram()).isNull();
        assertThat(g.unread()).contains(new Unread("memory.remapHistogram", NVML_ERROR_NO_PERMISSION,
                "nvmlDeviceGetRowRemapperHistogram: Insufficient Permissions (4)"));
        assertThat(g.state()).isNotNull();
        assertThat(g.stopped()).isFalse();
        GpuHealth g1 = h.gpus().get(1);
        assertThat(g1.state().marginTempC()).isNull();
        assertThat(g1.state().gpuTempC()).isEqualTo(32);
        assertThat(g1.unread()).filteredOn(u -> u.field().equals("state.marginTempC")).singleElement()
                .satisfies(u -> assertThat(u.notSupported()).isTrue());
    }

    @Test
    void aLostGpuIsAskedNothingMoreAndSaysSoOnce() {
        FakeNvml.failCall(CURRENT, 0, "nvmlDeviceGetNvLinkState", NVML_ERROR_GPU_IS_LOST);
        NvmlHealth h = NvmlHealth.read(FakeNvml.library());
        GpuHealth g = h.gpus().getFirst();
        assertThat(FakeNvml.callsAfterFail(CURRENT, 0)).isZero();
        assertThat(g.unread()).containsExactly(new Unread("nvLinks", NVML_ERROR_GPU_IS_LOST, "nvmlDeviceGetNvLinkState: GPU is lost (15)"));
        assertThat(g.unread().getFirst().gpuLost()).isTrue();
        assertThat(g.stopped()).isTrue();
        assertThat(List.of(g.memory() == null, g.state() == null, g.pcie() == null, g.nvLinks() == null, g.fabric() == null))
                .containsOnly(true);
        // the name came before the loss; the other GPU is read in full
        assertThat(g.name()).isEqualTo("NVIDIA H200");
        assertThat(h.gpus().get(1).state()).isNotNull();
    }

    @Test
    void whatWasReadBeforeTheLossStaysAndNothingIsAskedAfter() {
        FakeNvml.failCall(CURRENT, 0, "nvmlDeviceGetEccMode", NVML_ERROR_GPU_IS_LOST);
        GpuHealth g = gpu0(CURRENT);
        assertThat(FakeNvml.callsAfterFail(CURRENT, 0)).isZero();
        assertThat(g.unread()).extracting(Unread::field).containsExactly("memory.eccEnabled");
        // the field batch answered before the loss: its values are NVML's; every call after it is null
        assertThat(g.state().powerAverageMw()).isEqualTo(70644);
        assertThat(g.state().gpuTempC()).isNull();
        assertThat(g.memory()).isNull();
        assertThat(g.fabric()).isNull();
    }

    @Test
    void resetRequiredOnTheFieldBatchStopsTheGpuThere() {
        FakeNvml.failCall(CURRENT, 0, "nvmlDeviceGetFieldValues", NVML_ERROR_RESET_REQUIRED);
        GpuHealth g = gpu0(CURRENT);
        assertThat(FakeNvml.callsAfterFail(CURRENT, 0)).isZero();
        assertThat(g.unread()).singleElement().satisfies(u -> {
            assertThat(u.field()).isEqualTo("fieldValues");
            assertThat(u.resetRequired()).isTrue();
        });
        assertThat(g.memory()).isNull();
    }

    @Test
    void oneFieldsOwnCodeIsThatFieldsUnread() {
        FakeNvml.setField(CURRENT, 0, NVML_FI_DEV_GET_GPU_RECOVERY_ACTION, NVML_ERROR_NO_PERMISSION, NVML_VALUE_TYPE_UNSIGNED_INT);
        GpuHealth g = gpu0(CURRENT);
        assertThat(g.state().recoveryAction()).isNull();
        assertThat(g.unread()).contains(new Unread("state.recoveryAction", NVML_ERROR_NO_PERMISSION,
                "nvmlDeviceGetFieldValues field 230: Insufficient Permissions (4)"));
    }

    @Test
    void aFieldOfAnotherValueTypeIsNotTakenForTheCounter() {
        // the renumbering trap: under 269 a 13.0-era driver has another field, of another type
        FakeNvml.setField(CURRENT, 0, NVML_FI_DEV_CLOCKS_EVENT_REASON_SW_THERM_SLOWDOWN, NVML_SUCCESS, NVML_VALUE_TYPE_UNSIGNED_INT);
        GpuHealth g = gpu0(CURRENT);
        assertThat(g.state().throttleTime().swThermalNs()).isNull();
        assertThat(g.state().throttleTime().hwThermalNs()).isZero();
        assertThat(g.unread()).filteredOn(u -> u.field().equals("state.throttleTime.swThermalNs")).singleElement()
                .satisfies(u -> assertThat(u.why()).contains("value type 1, not 3").contains("renumbered"));
    }

    @Test
    void aRecoveryActionNewerThanTheHeaderIsUndefinedWithItsNumber() {
        FakeNvml.setHealth(CURRENT, 0, "recoveryAction", 7);
        GpuHealth g = gpu0(CURRENT);
        assertThat(g.state().recoveryAction()).isEqualTo(RecoveryAction.UNDEFINED);
        assertThat(g.unread()).filteredOn(u -> u.field().equals("state.recoveryAction")).singleElement()
                .satisfies(u -> assertThat(u.why()).contains("gave 7"));
    }

    @Test
    void anOlderDriverFallsBackOrSaysTooOld() {
        FakeNvml.setHealth(OLD, 0, "rows.correctable", 3);
        FakeNvml.setHealth(OLD, 0, "rows.correctableInactive", 2);
        FakeNvml.setHealth(OLD, 0, "rows.uncorrectableInactive", 1);
        GpuHealth g = gpu0(OLD);
        // v1 and fields 301/302 instead of nvmlRemappedRowsInfo_v2_t; nvmlDeviceGetTemperature instead of the V form
        assertThat(g.memory().remappedRows()).isEqualTo(new RemappedRows(3L, 0L, 2L, 1L, false, false));
        assertThat(g.state().gpuTempC()).isEqualTo(32);
        assertThat(g.memory().sramThresholdExceeded()).isNull();
        assertThat(g.memory().volatileErrors()).isEqualTo(new EccCounts(0L, 0L, null, null, null, 0L, 0L));
        assertThat(g.unread()).filteredOn(Unread::driverTooOld).extracting(Unread::field)
                .containsExactly("memory.sram", "memory.repairPending", "memory.unrepairable", "state.marginTempC", "pcie.gpuMaxGen");
    }

    @Test
    void noLibraryIsNotRunWithItsCode() {
        NvmlHealth h = NvmlHealth.read("/nonexistent/libnvidia-ml.so.1");
        assertThat(h.notRun()).contains("not found");
        assertThat(h.notRunCode()).isEqualTo(NVML_ERROR_LIBRARY_NOT_FOUND);
        assertThat(h.gpus()).isEmpty();
    }

    @Test
    void roundTripsThroughJsonWithEveryFieldSet() throws Exception {
        FakeNvml.setHealth(CURRENT, 0, "retiredPages.result", NVML_SUCCESS);
        FakeNvml.setHealth(CURRENT, 0, "retiredPages.pendingResult", NVML_SUCCESS);
        FakeNvml.setHealth(CURRENT, 0, "recoveryAction", NVML_GPU_RECOVERY_ACTION_RECOVER_IMEX_DOMAIN);
        NvmlHealth h = NvmlHealth.read(FakeNvml.library());
        GpuHealth g = h.gpus().getFirst();
        assertThat(g.memory().retiredPages()).isNotNull();
        assertThat(g.fabric().healthDetail()).isNotNull();
        assertThat(Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(h), NvmlHealth.class)).isEqualTo(h);
        assertThat(Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(h)).at("/gpus/0/state/recoveryAction").asText())
                .isEqualTo("recover imex domain");
    }

    @Test
    void roundTripsThroughJsonWithNulls() throws Exception {
        FakeNvml.failCall(CURRENT, 0, "nvmlDeviceGetName", NVML_ERROR_GPU_IS_LOST);
        NvmlHealth h = NvmlHealth.read(FakeNvml.library());
        assertThat(h.gpus().getFirst().memory()).isNull();
        assertThat(Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(h), NvmlHealth.class)).isEqualTo(h);
        NvmlHealth none = NvmlHealth.read("/nonexistent/libnvidia-ml.so.1");
        assertThat(Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(none), NvmlHealth.class)).isEqualTo(none);
    }

    @Test
    void clockEventNamesAreNvidiaSmisAndUnknownBitsAreKept() {
        assertThat(ClockEvents.names(0x1)).containsExactly("Idle");
        assertThat(ClockEvents.names(0x4 | 0x200)).containsExactly("SW Power Cap", "0x200");
        assertThat(ClockEvents.names(0)).isEmpty();
    }
}
