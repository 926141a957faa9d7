package hostside.gpu.nvml;

/**
 * The C side of nvml.h that hostside uses: enum values, field ids and buffer sizes ({@link NvmlStructs}
 * holds the struct layouts), all
 * copied from the header of driver 580 / CUDA 13.0 (NVML_API_VERSION 13). Names are the C
 * names, so each can be found in the header and NvmlLayoutsTest can check it against what
 * gcc says (src/test/resources/nvml/layouts.txt). A wrong layout here does not throw: the
 * driver writes past the buffer and the JVM dies, which is why nothing is written from memory.
 *
 * <p>Types on LP64 Linux: enums and unsigned int are 4 bytes (JAVA_INT), unsigned long and
 * unsigned long long 8 (JAVA_LONG), nvmlDevice_t a pointer (ADDRESS).
 */
public final class NvmlTypes {
    private NvmlTypes() {}

    // nvmlReturn_t
    public static final int NVML_SUCCESS = 0;
    public static final int NVML_ERROR_UNINITIALIZED = 1;
    public static final int NVML_ERROR_INVALID_ARGUMENT = 2;
    public static final int NVML_ERROR_NOT_SUPPORTED = 3;
    public static final int NVML_ERROR_NO_PERMISSION = 4;
    public static final int NVML_ERROR_ALREADY_INITIALIZED = 5;
    public static final int NVML_ERROR_NOT_FOUND = 6;
    public static final int NVML_ERROR_INSUFFICIENT_SIZE = 7;
    public static final int NVML_ERROR_INSUFFICIENT_POWER = 8;
    public static final int NVML_ERROR_DRIVER_NOT_LOADED = 9;
    public static final int NVML_ERROR_TIMEOUT = 10;
    public static final int NVML_ERROR_IRQ_ISSUE = 11;
    public static final int NVML_ERROR_LIBRARY_NOT_FOUND = 12;
    public static final int NVML_ERROR_FUNCTION_NOT_FOUND = 13;
    public static final int NVML_ERROR_CORRUPTED_INFOROM = 14;
    public static final int NVML_ERROR_GPU_IS_LOST = 15;
    public static final int NVML_ERROR_RESET_REQUIRED = 16;
    public static final int NVML_ERROR_OPERATING_SYSTEM = 17;
    public static final int NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18;
    public static final int NVML_ERROR_IN_USE = 19;
    public static final int NVML_ERROR_MEMORY = 20;
    public static final int NVML_ERROR_NO_DATA = 21;
    public static final int NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22;
    public static final int NVML_ERROR_INSUFFICIENT_RESOURCES = 23;
    public static final int NVML_ERROR_FREQ_NOT_SUPPORTED = 24;
    public static final int NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25;
    public static final int NVML_ERROR_DEPRECATED = 26;
    public static final int NVML_ERROR_NOT_READY = 27;
    public static final int NVML_ERROR_GPU_NOT_FOUND = 28;
    public static final int NVML_ERROR_INVALID_STATE = 29;
    public static final int NVML_ERROR_RESET_TYPE_NOT_SUPPORTED = 30;
    public static final int NVML_ERROR_UNKNOWN = 999;

    // nvmlEnableState_t, nvmlClockType_t, MIG modes, nvmlDeviceAddressingModeType_t
    public static final int NVML_FEATURE_DISABLED = 0;
    public static final int NVML_FEATURE_ENABLED = 1;
    public static final int NVML_CLOCK_SM = 1;
    public static final int NVML_CLOCK_MEM = 2;
    public static final int NVML_DEVICE_MIG_DISABLE = 0;
    public static final int NVML_DEVICE_MIG_ENABLE = 1;
    public static final int NVML_DEVICE_ADDRESSING_MODE_NONE = 0;
    public static final int NVML_DEVICE_ADDRESSING_MODE_HMM = 1;
    public static final int NVML_DEVICE_ADDRESSING_MODE_ATS = 2;

    // fabric (#defines; nvmlGpuFabricState_t is an unsigned char)
    public static final int NVML_GPU_FABRIC_UUID_LEN = 16;
    public static final int NVML_GPU_FABRIC_STATE_NOT_SUPPORTED = 0;
    public static final int NVML_GPU_FABRIC_STATE_NOT_STARTED = 1;
    public static final int NVML_GPU_FABRIC_STATE_IN_PROGRESS = 2;
    public static final int NVML_GPU_FABRIC_STATE_COMPLETED = 3;
    public static final int NVML_GPU_FABRIC_HEALTH_SUMMARY_NOT_SUPPORTED = 0;
    public static final int NVML_GPU_FABRIC_HEALTH_SUMMARY_HEALTHY = 1;
    public static final int NVML_GPU_FABRIC_HEALTH_SUMMARY_UNHEALTHY = 2;
    public static final int NVML_GPU_FABRIC_HEALTH_SUMMARY_LIMITED_CAPACITY = 3;

