package hostside.gpu.nvml;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One GPU's health as NVML answered it. Every value is null where NVML did not give it, with an
 * {@link Unread} in {@code unread} saying why; a group (a nested record) is null when none of its
 * values was given. Units are in the names: C, mW, ns.
 *
 * @param pciBusId in the kernel's spelling, "0000:00:06.0" ({@link NvmlReader#sysfsBusId})
 * @param nvLinks  one entry per link NVML knows; empty when the GPU has none (NOT_SUPPORTED or
 *                 INVALID_ARGUMENT at link 0), null when unreadable
 * @param fabric   the NVLink fabric registration, as {@code NvmlRackReader} reads it for rack
 */
public record GpuHealth(int index, String name, String uuid, String pciBusId, Memory memory, State state, Pcie pcie,
                        List<Link> nvLinks, NvmlGpu.Fabric fabric, List<Unread> unread) {

    public GpuHealth {
        nvLinks = nvLinks == null ? null : List.copyOf(nvLinks);
        unread = List.copyOf(unread);
    }

    /** Whether NVML said the GPU is lost or needs a reset (the read of it stopped there). */
    public boolean stopped() {
        return unread.stream().anyMatch(Unread::stopsTheGpu);
    }

    /**
     * GPU memory health (health.md section 1).
     *
     * @param eccEnabled             nvmlDeviceGetEccMode's current mode; the counters need it on
     * @param eccPendingEnabled      the mode after the next reboot
     * @param volatileErrors         counts since the driver loaded
     * @param aggregateErrors        counts over the device's life (InfoROM)
     * @param sramThresholdExceeded  nvmlEccSramErrorStatus_v1_t.bThresholdExceeded: "error threshold of field diag is exceeded"
     * @param channelRepairPending   nvmlRepairStatus_v1_t.bChannelRepairPending (meaning unverified, health.md)
     * @param unrepairable           nvmlDeviceGetUnrepairableMemoryFlag_v1
     * @param retiredPages           page retirement, pre-Ampere (NOT_SUPPORTED on H100)
     * @param remappedRows           row remapping, Ampere and newer
     * @param remapHistogram         banks by spare rows left
     */
    public record Memory(Boolean eccEnabled, Boolean eccPendingEnabled, EccCounts volatileErrors, EccCounts aggregateErrors,
                         Boolean sramThresholdExceeded, SramSources aggregateUncorrectedSram, Boolean channelRepairPending,
                         Boolean tpcRepairPending, Boolean unrepairable, RetiredPages retiredPages, RemappedRows remappedRows,
                         RemapHistogram remapHistogram) {}

    /**
     * ECC error counts of one counter type (volatile or aggregate).
     *
     * @param dramCorrected nvmlDeviceGetMemoryErrorCounter(corrected, ..., NVML_MEMORY_LOCATION_DRAM)
     * @param sramCorrected nvmlEccSramErrorStatus_v1_t's volatileCor / aggregateCor, as nvidia-smi's "SRAM Correctable"
     * @param totalCorrected nvmlDeviceGetTotalEccErrors(corrected): every location
     */
    public record EccCounts(Long dramCorrected, Long dramUncorrected, Long sramCorrected, Long sramUncorrectedParity,
                            Long sramUncorrectedSecDed, Long totalCorrected, Long totalUncorrected) {}

    /** nvmlEccSramErrorStatus_v1_t.aggregateUncBucket*: where aggregate uncorrectable SRAM errors were. */
    public record SramSources(Long l2, Long sm, Long microcontroller, Long pcie, Long other) {}

    /**
     * Page retirement (pre-Ampere).
     *
     * @param singleBit pages retired for multiple single-bit errors
     * @param doubleBit pages retired for a double-bit error
     * @param pending   nvmlDeviceGetRetiredPagesPendingStatus: retirements waiting for a reboot
     */
    public record RetiredPages(Long singleBit, Long doubleBit, Boolean pending) {}

    /**
     * Row remapping: nvmlRemappedRowsInfo_v2_t where exported, else nvmlDeviceGetRemappedRows and
     * fields 301/302 for the inactive counts.
     *
     * @param pending         a remap waits for a GPU reset ("A reset will be required to actually remap the row")
     * @param failureOccurred a remap failed at some time
     */
    public record RemappedRows(Long correctable, Long uncorrectable, Long correctableInactive, Long uncorrectableInactive,
                               Boolean pending, Boolean failureOccurred) {}

    /** nvmlRowRemapperHistogramValues_t: banks with all (max) ... no (none) spare rows left. */
    public record RemapHistogram(Long max, Long high, Long partial, Long low, Long none) {}

    /**
     * GPU state (health.md section 2).
     *
     * @param clockEventReasons          nvmlDeviceGetCurrentClocksEventReasons' bits ({@link ClockEvents#names})
     * @param gpuTempC                   nvmlDeviceGetTemperatureV (the deprecated nvmlDeviceGetTemperature without it)
     * @param memoryTempC                field NVML_FI_DEV_MEMORY_TEMP
     * @param slowdownTempC              nvmlDeviceGetTemperatureThreshold(SLOWDOWN); shutdown, GPU_MAX, MEM_MAX likewise
     * @param marginTempC                nvmlDeviceGetMarginTemperature: the distance to the nearest slowdown threshold,
     *                                   nvidia-smi's "GPU T.Limit Temp"
     * @param shutdownTLimitC            field 193, nvidia-smi's "GPU Shutdown T.Limit Temp" (signed)
     * @param slowdownTLimitC            field 194, "GPU Slowdown T.Limit Temp" (signed)
     * @param powerAverageMw             field 185 (1 s average)
     * @param powerInstantMw             field 186
     * @param powerLimitMw               nvmlDeviceGetEnforcedPowerLimit: the limit obeyed after every limiter
     * @param recoveryAction             field 230, NVML_FI_DEV_GET_GPU_RECOVERY_ACTION
     * @param performanceState           nvmlDeviceGetPerformanceState: 0 is P0
     */
    public record State(Long clockEventReasons, Long supportedClockEventReasons, ThrottleTime throttleTime, Integer gpuTempC,
                        Integer memoryTempC, Integer slowdownTempC, Integer shutdownTempC, Integer gpuMaxOperatingTempC,
                        Integer memoryMaxOperatingTempC, Integer marginTempC, Integer shutdownTLimitC, Integer slowdownTLimitC,
                        Integer powerAverageMw, Integer powerInstantMw, Integer powerLimitMw, Integer defaultPowerLimitMw,
                        Boolean persistenceMode, ComputeMode computeMode, Boolean migEnabled, Boolean migPendingEnabled,
                        RecoveryAction recoveryAction, Integer performanceState) {}

    /**
     * How long each clock event reason has held the clocks since the driver loaded, in ns (fields
     * 74, 76, 269, 270, 271; nvidia-smi prints them in us as "Clocks Event Reasons Counters").
     */
    public record ThrottleTime(Long swPowerCapNs, Long syncBoostNs, Long swThermalNs, Long hwThermalNs, Long hwPowerBrakeNs) {}

    /** nvmlComputeMode_t; UNDEFINED for a value this header does not know (the number is in the GPU's unread). */
    public enum ComputeMode {
        DEFAULT(NvmlTypes.NVML_COMPUTEMODE_DEFAULT, "default"),
        EXCLUSIVE_THREAD(NvmlTypes.NVML_COMPUTEMODE_EXCLUSIVE_THREAD, "exclusive thread"),
        PROHIBITED(NvmlTypes.NVML_COMPUTEMODE_PROHIBITED, "prohibited"),
        EXCLUSIVE_PROCESS(NvmlTypes.NVML_COMPUTEMODE_EXCLUSIVE_PROCESS, "exclusive process"),
        UNDEFINED(-1, "undefined");

        public final int code;
        private final String word;

        ComputeMode(int code, String word) {
            this.code = code;
            this.word = word;
        }

        static ComputeMode of(int code) {
            for (ComputeMode m : values()) if (m.code == code) return m;
            return UNDEFINED;
        }

        @JsonValue
        public String word() {
            return word;
        }

        @JsonCreator
        public static ComputeMode parse(String word) {
            for (ComputeMode m : values()) if (m.word.equals(word)) return m;
            throw new IllegalArgumentException("\"" + word + "\" is not a compute mode");
        }

        @Override
        public String toString() {
            return word;
        }
    }

    /**
     * nvmlDeviceGpuRecoveryAction_t: what NVML asks be done before the GPU is used again
     * (docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/error-recovery-and-response-flags.html).
     * UNDEFINED for a value this header does not know (the number is in the GPU's unread).
     */
    public enum RecoveryAction {
        NONE(NvmlTypes.NVML_GPU_RECOVERY_ACTION_NONE, "none"),
        GPU_RESET(NvmlTypes.NVML_GPU_RECOVERY_ACTION_GPU_RESET, "gpu reset"),
        NODE_REBOOT(NvmlTypes.NVML_GPU_RECOVERY_ACTION_NODE_REBOOT, "node reboot"),
        DRAIN_P2P(NvmlTypes.NVML_GPU_RECOVERY_ACTION_DRAIN_P2P, "drain p2p"),
        DRAIN_AND_RESET(NvmlTypes.NVML_GPU_RECOVERY_ACTION_DRAIN_AND_RESET, "drain and reset"),
        RECOVER_IMEX_DOMAIN(NvmlTypes.NVML_GPU_RECOVERY_ACTION_RECOVER_IMEX_DOMAIN, "recover imex domain"),
        UNDEFINED(-1, "undefined");

        public final int code;
        private final String word;

        RecoveryAction(int code, String word) {
            this.code = code;
            this.word = word;
        }

        static RecoveryAction of(long code) {
            for (RecoveryAction a : values()) if (a.code == code) return a;
            return UNDEFINED;
        }

        @JsonValue
        public String word() {
            return word;
        }

        @JsonCreator
        public static RecoveryAction parse(String word) {
            for (RecoveryAction a : values()) if (a.word.equals(word)) return a;
            throw new IllegalArgumentException("\"" + word + "\" is not a recovery action");
        }

        @Override
        public String toString() {
            return word;
        }
    }

    /**
     * The PCIe link and its replays.
     *
     * @param maxGen          the most the GPU and its slot reach together; {@code gpuMaxGen} the GPU's own
     * @param replays         nvmlDeviceGetPcieReplayCounter: replays since the driver loaded
     * @param replayRollovers field 95, NVML_FI_DEV_PCIE_REPLAY_ROLLOVER_COUNTER
     */
    public record Pcie(Integer gen, Integer width, Integer maxGen, Integer maxWidth, Integer gpuMaxGen, Long replays,
                       Long replayRollovers) {}

    /**
     * One NVLink. Counters are read for active links only: before NVLink 5 through
     * nvmlDeviceGetNvLinkErrorCounter (replay, recovery, CRC flit, CRC data), from NVLink 5
     * (versionCode NVML_NVLINK_VERSION_5_0 and up) through fields 221 and 214 with the link as scopeId.
     *
     * @param versionCode    nvmlDeviceGetNvLinkVersion's nvmlNvlinkVersion_t (6 is NVLink 4.0)
     * @param symbolErrors   field 221, NVML_FI_DEV_NVLINK_COUNT_SYMBOL_ERRORS (NVLink 5)
     * @param recoveryFailed field 214, NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS (NVLink 5)
     */
    public record Link(int link, boolean active, Integer versionCode, Long replayErrors, Long recoveryErrors, Long crcFlitErrors,
                       Long crcDataErrors, Long symbolErrors, Long recoveryFailed) {}
}
