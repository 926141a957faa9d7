/*
 * A fake libnvidia-ml.so.1 for the tests of hostside.gpu.nvml: two canned GPUs, no driver.
 *
 *   gcc -shared -fPIC -o DIR/libnvidia-ml.so.1 src/test/c/fake_nvml.c                 (a 580 driver)
 *   gcc -shared -fPIC -DFAKE_NVML_OLD -o DIR/libnvidia-ml.so.1 src/test/c/fake_nvml.c (an older one)
 *   gcc -shared -fPIC -DFAKE_NVML_FABRIC_V2 ...                                       (fabric v2 only)
 *
 * It needs no NVIDIA header: the few types and values below are copied from nvml.h of driver
 * 580 / CUDA 13.0 (NVML_API_VERSION 13), and have been the same through NVML 12.x.
 * It checks what a real driver checks (initialised, handles, buffer lengths, struct version
 * words) so that a Java binding that passes the wrong thing fails here, not on a GPU machine.
 *
 * GPU 0 "NVIDIA H200": NUMA node 1, NVLinks 0 (active, to GPU 1: remote type GPU, version 6,
 *       nvml.h's NVML_NVLINK_VERSION_4_0 as on Hopper) and 1 (inactive), then INVALID_ARGUMENT;
 *       fabric probe completed and healthy; ECC on; MIG off; no HMM/ATS.
 * GPU 1 "NVIDIA H100 80GB HBM3": NumaNodeId says NOT_SUPPORTED, NvLinkState NOT_SUPPORTED,
 *       persistence mode NO_PERMISSION, MIG on, HMM, PCI domain 1 in upper case hex.
 * Memory: 512 MiB allocated and 616 MiB reserved; nvmlDeviceGetMemoryInfo's used counts both,
 *       nvmlDeviceGetMemoryInfo_v2's (not in the old variant) only the 512 MiB.
 * Clocks: GPU 0's applications clocks are its defaults (SM 1980, memory 3201 MHz), power limit
 *       700 W of a 700 W default; GPU 1 answers NOT_SUPPORTED for applications clocks (as GeForce).
 * Activity (hostside checklist): GPU 0 97% busy at 652 of 700 W, no clocks event reason, PCIe
 *       TX 1234 KB/s and RX 15728640 KB/s, one compute process (pid 4242, 70 GiB); GPU 1 35% busy,
 *       held by the software power cap, PCIe throughput NOT_SUPPORTED, its process list NO_PERMISSION.
 * nvmlDeviceGetGpuMaxPcieLinkGeneration is deliberately absent (a missing symbol is a driver
 * older than the function). With -DFAKE_NVML_OLD the 580-era symbols go too
 * (nvmlDeviceGetAddressingMode, nvmlDeviceGetGpuFabricInfoV, nvmlDeviceGetNumaNodeId, nvmlDeviceGetMemoryInfo_v2,
 * nvmlSystemGetCudaDriverVersion_v2, nvmlDeviceGetCurrentClocksEventReasons, whose older name
 * nvmlDeviceGetCurrentClocksThrottleReasons stays): the binding must fall back or say "unknown". With
 * -DFAKE_NVML_FABRIC_V2, nvmlDeviceGetGpuFabricInfoV takes only the v2 struct. The old variant
 * also lacks nvmlDeviceGetNvLinkRemoteDeviceType, the newer of the two NVLink detail calls (hwloc
 * checks for it at configure time for that reason); nvmlDeviceGetNvLinkVersion stays, as old as Pascal.
 *
 * Test hooks, called through FFM: fake_nvml_set_init_result(code) makes nvmlInit_v2 fail with
 * that code (0 restores success); fake_nvml_set_device_count(n) pretends n GPUs (n <= 2);
 * fake_nvml_init_count() says how many nvmlInit_v2 calls have no nvmlShutdown yet;
 * fake_nvml_set_clock_policy(gpu, appSm, appMem, powerLimitMw, smClock) sets what an administrator
 * would (applications clocks, 0 for the default; the power limit; the SM clock a lock holds);
 * fake_nvml_set_activity(gpu, util, reasons), fake_nvml_clear_processes(gpu) and
 * fake_nvml_add_process(gpu, pid, bytes) change what a GPU is doing;
 * fake_nvml_set_p2p(from, to, index, status) sets what nvmlDeviceGetP2PStatus answers for one
 * capability of an ordered pair, fake_nvml_set_p2p_result(code) makes it fail with code (0: answer
 * again), fake_nvml_reset_p2p() restores the canned answers (every capability OK both ways but PCI,
 * IOH_TOPOLOGY_NOT_SUPPORTED: the two GPUs sit in different PCI domains);
 * fake_nvml_set_switch_links(gpu, n) gives GPU gpu n active links (at most FAKE_MAX_LINKS), each to
 * an NVSwitch (remote type SWITCH, PCI 0000:05:00.0 to 0000:08:00.0 in turn, as an HGX H100's four
 * switches appear in nvidia-smi nvlink -R), version 6; fake_nvml_set_link_detail_result(code) makes
 * the remote type and version calls answer code (0: answer again); fake_nvml_reset_links() restores
 * the links above.
 *
 * Rack facts (hostside rack): GPU 0's fabric completes healthy with a healthy Blackwell health mask
 * (each two-bit field FALSE, configuration NONE); both GPUs answer NOT_SUPPORTED to
 * nvmlDeviceGetPlatformInfo (pre-Blackwell); GPU 0's C2C mode is disabled (as the H200 answers), GPU 1
 * answers NOT_SUPPORTED. fake_nvml_set_fabric(gpu, state, status, healthMask, healthSummary),
 * fake_nvml_set_platform(gpu, result, serial, slot, tray, host, peer, module),
 * fake_nvml_set_c2c(gpu, result, enabled, links, activeMask, maxBwMBps, fieldResult) and
 * fake_nvml_set_persistence(gpu, result, enabled) change them; fake_nvml_reset_rack() restores them.
 * Health (NvmlHealth): ECC counters, SRAM status, retired pages, remapped rows (v1, v2 and fields
 * 301/302), histogram, repair and unrepairable flags, temperatures, thresholds and T.Limits, power
 * fields, compute mode, P-state, recovery action, throttle time, PCIe replays and NVLink error
 * counters (per link before NVLink 5, fields 214/221 from it) answer from HEALTH_H100, the H100
 * machine's answers, the same for both GPUs. fake_nvml_set_health(gpu, key, value) changes one,
 * fake_nvml_fail_call(gpu, symbol, code) makes one device call answer code for one GPU (and
 * fake_nvml_calls_after_fail(gpu) counts what the GPU was asked after it), fake_nvml_set_field(gpu,
 * id, ret, type) answers one field id otherwise, fake_nvml_set_link_version(gpu, v) sets the
 * links' nvmlNvlinkVersion_t; fake_nvml_reset_health() restores all but the link version. The OLD
 * variant lacks the newer health calls: nvmlDeviceGetSramEccErrorStatus, nvmlDeviceGetRemappedRows_v2,
 * nvmlDeviceGetRepairStatus, nvmlDeviceGetUnrepairableMemoryFlag_v1, nvmlDeviceGetTemperatureV and
 * nvmlDeviceGetMarginTemperature.
 * nvmlDeviceGetPlatformInfo and nvmlDeviceGetC2cModeInfoV are absent with -DFAKE_NVML_OLD;
 * -DFAKE_NVML_FABRIC_V2 takes only nvmlPlatformInfo_v1 too (a driver before both v3 and v2).
 */
#include <string.h>

/* ---- from nvml.h (580 / 13.0) ---- */
typedef enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_RESET_REQUIRED = 16,
    NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
    NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
    NVML_ERROR_UNKNOWN = 999
} nvmlReturn_t;

typedef enum { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 } nvmlEnableState_t;
typedef enum {
    NVML_NVLINK_DEVICE_TYPE_GPU = 0x00,
    NVML_NVLINK_DEVICE_TYPE_IBMNPU = 0x01,
    NVML_NVLINK_DEVICE_TYPE_SWITCH = 0x02,
    NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xFF
} nvmlIntNvLinkDeviceType_t;
#define NVML_NVLINK_VERSION_4_0 6
typedef enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_CLOCK_VIDEO = 3 } nvmlClockType_t;