    // nvmlGpuFabricInfo_v2_t/_v3_t.healthMask: five fields, each read as (mask >> SHIFT) & WIDTH
    // (nvml.h's NVML_GPU_FABRIC_HEALTH_GET). Copied from NVIDIA/DCGM sdk/nvidia/nvml/nvml.h
    // (commit 2fc25addb176241cf43e9f7c83ba39cacbdc7639, "Fabric definitions"); layouts.txt holds what
    // gcc says of them. The first four share the values NOT_SUPPORTED 0, TRUE 1, FALSE 2.
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_NOT_SUPPORTED = 0;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_TRUE = 1;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_FALSE = 2;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_DEGRADED_BW = 0;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_DEGRADED_BW = 0x3;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_RECOVERY_NOT_SUPPORTED = 0;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_RECOVERY_TRUE = 1;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_RECOVERY_FALSE = 2;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_RECOVERY = 2;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ROUTE_RECOVERY = 0x3;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_UNHEALTHY_NOT_SUPPORTED = 0;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_UNHEALTHY_TRUE = 1;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ROUTE_UNHEALTHY_FALSE = 2;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_UNHEALTHY = 4;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ROUTE_UNHEALTHY = 0x3;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ACCESS_TIMEOUT_RECOVERY_NOT_SUPPORTED = 0;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ACCESS_TIMEOUT_RECOVERY_TRUE = 1;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_ACCESS_TIMEOUT_RECOVERY_FALSE = 2;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ACCESS_TIMEOUT_RECOVERY = 6;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ACCESS_TIMEOUT_RECOVERY = 0x3;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NOT_SUPPORTED = 0;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NONE = 1;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCORRECT_SYSGUID = 2;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCORRECT_CHASSIS_SN = 3;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NO_PARTITION = 4;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INSUFFICIENT_NVLINKS = 5;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCOMPATIBLE_GPU_FW = 6;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INVALID_LOCATION = 7;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_INCORRECT_CONFIGURATION = 8;
    public static final int NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_INCORRECT_CONFIGURATION = 0xf;

    // field ids of nvmlDeviceGetFieldValues for the GPU-CPU C2C link (Grace Hopper / Grace
    // Blackwell); 171 and 172 take the link number as scopeId. Status: 0 inactive, 1 active; max
    // bandwidth in MB/s ("C2C Link Speed in MBps for active links", nvml.h)
    public static final int NVML_FI_DEV_C2C_LINK_COUNT = 170;
    public static final int NVML_FI_DEV_C2C_LINK_GET_STATUS = 171;
    public static final int NVML_FI_DEV_C2C_LINK_GET_MAX_BW = 172;

    // nvmlValueType_t: which member of nvmlFieldValue_t.value NVML filled. Newer headers add
    // SIGNED_INT (5) and UNSIGNED_SHORT (6); this header's are the ones the reader decodes.
    public static final int NVML_VALUE_TYPE_DOUBLE = 0;
    public static final int NVML_VALUE_TYPE_UNSIGNED_INT = 1;
    public static final int NVML_VALUE_TYPE_UNSIGNED_LONG = 2;
    public static final int NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3;
    public static final int NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4;

    // nvmlPcieUtilCounter_t; and the "no value" marker of counters such as usedGpuMemory (an
    // unsigned long long holding (unsigned long long) -1)
    public static final int NVML_PCIE_UTIL_TX_BYTES = 0;
    public static final int NVML_PCIE_UTIL_RX_BYTES = 1;
    public static final int NVML_VALUE_NOT_AVAILABLE = -1;

