/*
 * What gcc says about the real nvml.h: the sizes, offsets, values and function types that
 * hostside.gpu.nvml binds to. Its output is committed as src/test/resources/nvml/layouts.txt,
 * which NvmlLayoutsTest checks the Java layouts, constants and FunctionDescriptors against
 * (CI has no NVIDIA header, so the header's word is recorded once, here). Regenerate with:
 *
 *   gcc -std=c11 -Wall -Werror -I/tmp/cudah -o /tmp/nvml_layouts src/test/c/nvml_layouts.c \
 *     && /tmp/nvml_layouts > src/test/resources/nvml/layouts.txt
 *
 * The health read's lines need a 13.1 or newer header (nvmlDeviceGetRemappedRows_v2,
 * nvmlDeviceGetUnrepairableMemoryFlag_v1 and the 269-271 field ids are not in 13.0's); they were
 * first computed by gcc from their definitions transcribed from docs.nvidia.com/deploy/nvml-api.
 *
 * The function checks are compile-time: a prototype written here that differs from the
 * header's stops the build, so every "function" line is the header's own type.
 */
#include <stddef.h>
#include <stdio.h>
#include <nvml.h>

#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(t))
#define OFFSET(t, f) printf("offsetof %s %s %zu\n", #t, #f, offsetof(t, f))
#define VALUE(v) printf("value %s %lld\n", #v, (long long) (v))
/* __typeof__ does not evaluate, so no libnvidia-ml is needed to link this program */
#define FUNCTION(name, ret, args)                                                           \
    do {                                                                                    \
        _Static_assert(__builtin_types_compatible_p(__typeof__(&name), ret(*) args),        \
                       #name " is not " #ret #args " in nvml.h");                           \
        printf("function %s %s%s\n", #name, #ret, #args);                                   \
    } while (0)

int main(void) {
    printf("# made from nvml.h NVML_API_VERSION %d by src/test/c/nvml_layouts.c (see there for the command)\n",
           NVML_API_VERSION);

    /* scalar types that the FunctionDescriptors map to JAVA_INT, JAVA_LONG and ADDRESS */
    SIZE(nvmlReturn_t);
    SIZE(nvmlEnableState_t);
    SIZE(nvmlClockType_t);
    SIZE(nvmlIntNvLinkDeviceType_t);
    SIZE(nvmlGpuP2PCapsIndex_t);
    SIZE(nvmlGpuP2PStatus_t);
    SIZE(nvmlDevice_t);
    SIZE(unsigned int);
    SIZE(unsigned long);
    SIZE(unsigned long long);

    SIZE(nvmlPciInfo_t);
    OFFSET(nvmlPciInfo_t, busIdLegacy);
    OFFSET(nvmlPciInfo_t, domain);
    OFFSET(nvmlPciInfo_t, bus);
    OFFSET(nvmlPciInfo_t, device);
    OFFSET(nvmlPciInfo_t, pciDeviceId);
    OFFSET(nvmlPciInfo_t, pciSubSystemId);
    OFFSET(nvmlPciInfo_t, busId);

    SIZE(nvmlMemory_t);
    OFFSET(nvmlMemory_t, total);
    OFFSET(nvmlMemory_t, free);
    OFFSET(nvmlMemory_t, used);

    SIZE(nvmlMemory_v2_t);
    OFFSET(nvmlMemory_v2_t, version);
    OFFSET(nvmlMemory_v2_t, total);
    OFFSET(nvmlMemory_v2_t, reserved);
    OFFSET(nvmlMemory_v2_t, free);
    OFFSET(nvmlMemory_v2_t, used);

    SIZE(nvmlGpuFabricInfo_t);
    OFFSET(nvmlGpuFabricInfo_t, clusterUuid);
    OFFSET(nvmlGpuFabricInfo_t, status);
    OFFSET(nvmlGpuFabricInfo_t, cliqueId);
    OFFSET(nvmlGpuFabricInfo_t, state);

    SIZE(nvmlGpuFabricInfo_v2_t);
    OFFSET(nvmlGpuFabricInfo_v2_t, version);
    OFFSET(nvmlGpuFabricInfo_v2_t, clusterUuid);
    OFFSET(nvmlGpuFabricInfo_v2_t, status);
    OFFSET(nvmlGpuFabricInfo_v2_t, cliqueId);
    OFFSET(nvmlGpuFabricInfo_v2_t, state);
    OFFSET(nvmlGpuFabricInfo_v2_t, healthMask);

    SIZE(nvmlGpuFabricInfo_v3_t);
    SIZE(nvmlGpuFabricInfoV_t);
    OFFSET(nvmlGpuFabricInfo_v3_t, version);
    OFFSET(nvmlGpuFabricInfo_v3_t, clusterUuid);
    OFFSET(nvmlGpuFabricInfo_v3_t, status);
    OFFSET(nvmlGpuFabricInfo_v3_t, cliqueId);
    OFFSET(nvmlGpuFabricInfo_v3_t, state);
    OFFSET(nvmlGpuFabricInfo_v3_t, healthMask);
    OFFSET(nvmlGpuFabricInfo_v3_t, healthSummary);

    SIZE(nvmlDeviceAddressingMode_v1_t);
    SIZE(nvmlDeviceAddressingMode_t);
    OFFSET(nvmlDeviceAddressingMode_v1_t, version);
    OFFSET(nvmlDeviceAddressingMode_v1_t, value);

    SIZE(nvmlUtilization_t);
    OFFSET(nvmlUtilization_t, gpu);
    OFFSET(nvmlUtilization_t, memory);

    SIZE(nvmlProcessInfo_t);
    SIZE(nvmlProcessInfo_v2_t);
    OFFSET(nvmlProcessInfo_v2_t, pid);
    OFFSET(nvmlProcessInfo_v2_t, usedGpuMemory);
    OFFSET(nvmlProcessInfo_v2_t, gpuInstanceId);
    OFFSET(nvmlProcessInfo_v2_t, computeInstanceId);

    SIZE(nvmlPlatformInfo_v1_t);
    OFFSET(nvmlPlatformInfo_v1_t, version);
    OFFSET(nvmlPlatformInfo_v1_t, ibGuid);
    OFFSET(nvmlPlatformInfo_v1_t, rackGuid);
    OFFSET(nvmlPlatformInfo_v1_t, chassisPhysicalSlotNumber);
    OFFSET(nvmlPlatformInfo_v1_t, computeSlotIndex);
    OFFSET(nvmlPlatformInfo_v1_t, nodeIndex);
    OFFSET(nvmlPlatformInfo_v1_t, peerType);
    OFFSET(nvmlPlatformInfo_v1_t, moduleId);

    SIZE(nvmlPlatformInfo_v2_t);
    SIZE(nvmlPlatformInfo_t);
    OFFSET(nvmlPlatformInfo_v2_t, version);
    OFFSET(nvmlPlatformInfo_v2_t, ibGuid);
    OFFSET(nvmlPlatformInfo_v2_t, chassisSerialNumber);
    OFFSET(nvmlPlatformInfo_v2_t, slotNumber);
    OFFSET(nvmlPlatformInfo_v2_t, trayIndex);
    OFFSET(nvmlPlatformInfo_v2_t, hostId);
    OFFSET(nvmlPlatformInfo_v2_t, peerType);
    OFFSET(nvmlPlatformInfo_v2_t, moduleId);

    SIZE(nvmlC2cModeInfo_v1_t);
    OFFSET(nvmlC2cModeInfo_v1_t, isC2cEnabled);

    SIZE(nvmlFieldValue_t);
    OFFSET(nvmlFieldValue_t, fieldId);
    OFFSET(nvmlFieldValue_t, scopeId);
    OFFSET(nvmlFieldValue_t, timestamp);
    OFFSET(nvmlFieldValue_t, latencyUsec);
    OFFSET(nvmlFieldValue_t, valueType);
    OFFSET(nvmlFieldValue_t, nvmlReturn);
    OFFSET(nvmlFieldValue_t, value);

    /* the health read (NvmlHealthReader) */
    SIZE(nvmlEccSramErrorStatus_v1_t);
    SIZE(nvmlEccSramErrorStatus_t);
    OFFSET(nvmlEccSramErrorStatus_v1_t, version);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateUncParity);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateUncSecDed);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateCor);
    OFFSET(nvmlEccSramErrorStatus_v1_t, volatileUncParity);
    OFFSET(nvmlEccSramErrorStatus_v1_t, volatileUncSecDed);
    OFFSET(nvmlEccSramErrorStatus_v1_t, volatileCor);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateUncBucketL2);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateUncBucketSm);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateUncBucketPcie);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateUncBucketMcu);
    OFFSET(nvmlEccSramErrorStatus_v1_t, aggregateUncBucketOther);
    OFFSET(nvmlEccSramErrorStatus_v1_t, bThresholdExceeded);

    SIZE(nvmlRemappedRowsInfo_v2_t);
    OFFSET(nvmlRemappedRowsInfo_v2_t, corrActiveRemaps);
    OFFSET(nvmlRemappedRowsInfo_v2_t, corrInactiveRemaps);
    OFFSET(nvmlRemappedRowsInfo_v2_t, uncActiveRemaps);
    OFFSET(nvmlRemappedRowsInfo_v2_t, uncInactiveRemaps);
    OFFSET(nvmlRemappedRowsInfo_v2_t, bPending);
    OFFSET(nvmlRemappedRowsInfo_v2_t, bFailureOccurred);

    SIZE(nvmlRowRemapperHistogramValues_t);
    OFFSET(nvmlRowRemapperHistogramValues_t, max);
    OFFSET(nvmlRowRemapperHistogramValues_t, high);
    OFFSET(nvmlRowRemapperHistogramValues_t, partial);
    OFFSET(nvmlRowRemapperHistogramValues_t, low);
    OFFSET(nvmlRowRemapperHistogramValues_t, none);

    SIZE(nvmlRepairStatus_v1_t);
    SIZE(nvmlRepairStatus_t);
    OFFSET(nvmlRepairStatus_v1_t, version);
    OFFSET(nvmlRepairStatus_v1_t, bChannelRepairPending);
    OFFSET(nvmlRepairStatus_v1_t, bTpcRepairPending);

    SIZE(nvmlUnrepairableMemoryStatus_v1_t);
    OFFSET(nvmlUnrepairableMemoryStatus_v1_t, bUnrepairableMemory);

    SIZE(nvmlTemperature_v1_t);
    SIZE(nvmlTemperature_t);
    OFFSET(nvmlTemperature_v1_t, version);
    OFFSET(nvmlTemperature_v1_t, sensorType);
    OFFSET(nvmlTemperature_v1_t, temperature);

    SIZE(nvmlMarginTemperature_v1_t);
    SIZE(nvmlMarginTemperature_t);
    OFFSET(nvmlMarginTemperature_v1_t, version);
    OFFSET(nvmlMarginTemperature_v1_t, marginTemperature);

    /* the version words the versioned structs must carry */
    VALUE(nvmlGpuFabricInfo_v2);
    VALUE(nvmlGpuFabricInfo_v3);
    VALUE(nvmlDeviceAddressingMode_v1);
    VALUE(nvmlMemory_v2);
    VALUE(nvmlPlatformInfo_v1);
    VALUE(nvmlPlatformInfo_v2);
    VALUE(nvmlEccSramErrorStatus_v1);
    VALUE(nvmlRepairStatus_v1);
    VALUE(nvmlTemperature_v1);
    VALUE(nvmlMarginTemperature_v1);

    VALUE(NVML_SUCCESS);
    VALUE(NVML_ERROR_UNINITIALIZED);
    VALUE(NVML_ERROR_INVALID_ARGUMENT);
    VALUE(NVML_ERROR_NOT_SUPPORTED);
    VALUE(NVML_ERROR_NO_PERMISSION);
    VALUE(NVML_ERROR_ALREADY_INITIALIZED);
    VALUE(NVML_ERROR_NOT_FOUND);
    VALUE(NVML_ERROR_INSUFFICIENT_SIZE);
    VALUE(NVML_ERROR_INSUFFICIENT_POWER);
    VALUE(NVML_ERROR_DRIVER_NOT_LOADED);
    VALUE(NVML_ERROR_TIMEOUT);
    VALUE(NVML_ERROR_IRQ_ISSUE);
    VALUE(NVML_ERROR_LIBRARY_NOT_FOUND);
    VALUE(NVML_ERROR_FUNCTION_NOT_FOUND);
    VALUE(NVML_ERROR_CORRUPTED_INFOROM);
    VALUE(NVML_ERROR_GPU_IS_LOST);
    VALUE(NVML_ERROR_RESET_REQUIRED);
    VALUE(NVML_ERROR_OPERATING_SYSTEM);
    VALUE(NVML_ERROR_LIB_RM_VERSION_MISMATCH);
    VALUE(NVML_ERROR_IN_USE);
    VALUE(NVML_ERROR_MEMORY);
    VALUE(NVML_ERROR_NO_DATA);
    VALUE(NVML_ERROR_VGPU_ECC_NOT_SUPPORTED);
    VALUE(NVML_ERROR_INSUFFICIENT_RESOURCES);
    VALUE(NVML_ERROR_FREQ_NOT_SUPPORTED);
    VALUE(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
    VALUE(NVML_ERROR_DEPRECATED);
    VALUE(NVML_ERROR_NOT_READY);
    VALUE(NVML_ERROR_GPU_NOT_FOUND);
    VALUE(NVML_ERROR_INVALID_STATE);
    VALUE(NVML_ERROR_RESET_TYPE_NOT_SUPPORTED);
    VALUE(NVML_ERROR_UNKNOWN);

    VALUE(NVML_FEATURE_DISABLED);
    VALUE(NVML_FEATURE_ENABLED);
    VALUE(NVML_CLOCK_SM);
    VALUE(NVML_CLOCK_MEM);
    VALUE(NVML_DEVICE_MIG_DISABLE);
    VALUE(NVML_DEVICE_MIG_ENABLE);
    VALUE(NVML_DEVICE_ADDRESSING_MODE_NONE);
    VALUE(NVML_DEVICE_ADDRESSING_MODE_HMM);
    VALUE(NVML_DEVICE_ADDRESSING_MODE_ATS);
    VALUE(NVML_GPU_FABRIC_UUID_LEN);
    VALUE(NVML_GPU_FABRIC_STATE_NOT_SUPPORTED);
    VALUE(NVML_GPU_FABRIC_STATE_NOT_STARTED);
    VALUE(NVML_GPU_FABRIC_STATE_IN_PROGRESS);
    VALUE(NVML_GPU_FABRIC_STATE_COMPLETED);
    VALUE(NVML_GPU_FABRIC_HEALTH_SUMMARY_NOT_SUPPORTED);
    VALUE(NVML_GPU_FABRIC_HEALTH_SUMMARY_HEALTHY);
    VALUE(NVML_GPU_FABRIC_HEALTH_SUMMARY_UNHEALTHY);
    VALUE(NVML_GPU_FABRIC_HEALTH_SUMMARY_LIMITED_CAPACITY);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_NOT_SUPPORTED);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_TRUE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_FALSE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_DEGRADED_BW);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_DEGRADED_BW);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_RECOVERY_NOT_SUPPORTED);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_RECOVERY_TRUE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_RECOVERY_FALSE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_RECOVERY);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ROUTE_RECOVERY);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_UNHEALTHY_NOT_SUPPORTED);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_UNHEALTHY_TRUE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_UNHEALTHY_FALSE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_UNHEALTHY);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ROUTE_UNHEALTHY);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ACCESS_TIMEOUT_RECOVERY_NOT_SUPPORTED);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ACCESS_TIMEOUT_RECOVERY_TRUE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_ACCESS_TIMEOUT_RECOVERY_FALSE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ACCESS_TIMEOUT_RECOVERY);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ACCESS_TIMEOUT_RECOVERY);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NOT_SUPPORTED);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NONE);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCORRECT_SYSGUID);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCORRECT_CHASSIS_SN);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NO_PARTITION);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INSUFFICIENT_NVLINKS);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCOMPATIBLE_GPU_FW);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INVALID_LOCATION);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_INCORRECT_CONFIGURATION);
    VALUE(NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_INCORRECT_CONFIGURATION);
    VALUE(NVML_FI_DEV_C2C_LINK_COUNT);
    VALUE(NVML_FI_DEV_C2C_LINK_GET_STATUS);
    VALUE(NVML_FI_DEV_C2C_LINK_GET_MAX_BW);
    VALUE(NVML_VALUE_TYPE_DOUBLE);
    VALUE(NVML_VALUE_TYPE_UNSIGNED_INT);
    VALUE(NVML_VALUE_TYPE_UNSIGNED_LONG);
    VALUE(NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
    VALUE(NVML_VALUE_TYPE_SIGNED_LONG_LONG);
    VALUE(NVML_NVLINK_MAX_LINKS);
    VALUE(NVML_NVLINK_DEVICE_TYPE_GPU);
    VALUE(NVML_NVLINK_DEVICE_TYPE_IBMNPU);
    VALUE(NVML_NVLINK_DEVICE_TYPE_SWITCH);
    VALUE(NVML_NVLINK_DEVICE_TYPE_UNKNOWN);
    VALUE(NVML_NVLINK_VERSION_INVALID);
    VALUE(NVML_NVLINK_VERSION_1_0);
    VALUE(NVML_NVLINK_VERSION_2_0);
    VALUE(NVML_NVLINK_VERSION_2_2);
    VALUE(NVML_NVLINK_VERSION_3_0);
    VALUE(NVML_NVLINK_VERSION_3_1);
    VALUE(NVML_NVLINK_VERSION_4_0);
    VALUE(NVML_NVLINK_VERSION_5_0);
    VALUE(NVML_P2P_CAPS_INDEX_READ);
    VALUE(NVML_P2P_CAPS_INDEX_WRITE);
    VALUE(NVML_P2P_CAPS_INDEX_NVLINK);
    VALUE(NVML_P2P_CAPS_INDEX_ATOMICS);
    VALUE(NVML_P2P_CAPS_INDEX_PCI);
    VALUE(NVML_P2P_STATUS_OK);
    VALUE(NVML_P2P_STATUS_CHIPSET_NOT_SUPPORTED);
    VALUE(NVML_P2P_STATUS_GPU_NOT_SUPPORTED);
    VALUE(NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED);
    VALUE(NVML_P2P_STATUS_DISABLED_BY_REGKEY);
    VALUE(NVML_P2P_STATUS_NOT_SUPPORTED);
    VALUE(NVML_P2P_STATUS_UNKNOWN);
    VALUE(NVML_PCIE_UTIL_TX_BYTES);
    VALUE(NVML_PCIE_UTIL_RX_BYTES);
    VALUE(NVML_VALUE_NOT_AVAILABLE);
    VALUE(nvmlClocksEventReasonGpuIdle);
    VALUE(nvmlClocksEventReasonApplicationsClocksSetting);
    VALUE(nvmlClocksEventReasonSwPowerCap);
    VALUE(nvmlClocksThrottleReasonHwSlowdown);
    VALUE(nvmlClocksEventReasonSyncBoost);
    VALUE(nvmlClocksEventReasonSwThermalSlowdown);
    VALUE(nvmlClocksThrottleReasonHwThermalSlowdown);
    VALUE(nvmlClocksThrottleReasonHwPowerBrakeSlowdown);
    VALUE(nvmlClocksEventReasonDisplayClockSetting);
    VALUE(NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE);
    VALUE(NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE);
    VALUE(NVML_DEVICE_UUID_V2_BUFFER_SIZE);
    VALUE(NVML_DEVICE_NAME_V2_BUFFER_SIZE);
    VALUE(NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE);
    VALUE(NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE);
    VALUE(NVML_MEMORY_ERROR_TYPE_CORRECTED);
    VALUE(NVML_MEMORY_ERROR_TYPE_UNCORRECTED);
    VALUE(NVML_VOLATILE_ECC);
    VALUE(NVML_AGGREGATE_ECC);
    VALUE(NVML_MEMORY_LOCATION_DRAM);
    VALUE(NVML_MEMORY_LOCATION_SRAM);
    VALUE(NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS);
    VALUE(NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR);
    VALUE(NVML_TEMPERATURE_GPU);
    VALUE(NVML_TEMPERATURE_THRESHOLD_SHUTDOWN);
    VALUE(NVML_TEMPERATURE_THRESHOLD_SLOWDOWN);
    VALUE(NVML_TEMPERATURE_THRESHOLD_MEM_MAX);
    VALUE(NVML_TEMPERATURE_THRESHOLD_GPU_MAX);
    VALUE(NVML_COMPUTEMODE_DEFAULT);
    VALUE(NVML_COMPUTEMODE_EXCLUSIVE_THREAD);
    VALUE(NVML_COMPUTEMODE_PROHIBITED);
    VALUE(NVML_COMPUTEMODE_EXCLUSIVE_PROCESS);
    VALUE(NVML_GPU_RECOVERY_ACTION_NONE);
    VALUE(NVML_GPU_RECOVERY_ACTION_GPU_RESET);
    VALUE(NVML_GPU_RECOVERY_ACTION_NODE_REBOOT);
    VALUE(NVML_GPU_RECOVERY_ACTION_DRAIN_P2P);
    VALUE(NVML_GPU_RECOVERY_ACTION_DRAIN_AND_RESET);
    VALUE(NVML_GPU_RECOVERY_ACTION_RECOVER_IMEX_DOMAIN);
    VALUE(NVML_NVLINK_ERROR_DL_REPLAY);
    VALUE(NVML_NVLINK_ERROR_DL_RECOVERY);
    VALUE(NVML_NVLINK_ERROR_DL_CRC_FLIT);
    VALUE(NVML_NVLINK_ERROR_DL_CRC_DATA);
    VALUE(NVML_FI_DEV_PERF_POLICY_POWER);
    VALUE(NVML_FI_DEV_PERF_POLICY_SYNC_BOOST);
    VALUE(NVML_FI_DEV_MEMORY_TEMP);
    VALUE(NVML_FI_DEV_PCIE_REPLAY_COUNTER);
    VALUE(NVML_FI_DEV_PCIE_REPLAY_ROLLOVER_COUNTER);
    VALUE(NVML_FI_DEV_POWER_AVERAGE);
    VALUE(NVML_FI_DEV_POWER_INSTANT);
    VALUE(NVML_FI_DEV_TEMPERATURE_SHUTDOWN_TLIMIT);
    VALUE(NVML_FI_DEV_TEMPERATURE_SLOWDOWN_TLIMIT);
    VALUE(NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS);
    VALUE(NVML_FI_DEV_NVLINK_COUNT_SYMBOL_ERRORS);
    VALUE(NVML_FI_DEV_GET_GPU_RECOVERY_ACTION);
    VALUE(NVML_FI_DEV_CLOCKS_EVENT_REASON_SW_THERM_SLOWDOWN);
    VALUE(NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_THERM_SLOWDOWN);
    VALUE(NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_POWER_BRAKE_SLOWDOWN);
    VALUE(NVML_FI_DEV_REMAPPED_COR_INACTIVE);
    VALUE(NVML_FI_DEV_REMAPPED_UNC_INACTIVE);
    VALUE(NVML_VALUE_TYPE_SIGNED_INT);

    /* every symbol hostside looks up, under its exported (versioned) name */
    FUNCTION(nvmlInit_v2, nvmlReturn_t, (void));
    FUNCTION(nvmlShutdown, nvmlReturn_t, (void));
    FUNCTION(nvmlErrorString, const char *, (nvmlReturn_t));
    FUNCTION(nvmlSystemGetDriverVersion, nvmlReturn_t, (char *, unsigned int));
    FUNCTION(nvmlSystemGetNVMLVersion, nvmlReturn_t, (char *, unsigned int));
    FUNCTION(nvmlSystemGetCudaDriverVersion_v2, nvmlReturn_t, (int *));
    FUNCTION(nvmlDeviceGetCount_v2, nvmlReturn_t, (unsigned int *));
    FUNCTION(nvmlDeviceGetHandleByIndex_v2, nvmlReturn_t, (unsigned int, nvmlDevice_t *));
    FUNCTION(nvmlDeviceGetName, nvmlReturn_t, (nvmlDevice_t, char *, unsigned int));
    FUNCTION(nvmlDeviceGetUUID, nvmlReturn_t, (nvmlDevice_t, char *, unsigned int));
    FUNCTION(nvmlDeviceGetPciInfo_v3, nvmlReturn_t, (nvmlDevice_t, nvmlPciInfo_t *));
    FUNCTION(nvmlDeviceGetCurrPcieLinkGeneration, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetCurrPcieLinkWidth, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetMaxPcieLinkGeneration, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetMaxPcieLinkWidth, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetGpuMaxPcieLinkGeneration, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetNumaNodeId, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetCpuAffinity, nvmlReturn_t, (nvmlDevice_t, unsigned int, unsigned long *));
    FUNCTION(nvmlDeviceGetPersistenceMode, nvmlReturn_t, (nvmlDevice_t, nvmlEnableState_t *));
    FUNCTION(nvmlDeviceGetClockInfo, nvmlReturn_t, (nvmlDevice_t, nvmlClockType_t, unsigned int *));
    FUNCTION(nvmlDeviceGetMaxClockInfo, nvmlReturn_t, (nvmlDevice_t, nvmlClockType_t, unsigned int *));
    FUNCTION(nvmlDeviceGetApplicationsClock, nvmlReturn_t, (nvmlDevice_t, nvmlClockType_t, unsigned int *));
    FUNCTION(nvmlDeviceGetDefaultApplicationsClock, nvmlReturn_t, (nvmlDevice_t, nvmlClockType_t, unsigned int *));
    FUNCTION(nvmlDeviceGetPowerManagementDefaultLimit, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetEccMode, nvmlReturn_t, (nvmlDevice_t, nvmlEnableState_t *, nvmlEnableState_t *));
    FUNCTION(nvmlDeviceGetMemoryInfo, nvmlReturn_t, (nvmlDevice_t, nvmlMemory_t *));
    FUNCTION(nvmlDeviceGetMemoryInfo_v2, nvmlReturn_t, (nvmlDevice_t, nvmlMemory_v2_t *));
    FUNCTION(nvmlDeviceGetNvLinkState, nvmlReturn_t, (nvmlDevice_t, unsigned int, nvmlEnableState_t *));
    FUNCTION(nvmlDeviceGetNvLinkRemotePciInfo_v2, nvmlReturn_t, (nvmlDevice_t, unsigned int, nvmlPciInfo_t *));
    FUNCTION(nvmlDeviceGetNvLinkVersion, nvmlReturn_t, (nvmlDevice_t, unsigned int, unsigned int *));
    FUNCTION(nvmlDeviceGetNvLinkRemoteDeviceType, nvmlReturn_t, (nvmlDevice_t, unsigned int, nvmlIntNvLinkDeviceType_t *));
    FUNCTION(nvmlDeviceGetP2PStatus, nvmlReturn_t, (nvmlDevice_t, nvmlDevice_t, nvmlGpuP2PCapsIndex_t, nvmlGpuP2PStatus_t *));
    FUNCTION(nvmlDeviceGetGpuFabricInfo, nvmlReturn_t, (nvmlDevice_t, nvmlGpuFabricInfo_t *));
    FUNCTION(nvmlDeviceGetGpuFabricInfoV, nvmlReturn_t, (nvmlDevice_t, nvmlGpuFabricInfoV_t *));
    FUNCTION(nvmlDeviceGetAddressingMode, nvmlReturn_t, (nvmlDevice_t, nvmlDeviceAddressingMode_t *));
    FUNCTION(nvmlDeviceGetPlatformInfo, nvmlReturn_t, (nvmlDevice_t, nvmlPlatformInfo_t *));
    FUNCTION(nvmlDeviceGetC2cModeInfoV, nvmlReturn_t, (nvmlDevice_t, nvmlC2cModeInfo_v1_t *));
    FUNCTION(nvmlDeviceGetFieldValues, nvmlReturn_t, (nvmlDevice_t, int, nvmlFieldValue_t *));
    FUNCTION(nvmlDeviceGetMigMode, nvmlReturn_t, (nvmlDevice_t, unsigned int *, unsigned int *));
    FUNCTION(nvmlDeviceGetUtilizationRates, nvmlReturn_t, (nvmlDevice_t, nvmlUtilization_t *));
    FUNCTION(nvmlDeviceGetPowerUsage, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetEnforcedPowerLimit, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetCurrentClocksEventReasons, nvmlReturn_t, (nvmlDevice_t, unsigned long long *));
    FUNCTION(nvmlDeviceGetCurrentClocksThrottleReasons, nvmlReturn_t, (nvmlDevice_t, unsigned long long *));
    FUNCTION(nvmlDeviceGetPcieThroughput, nvmlReturn_t, (nvmlDevice_t, nvmlPcieUtilCounter_t, unsigned int *));
    FUNCTION(nvmlDeviceGetComputeRunningProcesses_v3, nvmlReturn_t, (nvmlDevice_t, unsigned int *, nvmlProcessInfo_t *));
    FUNCTION(nvmlDeviceGetMemoryErrorCounter, nvmlReturn_t, (nvmlDevice_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t, nvmlMemoryLocation_t, unsigned long long *));
    FUNCTION(nvmlDeviceGetTotalEccErrors, nvmlReturn_t, (nvmlDevice_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t, unsigned long long *));
    FUNCTION(nvmlDeviceGetSramEccErrorStatus, nvmlReturn_t, (nvmlDevice_t, nvmlEccSramErrorStatus_t *));
    FUNCTION(nvmlDeviceGetRetiredPages, nvmlReturn_t, (nvmlDevice_t, nvmlPageRetirementCause_t, unsigned int *, unsigned long long *));
    FUNCTION(nvmlDeviceGetRetiredPagesPendingStatus, nvmlReturn_t, (nvmlDevice_t, nvmlEnableState_t *));
    FUNCTION(nvmlDeviceGetRemappedRows, nvmlReturn_t, (nvmlDevice_t, unsigned int *, unsigned int *, unsigned int *, unsigned int *));
    FUNCTION(nvmlDeviceGetRemappedRows_v2, nvmlReturn_t, (nvmlDevice_t, nvmlRemappedRowsInfo_v2_t *));
    FUNCTION(nvmlDeviceGetRowRemapperHistogram, nvmlReturn_t, (nvmlDevice_t, nvmlRowRemapperHistogramValues_t *));
    FUNCTION(nvmlDeviceGetRepairStatus, nvmlReturn_t, (nvmlDevice_t, nvmlRepairStatus_t *));
    FUNCTION(nvmlDeviceGetUnrepairableMemoryFlag_v1, nvmlReturn_t, (nvmlDevice_t, nvmlUnrepairableMemoryStatus_v1_t *));
    FUNCTION(nvmlDeviceGetSupportedClocksEventReasons, nvmlReturn_t, (nvmlDevice_t, unsigned long long *));
    FUNCTION(nvmlDeviceGetTemperatureV, nvmlReturn_t, (nvmlDevice_t, nvmlTemperature_t *));
    FUNCTION(nvmlDeviceGetTemperature, nvmlReturn_t, (nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int *));
    FUNCTION(nvmlDeviceGetTemperatureThreshold, nvmlReturn_t, (nvmlDevice_t, nvmlTemperatureThresholds_t, unsigned int *));
    FUNCTION(nvmlDeviceGetMarginTemperature, nvmlReturn_t, (nvmlDevice_t, nvmlMarginTemperature_t *));
    FUNCTION(nvmlDeviceGetComputeMode, nvmlReturn_t, (nvmlDevice_t, nvmlComputeMode_t *));
    FUNCTION(nvmlDeviceGetPerformanceState, nvmlReturn_t, (nvmlDevice_t, nvmlPstates_t *));
    FUNCTION(nvmlDeviceGetPcieReplayCounter, nvmlReturn_t, (nvmlDevice_t, unsigned int *));
    FUNCTION(nvmlDeviceGetNvLinkErrorCounter, nvmlReturn_t, (nvmlDevice_t, unsigned int, nvmlNvLinkErrorCounter_t, unsigned long long *));
    return 0;
}
