package hostside.gpu.nvml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;

/**
 * Every NVML function hostside calls, under the symbol the library exports, with its
 * FunctionDescriptor: the one place where a C signature becomes a Java one.
 *
 * <p>The symbols are the versioned ones: nvml.h #defines nvmlInit to nvmlInit_v2,
 * nvmlDeviceGetCount to _v2, nvmlDeviceGetHandleByIndex to _v2, nvmlDeviceGetPciInfo to _v3 and
 * nvmlDeviceGetNvLinkRemotePciInfo to _v2; the unversioned names are still exported for old
 * binaries and behave differently (the v1 count skips GPUs NVML may not touch). Each line's C
 * prototype is checked against the real header by gcc (src/test/c/nvml_layouts.c) and each
 * descriptor against that prototype by NvmlLayoutsTest.
 *
 * <p>All return nvmlReturn_t (a C enum, int) except nvmlErrorString. nvmlDevice_t is a pointer.
 */
public enum NvmlFunction {
    /** nvmlReturn_t nvmlInit_v2(void) */
    INIT_V2("nvmlInit_v2"),
    /** nvmlReturn_t nvmlShutdown(void) */
    SHUTDOWN("nvmlShutdown"),
    /** const char *nvmlErrorString(nvmlReturn_t) */
    ERROR_STRING("nvmlErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT)),
    /** (char *version, unsigned int length) */
    SYSTEM_GET_DRIVER_VERSION("nvmlSystemGetDriverVersion", ADDRESS, JAVA_INT),
    /** (char *version, unsigned int length) */
    SYSTEM_GET_NVML_VERSION("nvmlSystemGetNVMLVersion", ADDRESS, JAVA_INT),
    /**
     * (int *cudaDriverVersion): asks libcuda itself. The unversioned one is not used: it
     * makes up "a known supported version number" when libcuda is missing.
     */
    SYSTEM_GET_CUDA_DRIVER_VERSION_V2("nvmlSystemGetCudaDriverVersion_v2", ADDRESS),
    /** (unsigned int *deviceCount) */
    DEVICE_GET_COUNT_V2("nvmlDeviceGetCount_v2", ADDRESS),
    /** (unsigned int index, nvmlDevice_t *device) */
    DEVICE_GET_HANDLE_BY_INDEX_V2("nvmlDeviceGetHandleByIndex_v2", JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, char *name, unsigned int length) */
    DEVICE_GET_NAME("nvmlDeviceGetName", ADDRESS, ADDRESS, JAVA_INT),
    /** (nvmlDevice_t, char *uuid, unsigned int length) */
    DEVICE_GET_UUID("nvmlDeviceGetUUID", ADDRESS, ADDRESS, JAVA_INT),
    /** (nvmlDevice_t, nvmlPciInfo_t *) */
    DEVICE_GET_PCI_INFO_V3("nvmlDeviceGetPciInfo_v3", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *) */
    DEVICE_GET_CURR_PCIE_LINK_GENERATION("nvmlDeviceGetCurrPcieLinkGeneration", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *) */
    DEVICE_GET_CURR_PCIE_LINK_WIDTH("nvmlDeviceGetCurrPcieLinkWidth", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *): the maximum of the GPU and the slot together */
    DEVICE_GET_MAX_PCIE_LINK_GENERATION("nvmlDeviceGetMaxPcieLinkGeneration", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *) */
    DEVICE_GET_MAX_PCIE_LINK_WIDTH("nvmlDeviceGetMaxPcieLinkWidth", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *): the GPU's own maximum, whatever the slot */
    DEVICE_GET_GPU_MAX_PCIE_LINK_GENERATION("nvmlDeviceGetGpuMaxPcieLinkGeneration", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *node) */
    DEVICE_GET_NUMA_NODE_ID("nvmlDeviceGetNumaNodeId", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int cpuSetSize, unsigned long *cpuSet) */
    DEVICE_GET_CPU_AFFINITY("nvmlDeviceGetCpuAffinity", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlEnableState_t *) */
    DEVICE_GET_PERSISTENCE_MODE("nvmlDeviceGetPersistenceMode", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlClockType_t, unsigned int *clockMHz) */
    DEVICE_GET_CLOCK_INFO("nvmlDeviceGetClockInfo", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlClockType_t, unsigned int *clockMHz) */
    DEVICE_GET_MAX_CLOCK_INFO("nvmlDeviceGetMaxClockInfo", ADDRESS, JAVA_INT, ADDRESS),
    /**
     * (nvmlDevice_t, nvmlClockType_t, unsigned int *clockMHz): the applications clock, the clock a
     * running application is held to when set by {@code nvidia-smi -ac}; NOT_SUPPORTED on GeForce
     */
    DEVICE_GET_APPLICATIONS_CLOCK("nvmlDeviceGetApplicationsClock", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlClockType_t, unsigned int *clockMHz): the applications clock the board ships with */
    DEVICE_GET_DEFAULT_APPLICATIONS_CLOCK("nvmlDeviceGetDefaultApplicationsClock", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, unsigned int *defaultLimit): milliwatts, the power limit the board ships with */
    DEVICE_GET_POWER_MANAGEMENT_DEFAULT_LIMIT("nvmlDeviceGetPowerManagementDefaultLimit", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlEnableState_t *current, nvmlEnableState_t *pending) */
    DEVICE_GET_ECC_MODE("nvmlDeviceGetEccMode", ADDRESS, ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlMemory_t *) */
    DEVICE_GET_MEMORY_INFO("nvmlDeviceGetMemoryInfo", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlMemory_v2_t *): versioned struct; its used leaves the reserved memory out */
    DEVICE_GET_MEMORY_INFO_V2("nvmlDeviceGetMemoryInfo_v2", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int link, nvmlEnableState_t *isActive) */
    DEVICE_GET_NVLINK_STATE("nvmlDeviceGetNvLinkState", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, unsigned int link, nvmlPciInfo_t *) */
    DEVICE_GET_NVLINK_REMOTE_PCI_INFO_V2("nvmlDeviceGetNvLinkRemotePciInfo_v2", ADDRESS, JAVA_INT, ADDRESS),
    /**
     * (nvmlDevice_t, unsigned int link, unsigned int *version): per nvml.h a value of
     * nvmlNvlinkVersion_t, an enum whose numbers are not the NVLink generation (6 is NVLink 4.0)
     */
    DEVICE_GET_NVLINK_VERSION("nvmlDeviceGetNvLinkVersion", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, unsigned int link, nvmlIntNvLinkDeviceType_t *): GPU, IBM NPU or NVSwitch at the other end */
    DEVICE_GET_NVLINK_REMOTE_DEVICE_TYPE("nvmlDeviceGetNvLinkRemoteDeviceType", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlDevice_t, nvmlGpuP2PCapsIndex_t, nvmlGpuP2PStatus_t *): what nvidia-smi topo -p2p prints */
    DEVICE_GET_P2P_STATUS("nvmlDeviceGetP2PStatus", ADDRESS, ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlGpuFabricInfo_t *): deprecated in 13.0, the fallback for drivers without the V form */
    DEVICE_GET_GPU_FABRIC_INFO("nvmlDeviceGetGpuFabricInfo", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlGpuFabricInfoV_t *): versioned struct */
    DEVICE_GET_GPU_FABRIC_INFO_V("nvmlDeviceGetGpuFabricInfoV", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlDeviceAddressingMode_t *): versioned struct, driver 580+ */
    DEVICE_GET_ADDRESSING_MODE("nvmlDeviceGetAddressingMode", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlPlatformInfo_t *): versioned struct (v2, v1 before it), Blackwell and newer */
    DEVICE_GET_PLATFORM_INFO("nvmlDeviceGetPlatformInfo", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlC2cModeInfo_v1_t *): whether the GPU-CPU C2C link is enabled */
    DEVICE_GET_C2C_MODE_INFO_V("nvmlDeviceGetC2cModeInfoV", ADDRESS, ADDRESS),
    /**
     * (nvmlDevice_t, int valuesCount, nvmlFieldValue_t *values): each entry carries its own
     * nvmlReturn; the call's code says only whether the request as a whole was taken
     */
    DEVICE_GET_FIELD_VALUES("nvmlDeviceGetFieldValues", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, unsigned int *currentMode, unsigned int *pendingMode) */
    DEVICE_GET_MIG_MODE("nvmlDeviceGetMigMode", ADDRESS, ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlUtilization_t *) */
    DEVICE_GET_UTILIZATION_RATES("nvmlDeviceGetUtilizationRates", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *power): milliwatts; averaged over a second on Ampere and newer (not GA100) */
    DEVICE_GET_POWER_USAGE("nvmlDeviceGetPowerUsage", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *limit): milliwatts, the limit the GPU obeys now, whoever set it */
    DEVICE_GET_ENFORCED_POWER_LIMIT("nvmlDeviceGetEnforcedPowerLimit", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned long long *): a bitmask of nvmlClocksEventReason* */
    DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS("nvmlDeviceGetCurrentClocksEventReasons", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned long long *): the same call under its name before driver 535, deprecated in 13.0 */
    DEVICE_GET_CURRENT_CLOCKS_THROTTLE_REASONS("nvmlDeviceGetCurrentClocksThrottleReasons", ADDRESS, ADDRESS),
    /**
     * (nvmlDevice_t, nvmlPcieUtilCounter_t, unsigned int *value): KB/s over a 20 ms window that the
     * call waits out. The cumulative counters (nvmlDeviceGetFieldValues with
     * NVML_FI_DEV_PCIE_COUNT_TX/RX_BYTES) would cost nothing, but driver 580 gives them as unsigned
     * int: they wrap every 4 GiB, about 80 ms at an H200's copy rate, so no sampling cadence unwraps them.
     */
    DEVICE_GET_PCIE_THROUGHPUT("nvmlDeviceGetPcieThroughput", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, unsigned int *infoCount, nvmlProcessInfo_t *infos) */
    DEVICE_GET_COMPUTE_RUNNING_PROCESSES_V3("nvmlDeviceGetComputeRunningProcesses_v3", ADDRESS, ADDRESS, ADDRESS),

    // ---- the health read (NvmlHealthReader) ----
    /** (nvmlDevice_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t, nvmlMemoryLocation_t, unsigned long long *count) */
    DEVICE_GET_MEMORY_ERROR_COUNTER("nvmlDeviceGetMemoryErrorCounter", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t, unsigned long long *eccCounts) */
    DEVICE_GET_TOTAL_ECC_ERRORS("nvmlDeviceGetTotalEccErrors", ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlEccSramErrorStatus_t *): versioned struct, Ampere and newer */
    DEVICE_GET_SRAM_ECC_ERROR_STATUS("nvmlDeviceGetSramEccErrorStatus", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlPageRetirementCause_t, unsigned int *pageCount, unsigned long long *addresses): *pageCount 0 asks the count */
    DEVICE_GET_RETIRED_PAGES("nvmlDeviceGetRetiredPages", ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlEnableState_t *isPending): pages waiting for a reboot to be retired */
    DEVICE_GET_RETIRED_PAGES_PENDING_STATUS("nvmlDeviceGetRetiredPagesPendingStatus", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *corrRows, unsigned int *uncRows, unsigned int *isPending, unsigned int *failureOccurred) */
    DEVICE_GET_REMAPPED_ROWS("nvmlDeviceGetRemappedRows", ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlRemappedRowsInfo_v2_t *): adds the inactive remaps; exported by 580.159.04, absent from the 13.0 header */
    DEVICE_GET_REMAPPED_ROWS_V2("nvmlDeviceGetRemappedRows_v2", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlRowRemapperHistogramValues_t *) */
    DEVICE_GET_ROW_REMAPPER_HISTOGRAM("nvmlDeviceGetRowRemapperHistogram", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlRepairStatus_t *): versioned struct */
    DEVICE_GET_REPAIR_STATUS("nvmlDeviceGetRepairStatus", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlUnrepairableMemoryStatus_v1_t *): exported by 580.159.04, absent from the 13.0 header */
    DEVICE_GET_UNREPAIRABLE_MEMORY_FLAG_V1("nvmlDeviceGetUnrepairableMemoryFlag_v1", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned long long *): the nvmlClocksEventReason* bits this GPU can report */
    DEVICE_GET_SUPPORTED_CLOCKS_EVENT_REASONS("nvmlDeviceGetSupportedClocksEventReasons", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlTemperature_t *): versioned struct; the call that replaces nvmlDeviceGetTemperature */
    DEVICE_GET_TEMPERATURE_V("nvmlDeviceGetTemperatureV", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int *temp): deprecated in 13.0, for drivers without the V form */
    DEVICE_GET_TEMPERATURE("nvmlDeviceGetTemperature", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlTemperatureThresholds_t, unsigned int *temp) */
    DEVICE_GET_TEMPERATURE_THRESHOLD("nvmlDeviceGetTemperatureThreshold", ADDRESS, JAVA_INT, ADDRESS),
    /** (nvmlDevice_t, nvmlMarginTemperature_t *): versioned struct; nvidia-smi's "GPU T.Limit Temp" */
    DEVICE_GET_MARGIN_TEMPERATURE("nvmlDeviceGetMarginTemperature", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlComputeMode_t *) */
    DEVICE_GET_COMPUTE_MODE("nvmlDeviceGetComputeMode", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, nvmlPstates_t *): 0 is P0, the most performance */
    DEVICE_GET_PERFORMANCE_STATE("nvmlDeviceGetPerformanceState", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int *value): PCIe replays since the driver loaded */
    DEVICE_GET_PCIE_REPLAY_COUNTER("nvmlDeviceGetPcieReplayCounter", ADDRESS, ADDRESS),
    /** (nvmlDevice_t, unsigned int link, nvmlNvLinkErrorCounter_t, unsigned long long *counterValue): before NVLink 5 */
    DEVICE_GET_NVLINK_ERROR_COUNTER("nvmlDeviceGetNvLinkErrorCounter", ADDRESS, JAVA_INT, JAVA_INT, ADDRESS);

    private final String symbol;
    private final FunctionDescriptor descriptor;

    /** A function that returns nvmlReturn_t. */
    NvmlFunction(String symbol, MemoryLayout... arguments) {
        this(symbol, FunctionDescriptor.of(JAVA_INT, arguments));
    }

    NvmlFunction(String symbol, FunctionDescriptor descriptor) {
        this.symbol = symbol;
        this.descriptor = descriptor;
    }

    /** The name libnvidia-ml.so.1 exports. */
    public String symbol() {
        return symbol;
    }

    public FunctionDescriptor descriptor() {
        return descriptor;
    }
}