typedef struct {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

typedef struct {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct {
    unsigned int version;
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_v2_t;

typedef unsigned char nvmlGpuFabricState_t;
typedef struct {
    unsigned char clusterUuid[16];
    nvmlReturn_t status;
    unsigned int cliqueId;
    nvmlGpuFabricState_t state;
} nvmlGpuFabricInfo_t;
typedef struct {
    unsigned int version;
    unsigned char clusterUuid[16];
    nvmlReturn_t status;
    unsigned int cliqueId;
    nvmlGpuFabricState_t state;
    unsigned int healthMask;
} nvmlGpuFabricInfo_v2_t;
typedef struct {
    unsigned int version;
    unsigned char clusterUuid[16];
    nvmlReturn_t status;
    unsigned int cliqueId;
    nvmlGpuFabricState_t state;
    unsigned int healthMask;
    unsigned char healthSummary;
} nvmlGpuFabricInfo_v3_t;
typedef struct {
    unsigned int version;
    unsigned int value;
} nvmlDeviceAddressingMode_t;

/* nvmlPlatformInfo_v1_t has the same bytes under older names (rackGuid, chassisPhysicalSlotNumber,
   computeSlotIndex, nodeIndex), so one struct serves both versions here */
typedef struct {
    unsigned int version;
    unsigned char ibGuid[16];
    unsigned char chassisSerialNumber[16];
    unsigned char slotNumber;
    unsigned char trayIndex;
    unsigned char hostId;
    unsigned char peerType;
    unsigned char moduleId;
} nvmlPlatformInfo_v2_t;
typedef struct {
    unsigned int isC2cEnabled;
} nvmlC2cModeInfo_v1_t;
typedef enum {
    NVML_VALUE_TYPE_DOUBLE = 0,
    NVML_VALUE_TYPE_UNSIGNED_INT = 1,
    NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
    NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
    NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
    NVML_VALUE_TYPE_SIGNED_INT = 5
} nvmlValueType_t;
typedef union {
    double dVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
    signed int siVal;
} nvmlValue_t;
typedef struct {
    unsigned int fieldId;
    unsigned int scopeId;
    long long timestamp;
    long long latencyUsec;
    nvmlValueType_t valueType;
    nvmlReturn_t nvmlReturn;
    nvmlValue_t value;
} nvmlFieldValue_t;
#define NVML_FI_DEV_C2C_LINK_COUNT 170
#define NVML_FI_DEV_C2C_LINK_GET_STATUS 171
#define NVML_FI_DEV_C2C_LINK_GET_MAX_BW 172
/* the health read's structs (nvml.h 13.x; nvmlRemappedRowsInfo_v2_t and the unrepairable flag carry no version) */
typedef struct {
    unsigned int version;
    unsigned long long aggregateUncParity, aggregateUncSecDed, aggregateCor;
    unsigned long long volatileUncParity, volatileUncSecDed, volatileCor;
    unsigned long long aggregateUncBucketL2, aggregateUncBucketSm, aggregateUncBucketPcie, aggregateUncBucketMcu,
        aggregateUncBucketOther;
    unsigned int bThresholdExceeded;
} nvmlEccSramErrorStatus_v1_t;
typedef struct {
    unsigned int corrActiveRemaps, corrInactiveRemaps, uncActiveRemaps, uncInactiveRemaps, bPending, bFailureOccurred;
} nvmlRemappedRowsInfo_v2_t;
typedef struct { unsigned int max, high, partial, low, none; } nvmlRowRemapperHistogramValues_t;
typedef struct { unsigned int version, bChannelRepairPending, bTpcRepairPending; } nvmlRepairStatus_v1_t;
typedef struct { unsigned int bUnrepairableMemory; } nvmlUnrepairableMemoryStatus_v1_t;
typedef struct { unsigned int version; unsigned int sensorType; int temperature; } nvmlTemperature_v1_t;
typedef struct { unsigned int version; int marginTemperature; } nvmlMarginTemperature_v1_t;
#define NVML_NVLINK_VERSION_5_0 7

typedef struct {
    unsigned int gpu;
    unsigned int memory;
} nvmlUtilization_t;

typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

typedef enum { NVML_PCIE_UTIL_TX_BYTES = 0, NVML_PCIE_UTIL_RX_BYTES = 1 } nvmlPcieUtilCounter_t;
#define NVML_VALUE_NOT_AVAILABLE (-1)
#define nvmlClocksEventReasonSwPowerCap 0x0000000000000004LL

#define FAKE_STRUCT_VERSION(type, ver) ((unsigned int) (sizeof(type) | ((ver) << 24U)))
#define NVML_GPU_FABRIC_STATE_NOT_SUPPORTED 0
#define NVML_GPU_FABRIC_STATE_COMPLETED 3
#define NVML_GPU_FABRIC_HEALTH_SUMMARY_NOT_SUPPORTED 0
#define NVML_GPU_FABRIC_HEALTH_SUMMARY_HEALTHY 1
/* a healthy Blackwell mask: each two-bit field FALSE (2), the configuration NONE (1) at bit 8 */
#define FAKE_HEALTHY_MASK ((2u << 0) | (2u << 2) | (2u << 4) | (2u << 6) | (1u << 8))
/* ---- end of nvml.h ---- */

#define EXPORT __attribute__((visibility("default")))
#define FAKE_MAX_PROCESSES 8
/* more than any release's maximum (18 in the 580 header), so the reader's loop meets the fake's end, not a cap */
#define FAKE_MAX_LINKS 36

/*
 * The health read's answers, one number per key, set by name through fake_nvml_set_health(gpu, key,
 * value). HEALTH_H100 holds the H100 machine's answers (shared/fixtures/h100/nvml-probe.txt, and
 * its nvidia-smi -q where the probe did not ask: the current temperatures), so that a default read
 * equals testdata/h100/nvidia-smi-q.txt within its read-time tolerance.
 */
enum {
    H_VOL_DRAM_COR, H_VOL_DRAM_UNC, H_AGG_DRAM_COR, H_AGG_DRAM_UNC,
    H_VOL_TOTAL_COR, H_VOL_TOTAL_UNC, H_AGG_TOTAL_COR, H_AGG_TOTAL_UNC,
    H_SRAM_AGG_PARITY, H_SRAM_AGG_SECDED, H_SRAM_AGG_COR, H_SRAM_VOL_PARITY, H_SRAM_VOL_SECDED, H_SRAM_VOL_COR,
    H_SRAM_L2, H_SRAM_SM, H_SRAM_PCIE, H_SRAM_MCU, H_SRAM_OTHER, H_SRAM_THRESHOLD,
    H_RETIRED_RESULT, H_RETIRED_SBE, H_RETIRED_DBE, H_RETIRED_PENDING_RESULT, H_RETIRED_PENDING,
    H_ROWS_COR, H_ROWS_UNC, H_ROWS_COR_INACTIVE, H_ROWS_UNC_INACTIVE, H_ROWS_PENDING, H_ROWS_FAILURE,
    H_HIST_MAX, H_HIST_HIGH, H_HIST_PARTIAL, H_HIST_LOW, H_HIST_NONE,
    H_REPAIR_CHANNEL, H_REPAIR_TPC, H_UNREPAIRABLE,
    H_SUPPORTED_REASONS, H_THR_SW_POWER, H_THR_SYNC_BOOST, H_THR_SW_THERMAL, H_THR_HW_THERMAL, H_THR_HW_POWER_BRAKE,
    H_GPU_TEMP, H_MEMORY_TEMP, H_SHUTDOWN_TEMP, H_SLOWDOWN_TEMP, H_MEM_MAX_TEMP, H_GPU_MAX_TEMP, H_MARGIN,
    H_SHUTDOWN_TLIMIT, H_SLOWDOWN_TLIMIT, H_MEM_MAX_TLIMIT, H_GPU_MAX_TLIMIT,
    H_POWER_AVERAGE, H_POWER_INSTANT, H_COMPUTE_MODE, H_PSTATE, H_RECOVERY_ACTION, H_REPLAYS, H_REPLAY_ROLLOVERS,
    H_NVLINK_REPLAY, H_NVLINK_RECOVERY, H_NVLINK_CRC_FLIT, H_NVLINK_CRC_DATA, H_NVLINK_SYMBOL, H_NVLINK_RECOVERY_FAILED,
    H_COUNT
};
static const char *const HEALTH_KEYS[H_COUNT] = {
    [H_VOL_DRAM_COR] = "ecc.volatile.dram.corrected", [H_VOL_DRAM_UNC] = "ecc.volatile.dram.uncorrected",
    [H_AGG_DRAM_COR] = "ecc.aggregate.dram.corrected", [H_AGG_DRAM_UNC] = "ecc.aggregate.dram.uncorrected",
    [H_VOL_TOTAL_COR] = "ecc.volatile.total.corrected", [H_VOL_TOTAL_UNC] = "ecc.volatile.total.uncorrected",
    [H_AGG_TOTAL_COR] = "ecc.aggregate.total.corrected", [H_AGG_TOTAL_UNC] = "ecc.aggregate.total.uncorrected",
    [H_SRAM_AGG_PARITY] = "sram.aggregateUncParity", [H_SRAM_AGG_SECDED] = "sram.aggregateUncSecDed",
    [H_SRAM_AGG_COR] = "sram.aggregateCor", [H_SRAM_VOL_PARITY] = "sram.volatileUncParity",
    [H_SRAM_VOL_SECDED] = "sram.volatileUncSecDed", [H_SRAM_VOL_COR] = "sram.volatileCor",
    [H_SRAM_L2] = "sram.l2", [H_SRAM_SM] = "sram.sm", [H_SRAM_PCIE] = "sram.pcie", [H_SRAM_MCU] = "sram.mcu",
    [H_SRAM_OTHER] = "sram.other", [H_SRAM_THRESHOLD] = "sram.thresholdExceeded",
    [H_RETIRED_RESULT] = "retiredPages.result", [H_RETIRED_SBE] = "retiredPages.singleBit",
    [H_RETIRED_DBE] = "retiredPages.doubleBit", [H_RETIRED_PENDING_RESULT] = "retiredPages.pendingResult",
    [H_RETIRED_PENDING] = "retiredPages.pending",
    [H_ROWS_COR] = "rows.correctable", [H_ROWS_UNC] = "rows.uncorrectable", [H_ROWS_COR_INACTIVE] = "rows.correctableInactive",
    [H_ROWS_UNC_INACTIVE] = "rows.uncorrectableInactive", [H_ROWS_PENDING] = "rows.pending", [H_ROWS_FAILURE] = "rows.failure",
    [H_HIST_MAX] = "histogram.max", [H_HIST_HIGH] = "histogram.high", [H_HIST_PARTIAL] = "histogram.partial",
    [H_HIST_LOW] = "histogram.low", [H_HIST_NONE] = "histogram.none",
    [H_REPAIR_CHANNEL] = "repair.channel", [H_REPAIR_TPC] = "repair.tpc", [H_UNREPAIRABLE] = "unrepairable",
    [H_SUPPORTED_REASONS] = "clocks.supportedReasons", [H_THR_SW_POWER] = "throttle.swPowerCapNs",
    [H_THR_SYNC_BOOST] = "throttle.syncBoostNs", [H_THR_SW_THERMAL] = "throttle.swThermalNs",
    [H_THR_HW_THERMAL] = "throttle.hwThermalNs", [H_THR_HW_POWER_BRAKE] = "throttle.hwPowerBrakeNs",
    [H_GPU_TEMP] = "temp.gpu", [H_MEMORY_TEMP] = "temp.memory", [H_SHUTDOWN_TEMP] = "temp.shutdown",
    [H_SLOWDOWN_TEMP] = "temp.slowdown", [H_MEM_MAX_TEMP] = "temp.memoryMax", [H_GPU_MAX_TEMP] = "temp.gpuMax",
    [H_MARGIN] = "temp.margin", [H_SHUTDOWN_TLIMIT] = "tlimit.shutdown", [H_SLOWDOWN_TLIMIT] = "tlimit.slowdown",
    [H_MEM_MAX_TLIMIT] = "tlimit.memoryMax", [H_GPU_MAX_TLIMIT] = "tlimit.gpuMax",
    [H_POWER_AVERAGE] = "power.averageMw", [H_POWER_INSTANT] = "power.instantMw", [H_COMPUTE_MODE] = "computeMode",
    [H_PSTATE] = "pstate", [H_RECOVERY_ACTION] = "recoveryAction", [H_REPLAYS] = "pcie.replays",
    [H_REPLAY_ROLLOVERS] = "pcie.replayRollovers",
    [H_NVLINK_REPLAY] = "nvlink.replay", [H_NVLINK_RECOVERY] = "nvlink.recovery", [H_NVLINK_CRC_FLIT] = "nvlink.crcFlit",
    [H_NVLINK_CRC_DATA] = "nvlink.crcData", [H_NVLINK_SYMBOL] = "nvlink.symbolErrors",
    [H_NVLINK_RECOVERY_FAILED] = "nvlink.recoveryFailed",
};
static const long long HEALTH_H100[H_COUNT] = {
    /* "RetiredPages(cnt0) 3", "RetiredPending 3": NOT_SUPPORTED on Hopper */
    [H_RETIRED_RESULT] = NVML_ERROR_NOT_SUPPORTED, [H_RETIRED_PENDING_RESULT] = NVML_ERROR_NOT_SUPPORTED,
    [H_HIST_MAX] = 2560,                      /* "Histogram 0 [2560, 0, 0, 0, 0]" */
    [H_SUPPORTED_REASONS] = 0x1ff,            /* "SupportedClocksEvent 0 0x1ff" */
    [H_GPU_TEMP] = 32, [H_MEMORY_TEMP] = 34,  /* nvidia-smi -q: GPU / Memory Current Temp */
    [H_SHUTDOWN_TEMP] = 95, [H_SLOWDOWN_TEMP] = 89, [H_MEM_MAX_TEMP] = 95, [H_GPU_MAX_TEMP] = 87, /* TempThreshold 0-3 */
    [H_MARGIN] = 53,                          /* "Margin 0 53" (nvidia-smi read 55 a moment apart) */
    [H_SHUTDOWN_TLIMIT] = -8, [H_SLOWDOWN_TLIMIT] = -2, /* FI 193, 194 (signed int) */
    [H_POWER_AVERAGE] = 70644, [H_POWER_INSTANT] = 71188, /* FI 185, 186 */
};
#define FAKE_MAX_FIELD_ANSWERS 8

typedef struct fake_gpu {
    const char *name;
    const char *uuid;
    unsigned int domain, bus, device;
    const char *busId;
    unsigned int pcieGen, pcieWidth, pcieMaxGen, pcieMaxWidth;
    nvmlReturn_t numaResult;
    unsigned int numaNode;
    unsigned long cpuMask[2]; /* CPUs 0-63, 64-127 */
    nvmlReturn_t persistenceResult;
    nvmlEnableState_t persistence;
    unsigned int smClock, smClockMax, memClock, memClockMax;
    nvmlEnableState_t eccCurrent, eccPending;
    unsigned long long memoryTotal;
    nvmlReturn_t nvlinkResult;
    unsigned int nvlinks;
    nvmlEnableState_t nvlinkActive[FAKE_MAX_LINKS];
    nvmlIntNvLinkDeviceType_t nvlinkRemoteType[FAKE_MAX_LINKS];
    unsigned int nvlinkVersion;
    unsigned int fabricState;
    nvmlReturn_t fabricStatus;
    unsigned int fabricHealthMask;
    unsigned char fabricHealthSummary;
    /* nvmlDeviceGetPlatformInfo: NOT_SUPPORTED before Blackwell */
    nvmlReturn_t platformResult;
    char chassisSerial[17];
    unsigned char slotNumber, trayIndex, hostId, peerType, moduleId;
    /* nvmlDeviceGetC2cModeInfoV and fields 170-172; a link's bit in c2cActiveMask makes it active */
    nvmlReturn_t c2cResult;
    unsigned int c2cEnabled, c2cLinks, c2cActiveMask, c2cMaxBwMBps;
    nvmlReturn_t c2cFieldResult;
    unsigned int addressingMode;
    unsigned int migCurrent, migPending;
    /* what the GPU is doing: the checklist's readings */
    nvmlUtilization_t utilization;
    unsigned int powerMw, powerLimitMw;
    unsigned long long clocksEventReasons;
    /* what an administrator set: applications clocks (-ac) and the power limit's default */
    nvmlReturn_t appClocksResult;
    unsigned int appSm, defaultAppSm, appMem, defaultAppMem, defaultPowerLimitMw;
    nvmlReturn_t pcieResult;
    unsigned int pcieTxKBs, pcieRxKBs;
    nvmlReturn_t processesResult;
    unsigned int processCount;
    nvmlProcessInfo_t processes[FAKE_MAX_PROCESSES];
    /* the health read: its numbers, one call made to fail, and field answers set apart */
    long long health[H_COUNT];
    char failSymbol[64];
    int failCode, failFired, callsAfterFail;
    struct { unsigned int id; int ret, type, used; } fieldAnswer[FAKE_MAX_FIELD_ANSWERS];
} fake_gpu;

static fake_gpu gpus[2] = {
    {
        .name = "NVIDIA H200",
        .uuid = "GPU-4a1bd2f4-9e3c-5a17-8f0e-2b6c7d8e9f01",
        .domain = 0, .bus = 0, .device = 6, .busId = "00000000:00:06.0",
        .pcieGen = 5, .pcieWidth = 16, .pcieMaxGen = 5, .pcieMaxWidth = 16,
        .numaResult = NVML_SUCCESS, .numaNode = 1,
        .cpuMask = {0xffffUL, 0},
        .persistenceResult = NVML_SUCCESS, .persistence = NVML_FEATURE_ENABLED,
        .smClock = 1980, .smClockMax = 1980, .memClock = 3201, .memClockMax = 3201,
        .eccCurrent = NVML_FEATURE_ENABLED, .eccPending = NVML_FEATURE_ENABLED,
        .memoryTotal = 150754820096ULL,
        .nvlinkResult = NVML_SUCCESS, .nvlinks = 2,
        .nvlinkActive = {NVML_FEATURE_ENABLED, NVML_FEATURE_DISABLED},
        .nvlinkRemoteType = {NVML_NVLINK_DEVICE_TYPE_GPU, NVML_NVLINK_DEVICE_TYPE_GPU},
        .nvlinkVersion = NVML_NVLINK_VERSION_4_0,
        .fabricState = NVML_GPU_FABRIC_STATE_COMPLETED,
        .fabricStatus = NVML_SUCCESS, .fabricHealthMask = FAKE_HEALTHY_MASK,
        .fabricHealthSummary = NVML_GPU_FABRIC_HEALTH_SUMMARY_HEALTHY,
        .platformResult = NVML_ERROR_NOT_SUPPORTED,
        .c2cResult = NVML_SUCCESS, .c2cEnabled = 0, /* as the H200 answers */
        .addressingMode = 0,
        .migCurrent = 0, .migPending = 0,
        .utilization = {97, 41},
        .powerMw = 652000, .powerLimitMw = 700000,
        .clocksEventReasons = 0,
        .appClocksResult = NVML_SUCCESS,
        .appSm = 1980, .defaultAppSm = 1980, .appMem = 3201, .defaultAppMem = 3201, .defaultPowerLimitMw = 700000,
        .pcieResult = NVML_SUCCESS, .pcieTxKBs = 1234, .pcieRxKBs = 15728640,
        .processesResult = NVML_SUCCESS,
        .processCount = 1,
        .processes = {{.pid = 4242, .usedGpuMemory = 75161927680ULL, .gpuInstanceId = 0xFFFFFFFFu, .computeInstanceId = 0xFFFFFFFFu}},
    },
    {
        .name = "NVIDIA H100 80GB HBM3",
        .uuid = "GPU-00000000-1111-2222-3333-444444444444",
        .domain = 1, .bus = 0x0a, .device = 0, .busId = "00000001:0A:00.0",
        .pcieGen = 1, .pcieWidth = 16, .pcieMaxGen = 5, .pcieMaxWidth = 16,
        .numaResult = NVML_ERROR_NOT_SUPPORTED,
        .cpuMask = {0x1UL, 0xffffUL}, /* CPUs 0 and 64-79 */
        .persistenceResult = NVML_ERROR_NO_PERMISSION,
        .smClock = 345, .smClockMax = 1980, .memClock = 2619, .memClockMax = 2619,
        .eccCurrent = NVML_FEATURE_DISABLED, .eccPending = NVML_FEATURE_ENABLED,
        .memoryTotal = 85520809984ULL,
        .nvlinkResult = NVML_ERROR_NOT_SUPPORTED,
        .fabricState = NVML_GPU_FABRIC_STATE_NOT_SUPPORTED,
        .platformResult = NVML_ERROR_NOT_SUPPORTED,
        .c2cResult = NVML_ERROR_NOT_SUPPORTED,
        .addressingMode = 1,
        .migCurrent = 1, .migPending = 1,
        .utilization = {35, 10},
        .powerMw = 699000, .powerLimitMw = 700000,
        .clocksEventReasons = nvmlClocksEventReasonSwPowerCap,
        .appClocksResult = NVML_ERROR_NOT_SUPPORTED, .defaultPowerLimitMw = 700000,
        .pcieResult = NVML_ERROR_NOT_SUPPORTED,
        .processesResult = NVML_ERROR_NO_PERMISSION,
    },
};

/* nvmlGpuP2PCapsIndex_t READ .. PCI, and nvmlGpuP2PStatus_t, as in nvml.h */
#define FAKE_P2P_CAPS 5
enum { FAKE_P2P_OK = 0, FAKE_P2P_IOH_TOPOLOGY_NOT_SUPPORTED = 3, FAKE_P2P_INDEX_PCI = 4 };
static int p2p[2][2][FAKE_P2P_CAPS] = {
    [0][1][FAKE_P2P_INDEX_PCI] = FAKE_P2P_IOH_TOPOLOGY_NOT_SUPPORTED,
    [1][0][FAKE_P2P_INDEX_PCI] = FAKE_P2P_IOH_TOPOLOGY_NOT_SUPPORTED,
};
static int p2pResult = NVML_SUCCESS;

static int initResult = NVML_SUCCESS;
static int linkDetailResult = NVML_SUCCESS;
static int initCount = 0;
static unsigned int deviceCount = 2;

EXPORT void fake_nvml_set_init_result(int code) { initResult = code; }
EXPORT void fake_nvml_set_device_count(unsigned int n) { deviceCount = n <= 2 ? n : 2; }
EXPORT int fake_nvml_init_count(void) { return initCount; }

/* the activity hooks, for a checklist test that wants its own process or a throttled GPU */
EXPORT void fake_nvml_set_activity(unsigned int gpu, unsigned int util, unsigned long long reasons) {
    if (gpu >= 2) return;
    gpus[gpu].utilization.gpu = util;
    gpus[gpu].clocksEventReasons = reasons;
}
/* an administrator's settings: applications clocks (0 restores the defaults), the enforced power
   limit and the SM clock now, as nvidia-smi -ac, -pl and -lgc would leave them */
EXPORT void fake_nvml_set_clock_policy(unsigned int gpu, unsigned int appSm, unsigned int appMem,
                                       unsigned int powerLimitMw, unsigned int smClock) {
    if (gpu >= 2) return;
    fake_gpu *g = &gpus[gpu];
    g->appSm = appSm == 0 ? g->defaultAppSm : appSm;
    g->appMem = appMem == 0 ? g->defaultAppMem : appMem;
    g->powerLimitMw = powerLimitMw;
    g->smClock = smClock;
}
EXPORT void fake_nvml_clear_processes(unsigned int gpu) {
    if (gpu < 2) gpus[gpu].processCount = 0;
}
/* usedGpuMemory (unsigned long long) -1 is NVML_VALUE_NOT_AVAILABLE */
EXPORT void fake_nvml_add_process(unsigned int gpu, unsigned int pid, unsigned long long usedGpuMemory) {
    if (gpu >= 2 || gpus[gpu].processCount >= FAKE_MAX_PROCESSES) return;
    nvmlProcessInfo_t *p = &gpus[gpu].processes[gpus[gpu].processCount++];
    p->pid = pid;
    p->usedGpuMemory = usedGpuMemory;
    p->gpuInstanceId = p->computeInstanceId = 0xFFFFFFFFu;
}

/* an HGX board: every link of the GPU to one of four NVSwitches */
EXPORT void fake_nvml_set_switch_links(unsigned int gpu, unsigned int n) {
    if (gpu >= 2) return;
    fake_gpu *g = &gpus[gpu];
    g->nvlinkResult = NVML_SUCCESS;
    g->nvlinks = n <= FAKE_MAX_LINKS ? n : FAKE_MAX_LINKS;
    for (unsigned int i = 0; i < g->nvlinks; i++) {
        g->nvlinkActive[i] = NVML_FEATURE_ENABLED;
        g->nvlinkRemoteType[i] = NVML_NVLINK_DEVICE_TYPE_SWITCH;
    }
    g->nvlinkVersion = NVML_NVLINK_VERSION_4_0;
}
EXPORT void fake_nvml_set_link_detail_result(int code) { linkDetailResult = code; }
EXPORT void fake_nvml_set_p2p(unsigned int from, unsigned int to, unsigned int index, int status) {
    if (from < 2 && to < 2 && index < FAKE_P2P_CAPS) p2p[from][to][index] = status;
}
EXPORT void fake_nvml_set_p2p_result(int code) { p2pResult = code; }
EXPORT void fake_nvml_reset_p2p(void) {
    p2pResult = NVML_SUCCESS;
    memset(p2p, 0, sizeof p2p);
    p2p[0][1][FAKE_P2P_INDEX_PCI] = p2p[1][0][FAKE_P2P_INDEX_PCI] = FAKE_P2P_IOH_TOPOLOGY_NOT_SUPPORTED;
}
EXPORT void fake_nvml_reset_links(void) {
    linkDetailResult = NVML_SUCCESS;
    fake_nvml_set_switch_links(0, 2);
    gpus[0].nvlinkActive[1] = NVML_FEATURE_DISABLED;
    gpus[0].nvlinkRemoteType[0] = gpus[0].nvlinkRemoteType[1] = NVML_NVLINK_DEVICE_TYPE_GPU;
    gpus[1].nvlinkResult = NVML_ERROR_NOT_SUPPORTED;
    gpus[1].nvlinks = 0;
}

/* what the fabric probe says: state, registration status, health mask and summary (v3 only) */
EXPORT void fake_nvml_set_fabric(unsigned int gpu, unsigned int state, int status, unsigned int healthMask,
                                 unsigned int healthSummary) {
    if (gpu >= 2) return;
    gpus[gpu].fabricState = state;
    gpus[gpu].fabricStatus = (nvmlReturn_t) status;
    gpus[gpu].fabricHealthMask = healthMask;
    gpus[gpu].fabricHealthSummary = (unsigned char) healthSummary;
}
/* nvmlDeviceGetPlatformInfo answers result; on success these values (serial at most 16 bytes) */
EXPORT void fake_nvml_set_platform(unsigned int gpu, int result, const char *serial, unsigned int slot, unsigned int tray,
                                   unsigned int host, unsigned int peer, unsigned int module) {
    if (gpu >= 2) return;
    fake_gpu *g = &gpus[gpu];
    g->platformResult = (nvmlReturn_t) result;
    memset(g->chassisSerial, 0, sizeof g->chassisSerial);
    strncpy(g->chassisSerial, serial, 16);
    g->slotNumber = (unsigned char) slot;
    g->trayIndex = (unsigned char) tray;
    g->hostId = (unsigned char) host;
    g->peerType = (unsigned char) peer;
    g->moduleId = (unsigned char) module;
}
/* nvmlDeviceGetC2cModeInfoV answers result and enabled; fields 170-172 answer links, the links whose
   bit is in activeMask as active with maxBwMBps each, or every field fieldResult when not 0 */
EXPORT void fake_nvml_set_c2c(unsigned int gpu, int result, unsigned int enabled, unsigned int links, unsigned int activeMask,
                              unsigned int maxBwMBps, int fieldResult) {
    if (gpu >= 2) return;
    fake_gpu *g = &gpus[gpu];
    g->c2cResult = (nvmlReturn_t) result;
    g->c2cEnabled = enabled;
    g->c2cLinks = links;
    g->c2cActiveMask = activeMask;
    g->c2cMaxBwMBps = maxBwMBps;
    g->c2cFieldResult = (nvmlReturn_t) fieldResult;
}
/* nvmlDeviceGetPersistenceMode answers result, and on success enabled (1) or disabled (0) */
EXPORT void fake_nvml_set_persistence(unsigned int gpu, int result, unsigned int enabled) {
    if (gpu >= 2) return;
    gpus[gpu].persistenceResult = (nvmlReturn_t) result;
    gpus[gpu].persistence = enabled ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
}
/* the fabric, platform, C2C and persistence answers of the header comment again */
EXPORT void fake_nvml_reset_rack(void) {
    fake_nvml_set_fabric(0, NVML_GPU_FABRIC_STATE_COMPLETED, NVML_SUCCESS, FAKE_HEALTHY_MASK, NVML_GPU_FABRIC_HEALTH_SUMMARY_HEALTHY);
    fake_nvml_set_fabric(1, NVML_GPU_FABRIC_STATE_NOT_SUPPORTED, NVML_SUCCESS, 0, NVML_GPU_FABRIC_HEALTH_SUMMARY_NOT_SUPPORTED);
    fake_nvml_set_platform(0, NVML_ERROR_NOT_SUPPORTED, "", 0, 0, 0, 0, 0);
    fake_nvml_set_platform(1, NVML_ERROR_NOT_SUPPORTED, "", 0, 0, 0, 0, 0);
    fake_nvml_set_c2c(0, NVML_SUCCESS, 0, 0, 0, 0, NVML_SUCCESS);
    fake_nvml_set_c2c(1, NVML_ERROR_NOT_SUPPORTED, 0, 0, 0, 0, NVML_SUCCESS);
    fake_nvml_set_persistence(0, NVML_SUCCESS, 1);
    fake_nvml_set_persistence(1, NVML_ERROR_NO_PERMISSION, 0);
}

/* the health read's hooks: its numbers by key, one failing call, field answers, NVLink 5 links */
static int healthLoaded = 0;
EXPORT void fake_nvml_reset_health(void) {
    for (int g = 0; g < 2; g++) {
        memcpy(gpus[g].health, HEALTH_H100, sizeof HEALTH_H100);
        memset(gpus[g].failSymbol, 0, sizeof gpus[g].failSymbol);
        gpus[g].failCode = gpus[g].failFired = gpus[g].callsAfterFail = 0;
        memset(gpus[g].fieldAnswer, 0, sizeof gpus[g].fieldAnswer);
    }
    healthLoaded = 1;
}
static void healthReady(void) {
    if (!healthLoaded) fake_nvml_reset_health();
}
/* 1 when key names a health number (set), 0 when it names none */
EXPORT int fake_nvml_set_health(unsigned int gpu, const char *key, long long value) {
    healthReady();
    if (gpu >= 2) return 0;
    for (int k = 0; k < H_COUNT; k++) {
        if (strcmp(HEALTH_KEYS[k], key) == 0) {
            gpus[gpu].health[k] = value;
            return 1;
        }
    }
    return 0;
}
/* the device call named symbol answers code for GPU gpu from now on (0: answers again) */
EXPORT void fake_nvml_fail_call(unsigned int gpu, const char *symbol, int code) {
    healthReady();
    if (gpu >= 2) return;
    strncpy(gpus[gpu].failSymbol, symbol, sizeof gpus[gpu].failSymbol - 1);
    gpus[gpu].failCode = code;
    gpus[gpu].failFired = gpus[gpu].callsAfterFail = 0;
}
/* device calls GPU gpu got after its failing call answered */
EXPORT int fake_nvml_calls_after_fail(unsigned int gpu) { return gpu < 2 ? gpus[gpu].callsAfterFail : -1; }
/* nvmlDeviceGetFieldValues answers field id with ret and, on success, value type type */
EXPORT void fake_nvml_set_field(unsigned int gpu, unsigned int id, int ret, int type) {
    healthReady();
    if (gpu >= 2) return;
    for (int i = 0; i < FAKE_MAX_FIELD_ANSWERS; i++) {
        if (!gpus[gpu].fieldAnswer[i].used || gpus[gpu].fieldAnswer[i].id == id) {
            gpus[gpu].fieldAnswer[i].used = 1;
            gpus[gpu].fieldAnswer[i].id = id;
            gpus[gpu].fieldAnswer[i].ret = ret;
            gpus[gpu].fieldAnswer[i].type = type;
            return;
        }
    }
}
/* the nvmlNvlinkVersion_t every active link of GPU gpu answers (7: NVLink 5, counters as fields) */
EXPORT void fake_nvml_set_link_version(unsigned int gpu, unsigned int version) {
    if (gpu < 2) gpus[gpu].nvlinkVersion = version;
}

/* the real nvmlErrorString's words for these codes */
EXPORT const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_FUNCTION_NOT_FOUND: return "Function Not Found";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    case NVML_ERROR_RESET_REQUIRED: return "GPU requires reset";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH: return "RM has detected an NVML/RM version mismatch.";
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH: return "Argument version mismatch";
    default: return "Unknown Error";
    }
}

EXPORT nvmlReturn_t nvmlInit_v2(void) {
    healthReady();
    if (initResult != NVML_SUCCESS) return (nvmlReturn_t) initResult;
    initCount++;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlShutdown(void) {
    if (initCount == 0) return NVML_ERROR_UNINITIALIZED;
    initCount--;
    return NVML_SUCCESS;
}

static nvmlReturn_t copyString(const char *s, char *out, unsigned int length) {
    if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(s) + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(out, s);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    if (initCount == 0) return NVML_ERROR_UNINITIALIZED;
    return copyString("580.95.05", version, length);
}

/* the real one answers before nvmlInit too */
EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
    return copyString("13.580.95.05", version, length);
}

#ifndef FAKE_NVML_OLD
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion) {
    if (cudaDriverVersion == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *cudaDriverVersion = 13000;
    return NVML_SUCCESS;
}
#endif

EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    if (initCount == 0) return NVML_ERROR_UNINITIALIZED;
    if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *count = deviceCount;
    return NVML_SUCCESS;
}