    // nvmlClocksEventReasons: bits of nvmlDeviceGetCurrentClocksEventReasons' unsigned long long.
    // The header names the hardware ones only under their older "Throttle" names.
    public static final long nvmlClocksEventReasonGpuIdle = 0x1L;
    public static final long nvmlClocksEventReasonApplicationsClocksSetting = 0x2L;
    public static final long nvmlClocksEventReasonSwPowerCap = 0x4L;
    public static final long nvmlClocksThrottleReasonHwSlowdown = 0x8L;
    public static final long nvmlClocksEventReasonSyncBoost = 0x10L;
    public static final long nvmlClocksEventReasonSwThermalSlowdown = 0x20L;
    public static final long nvmlClocksThrottleReasonHwThermalSlowdown = 0x40L;
    public static final long nvmlClocksThrottleReasonHwPowerBrakeSlowdown = 0x80L;
    public static final long nvmlClocksEventReasonDisplayClockSetting = 0x100L;

    // The health read (NvmlHealthReader). Values from nvml.h as docs.nvidia.com/deploy/nvml-api
    // gives them and health.md section 1-3 cites them [H]; the field ids from the "Field Value
    // Enums" page. nvmlMemoryErrorType_t, nvmlEccCounterType_t, nvmlMemoryLocation_t:
    public static final int NVML_MEMORY_ERROR_TYPE_CORRECTED = 0;
    public static final int NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1;
    public static final int NVML_VOLATILE_ECC = 0;
    public static final int NVML_AGGREGATE_ECC = 1;
    public static final int NVML_MEMORY_LOCATION_DRAM = 2;
    public static final int NVML_MEMORY_LOCATION_SRAM = 7;
    // nvmlPageRetirementCause_t
    public static final int NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS = 0;
    public static final int NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR = 1;
    // nvmlTemperatureSensors_t, nvmlTemperatureThresholds_t (4-7, acoustic and GPS, are not read)
    public static final int NVML_TEMPERATURE_GPU = 0;
    public static final int NVML_TEMPERATURE_THRESHOLD_SHUTDOWN = 0;
    public static final int NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1;
    public static final int NVML_TEMPERATURE_THRESHOLD_MEM_MAX = 2;
    public static final int NVML_TEMPERATURE_THRESHOLD_GPU_MAX = 3;
    // nvmlComputeMode_t (EXCLUSIVE_THREAD: "Support Removed", still a value a driver may give)
    public static final int NVML_COMPUTEMODE_DEFAULT = 0;
    public static final int NVML_COMPUTEMODE_EXCLUSIVE_THREAD = 1;
    public static final int NVML_COMPUTEMODE_PROHIBITED = 2;
    public static final int NVML_COMPUTEMODE_EXCLUSIVE_PROCESS = 3;
    // nvmlDeviceGpuRecoveryAction_t, what NVML_FI_DEV_GET_GPU_RECOVERY_ACTION gives
    // (RECOVER_IMEX_DOMAIN 5 is in the 13.1+ headers, not the 13.0 one: health.md section 2)
    public static final int NVML_GPU_RECOVERY_ACTION_NONE = 0;
    public static final int NVML_GPU_RECOVERY_ACTION_GPU_RESET = 1;
    public static final int NVML_GPU_RECOVERY_ACTION_NODE_REBOOT = 2;
    public static final int NVML_GPU_RECOVERY_ACTION_DRAIN_P2P = 3;
    public static final int NVML_GPU_RECOVERY_ACTION_DRAIN_AND_RESET = 4;
    public static final int NVML_GPU_RECOVERY_ACTION_RECOVER_IMEX_DOMAIN = 5;
    // nvmlNvLinkErrorCounter_t: the per-link counters before NVLink 5 (Blackwell answers with fields)
    public static final int NVML_NVLINK_ERROR_DL_REPLAY = 0;
    public static final int NVML_NVLINK_ERROR_DL_RECOVERY = 1;
    public static final int NVML_NVLINK_ERROR_DL_CRC_FLIT = 2;
    public static final int NVML_NVLINK_ERROR_DL_CRC_DATA = 3;