/* a handle is a pointer to the fake's own record, as opaque to the caller as the real one */
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, fake_gpu **device) {
    if (initCount == 0) return NVML_ERROR_UNINITIALIZED;
    if (index >= deviceCount || device == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *device = &gpus[index];
    return NVML_SUCCESS;
}

/* every device call starts here: initialised, a handle this fake gave out, an out pointer */
#define CHECK(device, out)                                                                  \
    do {                                                                                    \
        if (initCount == 0) return NVML_ERROR_UNINITIALIZED;                                \
        if ((device) != &gpus[0] && (device) != &gpus[1]) return NVML_ERROR_INVALID_ARGUMENT; \
        if ((out) == NULL) return NVML_ERROR_INVALID_ARGUMENT;                              \
        if (injected((device), __func__)) return (nvmlReturn_t) (device)->failCode;         \
    } while (0)

/* counts the calls a GPU gets after its injected failure, and fires that failure */
static int injected(fake_gpu *g, const char *fn) {
    if (g->failFired) g->callsAfterFail++;
    if (g->failCode == 0 || strcmp(g->failSymbol, fn) != 0) return 0;
    g->failFired = 1;
    return 1;
}

EXPORT nvmlReturn_t nvmlDeviceGetName(fake_gpu *device, char *name, unsigned int length) {
    CHECK(device, name);
    return copyString(device->name, name, length);
}

EXPORT nvmlReturn_t nvmlDeviceGetUUID(fake_gpu *device, char *uuid, unsigned int length) {
    CHECK(device, uuid);
    return copyString(device->uuid, uuid, length);
}

static void fillPci(const fake_gpu *g, nvmlPciInfo_t *pci) {
    memset(pci, 0, sizeof *pci);
    pci->domain = g->domain;
    pci->bus = g->bus;
    pci->device = g->device;
    pci->pciDeviceId = 0x233510de;
    pci->pciSubSystemId = 0x18a610de;
    strcpy(pci->busIdLegacy, g->busId + 4);
    strcpy(pci->busId, g->busId);
}

EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(fake_gpu *device, nvmlPciInfo_t *pci) {
    CHECK(device, pci);
    fillPci(device, pci);
    return NVML_SUCCESS;
}

#define UINT_GETTER(fn, expr)                                                               \
    EXPORT nvmlReturn_t fn(fake_gpu *device, unsigned int *value) {                         \
        CHECK(device, value);                                                               \
        *value = (expr);                                                                    \
        return NVML_SUCCESS;                                                                \
    }
UINT_GETTER(nvmlDeviceGetCurrPcieLinkGeneration, device->pcieGen)
UINT_GETTER(nvmlDeviceGetCurrPcieLinkWidth, device->pcieWidth)
UINT_GETTER(nvmlDeviceGetMaxPcieLinkGeneration, device->pcieMaxGen)
UINT_GETTER(nvmlDeviceGetMaxPcieLinkWidth, device->pcieMaxWidth)
/* nvmlDeviceGetGpuMaxPcieLinkGeneration: deliberately not here */

#ifndef FAKE_NVML_OLD
EXPORT nvmlReturn_t nvmlDeviceGetNumaNodeId(fake_gpu *device, unsigned int *node) {
    CHECK(device, node);
    if (device->numaResult != NVML_SUCCESS) return device->numaResult;
    *node = device->numaNode;
    return NVML_SUCCESS;
}
#endif

EXPORT nvmlReturn_t nvmlDeviceGetCpuAffinity(fake_gpu *device, unsigned int cpuSetSize, unsigned long *cpuSet) {
    CHECK(device, cpuSet);
    if (cpuSetSize == 0) return NVML_ERROR_INVALID_ARGUMENT;
    for (unsigned int i = 0; i < cpuSetSize; i++) cpuSet[i] = i < 2 ? device->cpuMask[i] : 0;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPersistenceMode(fake_gpu *device, nvmlEnableState_t *mode) {
    CHECK(device, mode);
    if (device->persistenceResult != NVML_SUCCESS) return device->persistenceResult;
    *mode = device->persistence;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(fake_gpu *device, nvmlClockType_t type, unsigned int *clock) {
    CHECK(device, clock);
    if (type == NVML_CLOCK_SM) *clock = device->smClock;
    else if (type == NVML_CLOCK_MEM) *clock = device->memClock;
    else return NVML_ERROR_INVALID_ARGUMENT;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(fake_gpu *device, nvmlClockType_t type, unsigned int *clock) {
    CHECK(device, clock);
    if (type == NVML_CLOCK_SM) *clock = device->smClockMax;
    else if (type == NVML_CLOCK_MEM) *clock = device->memClockMax;
    else return NVML_ERROR_INVALID_ARGUMENT;
    return NVML_SUCCESS;
}

static nvmlReturn_t appClock(fake_gpu *device, nvmlClockType_t type, unsigned int *clock, int byDefault) {
    CHECK(device, clock);
    if (device->appClocksResult != NVML_SUCCESS) return device->appClocksResult;
    if (type == NVML_CLOCK_SM || type == NVML_CLOCK_GRAPHICS) *clock = byDefault ? device->defaultAppSm : device->appSm;
    else if (type == NVML_CLOCK_MEM) *clock = byDefault ? device->defaultAppMem : device->appMem;
    else return NVML_ERROR_INVALID_ARGUMENT;
    return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetApplicationsClock(fake_gpu *device, nvmlClockType_t type, unsigned int *clock) {
    return appClock(device, type, clock, 0);
}
EXPORT nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(fake_gpu *device, nvmlClockType_t type, unsigned int *clock) {
    return appClock(device, type, clock, 1);
}

EXPORT nvmlReturn_t nvmlDeviceGetEccMode(fake_gpu *device, nvmlEnableState_t *current, nvmlEnableState_t *pending) {
    CHECK(device, current);
    if (pending == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *current = device->eccCurrent;
    *pending = device->eccPending;
    return NVML_SUCCESS;
}

/* as the H200 answers: 512 MiB allocated by processes, 616 MiB reserved by the driver; v1's used counts both */
#define FAKE_ALLOCATED (512ULL << 20)
#define FAKE_RESERVED (616ULL << 20)

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(fake_gpu *device, nvmlMemory_t *memory) {
    CHECK(device, memory);
    memory->total = device->memoryTotal;
    memory->used = FAKE_ALLOCATED + FAKE_RESERVED;
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(fake_gpu *device, nvmlMemory_v2_t *memory) {
    CHECK(device, memory);
    if (memory->version != FAKE_STRUCT_VERSION(nvmlMemory_v2_t, 2)) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    memory->total = device->memoryTotal;
    memory->reserved = FAKE_RESERVED;
    memory->used = FAKE_ALLOCATED;
    memory->free = memory->total - memory->used - memory->reserved;
    return NVML_SUCCESS;
}
#endif

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(fake_gpu *device, unsigned int link, nvmlEnableState_t *isActive) {
    CHECK(device, isActive);
    if (device->nvlinkResult != NVML_SUCCESS) return device->nvlinkResult;
    if (link >= device->nvlinks) return NVML_ERROR_INVALID_ARGUMENT;
    *isActive = device->nvlinkActive[link];
    return NVML_SUCCESS;
}

/* GPU 0's link 0 reaches GPU 1, a switch link one of four NVSwitches; an inactive link has no remote end */
EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(fake_gpu *device, unsigned int link, nvmlPciInfo_t *pci) {
    CHECK(device, pci);
    if (device->nvlinkResult != NVML_SUCCESS) return device->nvlinkResult;
    if (link >= device->nvlinks) return NVML_ERROR_INVALID_ARGUMENT;
    if (device->nvlinkActive[link] != NVML_FEATURE_ENABLED) return NVML_ERROR_NOT_SUPPORTED;
    if (device->nvlinkRemoteType[link] == NVML_NVLINK_DEVICE_TYPE_SWITCH) {
        memset(pci, 0, sizeof *pci);
        pci->bus = 5 + link % 4;
        strcpy(pci->busIdLegacy, "0000:05:00.0");
        strcpy(pci->busId, "00000000:05:00.0");
        pci->busIdLegacy[6] = pci->busId[10] = (char) ('5' + link % 4);
    } else {
        fillPci(&gpus[1], pci);
    }
    pci->pciSubSystemId = 0xdeadbeef; /* "not filled in and indeterminate", says nvml.h */
    return NVML_SUCCESS;
}

/* the real one answers INVALID_ARGUMENT past the last link; inactive links have no version (cuda-python#2154) */
EXPORT nvmlReturn_t nvmlDeviceGetNvLinkVersion(fake_gpu *device, unsigned int link, unsigned int *version) {
    CHECK(device, version);
    if (device->nvlinkResult != NVML_SUCCESS) return device->nvlinkResult;
    if (link >= device->nvlinks) return NVML_ERROR_INVALID_ARGUMENT;
    if (linkDetailResult != NVML_SUCCESS) return (nvmlReturn_t) linkDetailResult;
    *version = device->nvlinkActive[link] == NVML_FEATURE_ENABLED ? device->nvlinkVersion : 0;
    return NVML_SUCCESS;
}

/* what a GPU may do with another's memory */
EXPORT nvmlReturn_t nvmlDeviceGetP2PStatus(fake_gpu *device1, fake_gpu *device2, int index, int *status) {
    CHECK(device1, status);
    if (device2 != &gpus[0] && device2 != &gpus[1]) return NVML_ERROR_INVALID_ARGUMENT;
    if (index < 0 || index > FAKE_P2P_CAPS) return NVML_ERROR_INVALID_ARGUMENT;
    if (p2pResult != NVML_SUCCESS) return (nvmlReturn_t) p2pResult;
    /* a real 580 driver answers NOT_SUPPORTED for a GPU and itself, and OK for index 5 (UNKNOWN) */
    if (index == FAKE_P2P_CAPS) {
        *status = FAKE_P2P_OK;
        return NVML_SUCCESS;
    }
    *status = device1 == device2 ? 5 : p2p[device1 - gpus][device2 - gpus][index];
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(fake_gpu *device, unsigned int link, nvmlIntNvLinkDeviceType_t *type) {
    CHECK(device, type);
    if (device->nvlinkResult != NVML_SUCCESS) return device->nvlinkResult;
    if (link >= device->nvlinks) return NVML_ERROR_INVALID_ARGUMENT;
    if (linkDetailResult != NVML_SUCCESS) return (nvmlReturn_t) linkDetailResult;
    *type = device->nvlinkActive[link] == NVML_FEATURE_ENABLED ? device->nvlinkRemoteType[link] : NVML_NVLINK_DEVICE_TYPE_UNKNOWN;
    return NVML_SUCCESS;
}
#endif

static void fillFabric(const fake_gpu *g, unsigned char uuid[16], nvmlReturn_t *status,
                       unsigned int *cliqueId, nvmlGpuFabricState_t *state) {
    *state = (nvmlGpuFabricState_t) g->fabricState;
    if (g->fabricState == NVML_GPU_FABRIC_STATE_COMPLETED) {
        for (int i = 0; i < 16; i++) uuid[i] = (unsigned char) (0x10 + i);
        *status = g->fabricStatus;
        *cliqueId = 7;
    }
}

/* the unversioned call says NOT_SUPPORTED for a GPU outside any fabric, as older drivers do */
EXPORT nvmlReturn_t nvmlDeviceGetGpuFabricInfo(fake_gpu *device, nvmlGpuFabricInfo_t *info) {
    CHECK(device, info);
    if (device->fabricState == NVML_GPU_FABRIC_STATE_NOT_SUPPORTED) return NVML_ERROR_NOT_SUPPORTED;
    memset(info, 0, sizeof *info);
    fillFabric(device, info->clusterUuid, &info->status, &info->cliqueId, &info->state);
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
/* accepts v3 and v2, as the 580 driver does (v2 only with -DFAKE_NVML_FABRIC_V2, as a driver
   from before v3); anything else is a version mismatch */
EXPORT nvmlReturn_t nvmlDeviceGetGpuFabricInfoV(fake_gpu *device, nvmlGpuFabricInfo_v3_t *info) {
    CHECK(device, info);
    unsigned int version = info->version;
#ifndef FAKE_NVML_FABRIC_V2
    if (version == FAKE_STRUCT_VERSION(nvmlGpuFabricInfo_v3_t, 3)) {
        memset(info, 0, sizeof *info);
        info->version = version;
        fillFabric(device, info->clusterUuid, &info->status, &info->cliqueId, &info->state);
        info->healthMask = device->fabricHealthMask;
        info->healthSummary = device->fabricHealthSummary;
        return NVML_SUCCESS;
    }
#endif
    if (version == FAKE_STRUCT_VERSION(nvmlGpuFabricInfo_v2_t, 2)) {
        nvmlGpuFabricInfo_v2_t *v2 = (nvmlGpuFabricInfo_v2_t *) info;
        memset(v2, 0, sizeof *v2);
        v2->version = version;
        fillFabric(device, v2->clusterUuid, &v2->status, &v2->cliqueId, &v2->state);
        v2->healthMask = device->fabricHealthMask;
        return NVML_SUCCESS;
    }
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
}

EXPORT nvmlReturn_t nvmlDeviceGetAddressingMode(fake_gpu *device, nvmlDeviceAddressingMode_t *mode) {
    CHECK(device, mode);
    if (mode->version != FAKE_STRUCT_VERSION(nvmlDeviceAddressingMode_t, 1)) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    mode->value = device->addressingMode;
    return NVML_SUCCESS;
}

/* v2 and v1 (the same bytes), as a 580 driver; v1 only with -DFAKE_NVML_FABRIC_V2, as an older one */
EXPORT nvmlReturn_t nvmlDeviceGetPlatformInfo(fake_gpu *device, nvmlPlatformInfo_v2_t *info) {
    CHECK(device, info);
    unsigned int version = info->version;
    int v2 = version == FAKE_STRUCT_VERSION(nvmlPlatformInfo_v2_t, 2);
#ifdef FAKE_NVML_FABRIC_V2
    v2 = 0;
#endif
    if (!v2 && version != FAKE_STRUCT_VERSION(nvmlPlatformInfo_v2_t, 1)) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    if (device->platformResult != NVML_SUCCESS) return device->platformResult;
    memset(info, 0, sizeof *info);
    info->version = version;
    memcpy(info->chassisSerialNumber, device->chassisSerial, 16);
    info->slotNumber = device->slotNumber;
    info->trayIndex = device->trayIndex;
    info->hostId = device->hostId;
    info->peerType = device->peerType;
    info->moduleId = device->moduleId;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetC2cModeInfoV(fake_gpu *device, nvmlC2cModeInfo_v1_t *info) {
    CHECK(device, info);
    if (device->c2cResult != NVML_SUCCESS) return device->c2cResult;
    info->isC2cEnabled = device->c2cEnabled;
    return NVML_SUCCESS;
}
#endif

/* the health read's field ids, as the H100 answered them: id, the key that holds the value, its type */
static const struct { unsigned int id; int key; nvmlValueType_t type; } HEALTH_FIELDS[] = {
    {74, H_THR_SW_POWER, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG}, {76, H_THR_SYNC_BOOST, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {82, H_MEMORY_TEMP, NVML_VALUE_TYPE_UNSIGNED_INT},
    {94, H_REPLAYS, NVML_VALUE_TYPE_UNSIGNED_INT}, {95, H_REPLAY_ROLLOVERS, NVML_VALUE_TYPE_UNSIGNED_INT},
    {185, H_POWER_AVERAGE, NVML_VALUE_TYPE_UNSIGNED_INT}, {186, H_POWER_INSTANT, NVML_VALUE_TYPE_UNSIGNED_INT},
    {193, H_SHUTDOWN_TLIMIT, NVML_VALUE_TYPE_SIGNED_INT}, {194, H_SLOWDOWN_TLIMIT, NVML_VALUE_TYPE_SIGNED_INT},
    {195, H_MEM_MAX_TLIMIT, NVML_VALUE_TYPE_SIGNED_INT}, {196, H_GPU_MAX_TLIMIT, NVML_VALUE_TYPE_SIGNED_INT},
    {230, H_RECOVERY_ACTION, NVML_VALUE_TYPE_UNSIGNED_INT},
    {269, H_THR_SW_THERMAL, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG}, {270, H_THR_HW_THERMAL, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {271, H_THR_HW_POWER_BRAKE, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {301, H_ROWS_COR_INACTIVE, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG}, {302, H_ROWS_UNC_INACTIVE, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
};
#define NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS 214
#define NVML_FI_DEV_NVLINK_COUNT_SYMBOL_ERRORS 221

static void setValue(nvmlFieldValue_t *v, nvmlValueType_t type, long long value) {
    v->valueType = type;
    v->value.ullVal = 0;
    if (type == NVML_VALUE_TYPE_SIGNED_INT) v->value.siVal = (int) value;
    else if (type == NVML_VALUE_TYPE_UNSIGNED_INT) v->value.uiVal = (unsigned int) value;
    else v->value.ullVal = (unsigned long long) value;
}

/* 1 when v is a health field (answered here), 0 for the rest */
static int healthField(fake_gpu *device, nvmlFieldValue_t *v) {
    for (int i = 0; i < FAKE_MAX_FIELD_ANSWERS; i++) {
        if (device->fieldAnswer[i].used && device->fieldAnswer[i].id == v->fieldId) {
            v->nvmlReturn = (nvmlReturn_t) device->fieldAnswer[i].ret;
            long long value = 0;
            for (unsigned int f = 0; f < sizeof HEALTH_FIELDS / sizeof HEALTH_FIELDS[0]; f++) {
                if (HEALTH_FIELDS[f].id == v->fieldId) value = device->health[HEALTH_FIELDS[f].key];
            }
            setValue(v, (nvmlValueType_t) device->fieldAnswer[i].type, value);
            return 1;
        }
    }
    for (unsigned int f = 0; f < sizeof HEALTH_FIELDS / sizeof HEALTH_FIELDS[0]; f++) {
        if (HEALTH_FIELDS[f].id == v->fieldId) {
            setValue(v, HEALTH_FIELDS[f].type, device->health[HEALTH_FIELDS[f].key]);
            return 1;
        }
    }
    /* NVLink 5's per-link counters, the link in scopeId; older links say NOT_SUPPORTED */
    if (v->fieldId == NVML_FI_DEV_NVLINK_COUNT_SYMBOL_ERRORS || v->fieldId == NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS) {
        if (v->scopeId >= device->nvlinks) v->nvmlReturn = NVML_ERROR_INVALID_ARGUMENT;
        else if (device->nvlinkVersion < NVML_NVLINK_VERSION_5_0) v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
        else setValue(v, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG, device->health[v->fieldId == NVML_FI_DEV_NVLINK_COUNT_SYMBOL_ERRORS
                                                                            ? H_NVLINK_SYMBOL : H_NVLINK_RECOVERY_FAILED]);
        return 1;
    }
    return 0;
}

/* as old as NVML 3xx, so in every variant; only the C2C fields are answered, each entry on its own */
EXPORT nvmlReturn_t nvmlDeviceGetFieldValues(fake_gpu *device, int valuesCount, nvmlFieldValue_t *values) {
    CHECK(device, values);
    if (valuesCount <= 0) return NVML_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < valuesCount; i++) {
        nvmlFieldValue_t *v = &values[i];
        v->timestamp = 1700000000000000LL;
        v->latencyUsec = 0;
        v->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
        v->value.ullVal = 0;
        v->nvmlReturn = NVML_SUCCESS;
        if (healthField(device, v)) continue;
        if (v->fieldId >= NVML_FI_DEV_C2C_LINK_COUNT && v->fieldId <= NVML_FI_DEV_C2C_LINK_GET_MAX_BW) {
            v->nvmlReturn = device->c2cFieldResult;
            if (v->nvmlReturn != NVML_SUCCESS) continue;
        }
        if (v->fieldId == NVML_FI_DEV_C2C_LINK_COUNT) {
            v->value.uiVal = device->c2cLinks;
        } else if (v->fieldId == NVML_FI_DEV_C2C_LINK_GET_STATUS || v->fieldId == NVML_FI_DEV_C2C_LINK_GET_MAX_BW) {
            if (v->scopeId >= device->c2cLinks) {
                v->nvmlReturn = NVML_ERROR_INVALID_ARGUMENT;
                continue;
            }
            int active = (device->c2cActiveMask >> v->scopeId) & 1;
            if (v->fieldId == NVML_FI_DEV_C2C_LINK_GET_STATUS) v->value.uiVal = (unsigned int) active;
            else if (active) v->value.uiVal = device->c2cMaxBwMBps;
            else v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED; /* nvml.h: the speed "for active links" */
        } else {
            v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
        }
    }
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMigMode(fake_gpu *device, unsigned int *currentMode, unsigned int *pendingMode) {
    CHECK(device, currentMode);
    if (pendingMode == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *currentMode = device->migCurrent;
    *pendingMode = device->migPending;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(fake_gpu *device, nvmlUtilization_t *utilization) {
    CHECK(device, utilization);
    *utilization = device->utilization;
    return NVML_SUCCESS;
}

UINT_GETTER(nvmlDeviceGetPowerUsage, device->powerMw)
UINT_GETTER(nvmlDeviceGetEnforcedPowerLimit, device->powerLimitMw)
UINT_GETTER(nvmlDeviceGetPowerManagementDefaultLimit, device->defaultPowerLimitMw)

/* the pre-535 name stays in every variant, as it does in the 580 driver */
EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(fake_gpu *device, unsigned long long *reasons) {
    CHECK(device, reasons);
    *reasons = device->clocksEventReasons;
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(fake_gpu *device, unsigned long long *reasons) {
    CHECK(device, reasons);
    *reasons = device->clocksEventReasons;
    return NVML_SUCCESS;
}
#endif

EXPORT nvmlReturn_t nvmlDeviceGetPcieThroughput(fake_gpu *device, nvmlPcieUtilCounter_t counter, unsigned int *value) {
    CHECK(device, value);
    if (device->pcieResult != NVML_SUCCESS) return device->pcieResult;
    if (counter == NVML_PCIE_UTIL_TX_BYTES) *value = device->pcieTxKBs;
    else if (counter == NVML_PCIE_UTIL_RX_BYTES) *value = device->pcieRxKBs;
    else return NVML_ERROR_INVALID_ARGUMENT;
    return NVML_SUCCESS;
}

/* as nvml.h says: *infoCount 0 (infos may be NULL) asks for the count, answered by
   INSUFFICIENT_SIZE with the count, or SUCCESS when nothing runs */
EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(fake_gpu *device, unsigned int *infoCount, nvmlProcessInfo_t *infos) {
    CHECK(device, infoCount);
    if (device->processesResult != NVML_SUCCESS) return device->processesResult;
    unsigned int room = *infoCount;
    *infoCount = device->processCount;
    if (device->processCount == 0) return NVML_SUCCESS;
    if (room < device->processCount) return NVML_ERROR_INSUFFICIENT_SIZE;
    if (infos == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    for (unsigned int i = 0; i < device->processCount; i++) infos[i] = device->processes[i];
    return NVML_SUCCESS;
}

/* ---- the health read (NvmlHealth) ---- */
#define HV(key) (device->health[key])

EXPORT nvmlReturn_t nvmlDeviceGetMemoryErrorCounter(fake_gpu *device, int errorType, int counterType, int location,
                                                    unsigned long long *count) {
    CHECK(device, count);
    if (errorType < 0 || errorType > 1 || counterType < 0 || counterType > 1) return NVML_ERROR_INVALID_ARGUMENT;
    /* the H100 answers DRAM (2) and SRAM (7) and NOT_SUPPORTED for every other location */
    if (location == 2) *count = (unsigned long long) HV(H_VOL_DRAM_COR + counterType * 2 + errorType);
    else if (location == 7) *count = (unsigned long long) (counterType == 0 ? (errorType ? HV(H_SRAM_VOL_PARITY) + HV(H_SRAM_VOL_SECDED) : HV(H_SRAM_VOL_COR))
                                                                           : (errorType ? HV(H_SRAM_AGG_PARITY) + HV(H_SRAM_AGG_SECDED) : HV(H_SRAM_AGG_COR)));
    else return NVML_ERROR_NOT_SUPPORTED;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTotalEccErrors(fake_gpu *device, int errorType, int counterType, unsigned long long *count) {
    CHECK(device, count);
    if (errorType < 0 || errorType > 1 || counterType < 0 || counterType > 1) return NVML_ERROR_INVALID_ARGUMENT;
    *count = (unsigned long long) HV(H_VOL_TOTAL_COR + counterType * 2 + errorType);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRetiredPages(fake_gpu *device, int cause, unsigned int *pageCount, unsigned long long *addresses) {
    CHECK(device, pageCount);
    if (cause < 0 || cause > 1) return NVML_ERROR_INVALID_ARGUMENT;
    if (HV(H_RETIRED_RESULT) != NVML_SUCCESS) return (nvmlReturn_t) HV(H_RETIRED_RESULT);
    unsigned int n = (unsigned int) HV(cause == 0 ? H_RETIRED_SBE : H_RETIRED_DBE), room = *pageCount;
    *pageCount = n;
    if (room < n) return NVML_ERROR_INSUFFICIENT_SIZE;
    for (unsigned int i = 0; i < n && addresses != NULL; i++) addresses[i] = 0x1000ULL * (i + 1);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(fake_gpu *device, nvmlEnableState_t *isPending) {
    CHECK(device, isPending);
    if (HV(H_RETIRED_PENDING_RESULT) != NVML_SUCCESS) return (nvmlReturn_t) HV(H_RETIRED_PENDING_RESULT);
    *isPending = HV(H_RETIRED_PENDING) ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRemappedRows(fake_gpu *device, unsigned int *corrRows, unsigned int *uncRows,
                                              unsigned int *isPending, unsigned int *failureOccurred) {
    CHECK(device, corrRows);
    if (uncRows == NULL || isPending == NULL || failureOccurred == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *corrRows = (unsigned int) HV(H_ROWS_COR);
    *uncRows = (unsigned int) HV(H_ROWS_UNC);
    *isPending = (unsigned int) HV(H_ROWS_PENDING);
    *failureOccurred = (unsigned int) HV(H_ROWS_FAILURE);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRowRemapperHistogram(fake_gpu *device, nvmlRowRemapperHistogramValues_t *values) {
    CHECK(device, values);
    values->max = (unsigned int) HV(H_HIST_MAX);
    values->high = (unsigned int) HV(H_HIST_HIGH);
    values->partial = (unsigned int) HV(H_HIST_PARTIAL);
    values->low = (unsigned int) HV(H_HIST_LOW);
    values->none = (unsigned int) HV(H_HIST_NONE);
    return NVML_SUCCESS;
}

UINT_GETTER(nvmlDeviceGetPcieReplayCounter, (unsigned int) device->health[H_REPLAYS])
UINT_GETTER(nvmlDeviceGetComputeMode, (unsigned int) device->health[H_COMPUTE_MODE])
UINT_GETTER(nvmlDeviceGetPerformanceState, (unsigned int) device->health[H_PSTATE])

EXPORT nvmlReturn_t nvmlDeviceGetSupportedClocksEventReasons(fake_gpu *device, unsigned long long *reasons) {
    CHECK(device, reasons);
    *reasons = (unsigned long long) HV(H_SUPPORTED_REASONS);
    return NVML_SUCCESS;
}

/* deprecated in 13.0 but in every variant, as in the 580 driver */
EXPORT nvmlReturn_t nvmlDeviceGetTemperature(fake_gpu *device, unsigned int sensorType, unsigned int *temp) {
    CHECK(device, temp);
    if (sensorType != 0) return NVML_ERROR_INVALID_ARGUMENT;
    *temp = (unsigned int) HV(H_GPU_TEMP);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTemperatureThreshold(fake_gpu *device, unsigned int threshold, unsigned int *temp) {
    CHECK(device, temp);
    /* 0 shutdown, 1 slowdown, 2 memory max, 3 GPU max; the H100 says NOT_SUPPORTED for 4-7 */
    static const int keys[4] = {H_SHUTDOWN_TEMP, H_SLOWDOWN_TEMP, H_MEM_MAX_TEMP, H_GPU_MAX_TEMP};
    if (threshold > 7) return NVML_ERROR_INVALID_ARGUMENT;
    if (threshold > 3) return NVML_ERROR_NOT_SUPPORTED;
    *temp = (unsigned int) HV(keys[threshold]);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(fake_gpu *device, unsigned int link, unsigned int counter,
                                                    unsigned long long *value) {
    CHECK(device, value);
    if (device->nvlinkResult != NVML_SUCCESS) return device->nvlinkResult;
    if (link >= device->nvlinks || counter > 4) return NVML_ERROR_INVALID_ARGUMENT;
    if (device->nvlinkVersion >= NVML_NVLINK_VERSION_5_0 || counter == 4) return NVML_ERROR_NOT_SUPPORTED;
    *value = (unsigned long long) HV(H_NVLINK_REPLAY + (int) counter);
    return NVML_SUCCESS;
}

/* the calls a driver older than 580 lacks: the OLD variant leaves them out ("driver too old") */
#ifndef FAKE_NVML_OLD
EXPORT nvmlReturn_t nvmlDeviceGetSramEccErrorStatus(fake_gpu *device, nvmlEccSramErrorStatus_v1_t *status) {
    CHECK(device, status);
    if (status->version != FAKE_STRUCT_VERSION(nvmlEccSramErrorStatus_v1_t, 1)) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    status->aggregateUncParity = (unsigned long long) HV(H_SRAM_AGG_PARITY);
    status->aggregateUncSecDed = (unsigned long long) HV(H_SRAM_AGG_SECDED);
    status->aggregateCor = (unsigned long long) HV(H_SRAM_AGG_COR);
    status->volatileUncParity = (unsigned long long) HV(H_SRAM_VOL_PARITY);
    status->volatileUncSecDed = (unsigned long long) HV(H_SRAM_VOL_SECDED);
    status->volatileCor = (unsigned long long) HV(H_SRAM_VOL_COR);
    status->aggregateUncBucketL2 = (unsigned long long) HV(H_SRAM_L2);
    status->aggregateUncBucketSm = (unsigned long long) HV(H_SRAM_SM);
    status->aggregateUncBucketPcie = (unsigned long long) HV(H_SRAM_PCIE);
    status->aggregateUncBucketMcu = (unsigned long long) HV(H_SRAM_MCU);
    status->aggregateUncBucketOther = (unsigned long long) HV(H_SRAM_OTHER);
    status->bThresholdExceeded = (unsigned int) HV(H_SRAM_THRESHOLD);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRemappedRows_v2(fake_gpu *device, nvmlRemappedRowsInfo_v2_t *info) {
    CHECK(device, info);
    info->corrActiveRemaps = (unsigned int) HV(H_ROWS_COR);
    info->uncActiveRemaps = (unsigned int) HV(H_ROWS_UNC);
    info->corrInactiveRemaps = (unsigned int) HV(H_ROWS_COR_INACTIVE);
    info->uncInactiveRemaps = (unsigned int) HV(H_ROWS_UNC_INACTIVE);
    info->bPending = (unsigned int) HV(H_ROWS_PENDING);
    info->bFailureOccurred = (unsigned int) HV(H_ROWS_FAILURE);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRepairStatus(fake_gpu *device, nvmlRepairStatus_v1_t *status) {
    CHECK(device, status);
    if (status->version != FAKE_STRUCT_VERSION(nvmlRepairStatus_v1_t, 1)) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    status->bChannelRepairPending = (unsigned int) HV(H_REPAIR_CHANNEL);
    status->bTpcRepairPending = (unsigned int) HV(H_REPAIR_TPC);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetUnrepairableMemoryFlag_v1(fake_gpu *device, nvmlUnrepairableMemoryStatus_v1_t *status) {
    CHECK(device, status);
    status->bUnrepairableMemory = (unsigned int) HV(H_UNREPAIRABLE);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTemperatureV(fake_gpu *device, nvmlTemperature_v1_t *temperature) {
    CHECK(device, temperature);
    if (temperature->version != FAKE_STRUCT_VERSION(nvmlTemperature_v1_t, 1)) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    if (temperature->sensorType != 0) return NVML_ERROR_INVALID_ARGUMENT;
    temperature->temperature = (int) HV(H_GPU_TEMP);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMarginTemperature(fake_gpu *device, nvmlMarginTemperature_v1_t *margin) {
    CHECK(device, margin);
    if (margin->version != FAKE_STRUCT_VERSION(nvmlMarginTemperature_v1_t, 1)) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    margin->marginTemperature = (int) HV(H_MARGIN);
    return NVML_SUCCESS;
}
#endif