    // field ids of the health read. 269-271 are the 13.1+ header's numbers, which driver 580.159.04
    // answers (251-253 say NOT_SUPPORTED there, health.md's renumbering trap; the 13.0 header had
    // the counters at 251-253). 193-196 come as NVML_VALUE_TYPE_SIGNED_INT (5).
    public static final int NVML_FI_DEV_PERF_POLICY_POWER = 74;
    public static final int NVML_FI_DEV_PERF_POLICY_SYNC_BOOST = 76;
    public static final int NVML_FI_DEV_MEMORY_TEMP = 82;
    public static final int NVML_FI_DEV_PCIE_REPLAY_COUNTER = 94;
    public static final int NVML_FI_DEV_PCIE_REPLAY_ROLLOVER_COUNTER = 95;
    public static final int NVML_FI_DEV_POWER_AVERAGE = 185;
    public static final int NVML_FI_DEV_POWER_INSTANT = 186;
    public static final int NVML_FI_DEV_TEMPERATURE_SHUTDOWN_TLIMIT = 193;
    public static final int NVML_FI_DEV_TEMPERATURE_SLOWDOWN_TLIMIT = 194;
    public static final int NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS = 214;
    public static final int NVML_FI_DEV_NVLINK_COUNT_SYMBOL_ERRORS = 221;
    public static final int NVML_FI_DEV_GET_GPU_RECOVERY_ACTION = 230;
    public static final int NVML_FI_DEV_CLOCKS_EVENT_REASON_SW_THERM_SLOWDOWN = 269;
    public static final int NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_THERM_SLOWDOWN = 270;
    public static final int NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_POWER_BRAKE_SLOWDOWN = 271;
    public static final int NVML_FI_DEV_REMAPPED_COR_INACTIVE = 301;
    public static final int NVML_FI_DEV_REMAPPED_UNC_INACTIVE = 302;
    /** nvmlValueType_t of the 13.x headers: the T.Limit fields' type (the 580 driver answers 193-196 with it) */
    public static final int NVML_VALUE_TYPE_SIGNED_INT = 5;

    // nvmlIntNvLinkDeviceType_t: what is at the other end of an NVLink
    public static final int NVML_NVLINK_DEVICE_TYPE_GPU = 0x00;
    public static final int NVML_NVLINK_DEVICE_TYPE_IBMNPU = 0x01;
    public static final int NVML_NVLINK_DEVICE_TYPE_SWITCH = 0x02;
    public static final int NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xFF;

    // nvmlNvlinkVersion_t, what nvmlDeviceGetNvLinkVersion gives: an enum, not the generation
    // (hwloc read 5 on an A100 as "NVLink 5" until NVIDIA documented the enum, open-mpi/hwloc#658)
    public static final int NVML_NVLINK_VERSION_INVALID = 0;
    public static final int NVML_NVLINK_VERSION_1_0 = 1;
    public static final int NVML_NVLINK_VERSION_2_0 = 2;
    public static final int NVML_NVLINK_VERSION_2_2 = 3;
    public static final int NVML_NVLINK_VERSION_3_0 = 4;
    public static final int NVML_NVLINK_VERSION_3_1 = 5;
    public static final int NVML_NVLINK_VERSION_4_0 = 6;
    public static final int NVML_NVLINK_VERSION_5_0 = 7;

    // nvmlGpuP2PCapsIndex_t: what nvmlDeviceGetP2PStatus is asked about (nvidia-smi topo -p2p r, w, n, a, p);
    // NVML_P2P_CAPS_INDEX_UNKNOWN (5) is not asked: on a 580 driver it answers OK for anything
    public static final int NVML_P2P_CAPS_INDEX_READ = 0;
    public static final int NVML_P2P_CAPS_INDEX_WRITE = 1;
    public static final int NVML_P2P_CAPS_INDEX_NVLINK = 2;
    public static final int NVML_P2P_CAPS_INDEX_ATOMICS = 3;
    public static final int NVML_P2P_CAPS_INDEX_PCI = 4;

    // nvmlGpuP2PStatus_t: the answer, and why P2P is not possible (nvidia-smi's OK, CNS, GNS, TNS, NS, U)
    public static final int NVML_P2P_STATUS_OK = 0;
    public static final int NVML_P2P_STATUS_CHIPSET_NOT_SUPPORTED = 1;
    public static final int NVML_P2P_STATUS_GPU_NOT_SUPPORTED = 2;
    public static final int NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED = 3;
    public static final int NVML_P2P_STATUS_DISABLED_BY_REGKEY = 4;
    public static final int NVML_P2P_STATUS_NOT_SUPPORTED = 5;
    public static final int NVML_P2P_STATUS_UNKNOWN = 6;

    /** This header's maximum; older and newer releases differ, so the NVLink loop does not stop here. */
    public static final int NVML_NVLINK_MAX_LINKS = 18;

    // buffer sizes the header guarantees to be large enough
    public static final int NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE = 32;
    public static final int NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE = 16;
    public static final int NVML_DEVICE_UUID_V2_BUFFER_SIZE = 96;
    public static final int NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96;
    public static final int NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE = 80;
    public static final int NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE = 80;
}
