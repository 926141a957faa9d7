package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE;
import static hostside.gpu.nvml.NvmlTypes.NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE;
import static hostside.gpu.nvml.NvmlTypes.NVML_GPU_FABRIC_UUID_LEN;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.List;

/**
 * The structs of nvml.h that hostside hands to the driver, as layouts: the C names, so each can be
 * found in the header and NvmlLayoutsTest can check it against what gcc says
 * (src/test/resources/nvml/layouts.txt). A wrong layout does not throw: the driver writes past the
 * buffer and the JVM dies, which is why nothing is written from memory. The enum values, field ids
 * and buffer sizes are {@link NvmlTypes}'.
 *
 * <p>Types on LP64 Linux: enums and unsigned int are 4 bytes (JAVA_INT), unsigned long and
 * unsigned long long 8 (JAVA_LONG), nvmlDevice_t a pointer (ADDRESS).
 */
public final class NvmlStructs {
    private NvmlStructs() {}

    private static MemoryLayout chars(String name, int n) {
        return MemoryLayout.sequenceLayout(n, JAVA_BYTE).withName(name);
    }

    /** nvmlPciInfo_t, what nvmlDeviceGetPciInfo_v3 and nvmlDeviceGetNvLinkRemotePciInfo_v2 fill (no version field). */
    public static final StructLayout nvmlPciInfo_t = MemoryLayout.structLayout(
            chars("busIdLegacy", NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE),
            JAVA_INT.withName("domain"),
            JAVA_INT.withName("bus"),
            JAVA_INT.withName("device"),
            JAVA_INT.withName("pciDeviceId"),
            JAVA_INT.withName("pciSubSystemId"),
            chars("busId", NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE))
            .withName("nvmlPciInfo_t");

    /** nvmlMemory_t (v1, unversioned): nvmlDeviceGetMemoryInfo. */
    public static final StructLayout nvmlMemory_t = MemoryLayout.structLayout(
            JAVA_LONG.withName("total"),
            JAVA_LONG.withName("free"),
            JAVA_LONG.withName("used"))
            .withName("nvmlMemory_t");

    /**
     * nvmlMemory_v2_t: nvmlDeviceGetMemoryInfo_v2. Its {@code used} leaves out {@code reserved}
     * (what the driver and firmware set aside), as nvidia-smi's "Used" does; v1's {@code used}
     * counts it (616 MiB on the H200 with nothing running).
     */
    public static final StructLayout nvmlMemory_v2_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("total"),
            JAVA_LONG.withName("reserved"),
            JAVA_LONG.withName("free"),
            JAVA_LONG.withName("used"))
            .withName("nvmlMemory_v2_t");

    /** nvmlGpuFabricInfo_t: the unversioned struct of the old nvmlDeviceGetGpuFabricInfo. */
    public static final StructLayout nvmlGpuFabricInfo_t = MemoryLayout.structLayout(
            chars("clusterUuid", NVML_GPU_FABRIC_UUID_LEN),
            JAVA_INT.withName("status"),
            JAVA_INT.withName("cliqueId"),
            JAVA_BYTE.withName("state"),
            MemoryLayout.paddingLayout(3))
            .withName("nvmlGpuFabricInfo_t");

    /** nvmlGpuFabricInfo_v2_t: drivers that predate v3 accept this one through nvmlDeviceGetGpuFabricInfoV. */
    public static final StructLayout nvmlGpuFabricInfo_v2_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            chars("clusterUuid", NVML_GPU_FABRIC_UUID_LEN),
            JAVA_INT.withName("status"),
            JAVA_INT.withName("cliqueId"),
            JAVA_BYTE.withName("state"),
            MemoryLayout.paddingLayout(3),
            JAVA_INT.withName("healthMask"))
            .withName("nvmlGpuFabricInfo_v2_t");

    /** nvmlGpuFabricInfo_v3_t (= nvmlGpuFabricInfoV_t in this header): adds healthSummary. */
    public static final StructLayout nvmlGpuFabricInfo_v3_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            chars("clusterUuid", NVML_GPU_FABRIC_UUID_LEN),
            JAVA_INT.withName("status"),
            JAVA_INT.withName("cliqueId"),
            JAVA_BYTE.withName("state"),
            MemoryLayout.paddingLayout(3),
            JAVA_INT.withName("healthMask"),
            JAVA_BYTE.withName("healthSummary"),
            MemoryLayout.paddingLayout(3))
            .withName("nvmlGpuFabricInfo_v3_t");

    /** nvmlDeviceAddressingMode_v1_t: nvmlDeviceGetAddressingMode, driver 580+. */
    public static final StructLayout nvmlDeviceAddressingMode_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            JAVA_INT.withName("value"))
            .withName("nvmlDeviceAddressingMode_v1_t");

    /** nvmlUtilization_t: nvmlDeviceGetUtilizationRates, percent of the driver's last sample period. */
    public static final StructLayout nvmlUtilization_t = MemoryLayout.structLayout(
            JAVA_INT.withName("gpu"),
            JAVA_INT.withName("memory"))
            .withName("nvmlUtilization_t");

    /** nvmlProcessInfo_v2_t (= nvmlProcessInfo_t): one entry of nvmlDeviceGetComputeRunningProcesses_v3. */
    public static final StructLayout nvmlProcessInfo_v2_t = MemoryLayout.structLayout(
            JAVA_INT.withName("pid"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("usedGpuMemory"),
            JAVA_INT.withName("gpuInstanceId"),
            JAVA_INT.withName("computeInstanceId"))
            .withName("nvmlProcessInfo_v2_t");

    /**
     * nvmlPlatformInfo_v1_t: nvmlDeviceGetPlatformInfo on drivers that predate v2. The same bytes
     * as v2 under older names (rackGuid, chassisPhysicalSlotNumber, computeSlotIndex, nodeIndex);
     * the header writes its arrays as [16] with no named constant.
     */
    public static final StructLayout nvmlPlatformInfo_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            chars("ibGuid", 16),
            chars("rackGuid", 16),
            JAVA_BYTE.withName("chassisPhysicalSlotNumber"),
            JAVA_BYTE.withName("computeSlotIndex"),
            JAVA_BYTE.withName("nodeIndex"),
            JAVA_BYTE.withName("peerType"),
            JAVA_BYTE.withName("moduleId"),
            MemoryLayout.paddingLayout(3))
            .withName("nvmlPlatformInfo_v1_t");

    /**
     * nvmlPlatformInfo_v2_t (= nvmlPlatformInfo_t): where a GPU sits in an NVLink rack (Blackwell
     * and newer). chassisSerialNumber identifies hardware: the reader keeps only a hash of it.
     */
    public static final StructLayout nvmlPlatformInfo_v2_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            chars("ibGuid", 16),
            chars("chassisSerialNumber", 16),
            JAVA_BYTE.withName("slotNumber"),
            JAVA_BYTE.withName("trayIndex"),
            JAVA_BYTE.withName("hostId"),
            JAVA_BYTE.withName("peerType"),
            JAVA_BYTE.withName("moduleId"),
            MemoryLayout.paddingLayout(3))
            .withName("nvmlPlatformInfo_v2_t");

    /** nvmlC2cModeInfo_v1_t: nvmlDeviceGetC2cModeInfoV. The header gives it no version field. */
    public static final StructLayout nvmlC2cModeInfo_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("isC2cEnabled"))
            .withName("nvmlC2cModeInfo_v1_t");

    /**
     * nvmlFieldValue_t: one request and answer of nvmlDeviceGetFieldValues. {@code value} is the
     * union nvmlValue_t (double, unsigned int, unsigned long, unsigned long long, signed long long:
     * 8 bytes, 8-aligned), read by {@code valueType}.
     */
    public static final StructLayout nvmlFieldValue_t = MemoryLayout.structLayout(
            JAVA_INT.withName("fieldId"),
            JAVA_INT.withName("scopeId"),
            JAVA_LONG.withName("timestamp"),
            JAVA_LONG.withName("latencyUsec"),
            JAVA_INT.withName("valueType"),
            JAVA_INT.withName("nvmlReturn"),
            JAVA_LONG.withName("value"))
            .withName("nvmlFieldValue_t");

    /**
     * nvmlEccSramErrorStatus_v1_t (= nvmlEccSramErrorStatus_t): nvmlDeviceGetSramEccErrorStatus,
     * 104 bytes as the H100 probe's call confirmed (health.md section 1).
     */
    public static final StructLayout nvmlEccSramErrorStatus_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("aggregateUncParity"),
            JAVA_LONG.withName("aggregateUncSecDed"),
            JAVA_LONG.withName("aggregateCor"),
            JAVA_LONG.withName("volatileUncParity"),
            JAVA_LONG.withName("volatileUncSecDed"),
            JAVA_LONG.withName("volatileCor"),
            JAVA_LONG.withName("aggregateUncBucketL2"),
            JAVA_LONG.withName("aggregateUncBucketSm"),
            JAVA_LONG.withName("aggregateUncBucketPcie"),
            JAVA_LONG.withName("aggregateUncBucketMcu"),
            JAVA_LONG.withName("aggregateUncBucketOther"),
            JAVA_INT.withName("bThresholdExceeded"),
            MemoryLayout.paddingLayout(4))
            .withName("nvmlEccSramErrorStatus_v1_t");

    /**
     * nvmlRemappedRowsInfo_v2_t: nvmlDeviceGetRemappedRows_v2. It carries no version word
     * (docs.nvidia.com/deploy/nvml-api/api/structnvmlRemappedRowsInfo__v2__t.html lists none).
     */
    public static final StructLayout nvmlRemappedRowsInfo_v2_t = MemoryLayout.structLayout(
            JAVA_INT.withName("corrActiveRemaps"),
            JAVA_INT.withName("corrInactiveRemaps"),
            JAVA_INT.withName("uncActiveRemaps"),
            JAVA_INT.withName("uncInactiveRemaps"),
            JAVA_INT.withName("bPending"),
            JAVA_INT.withName("bFailureOccurred"))
            .withName("nvmlRemappedRowsInfo_v2_t");

    /** nvmlRowRemapperHistogramValues_t: banks by the spare rows they have left. */
    public static final StructLayout nvmlRowRemapperHistogramValues_t = MemoryLayout.structLayout(
            JAVA_INT.withName("max"),
            JAVA_INT.withName("high"),
            JAVA_INT.withName("partial"),
            JAVA_INT.withName("low"),
            JAVA_INT.withName("none"))
            .withName("nvmlRowRemapperHistogramValues_t");

    /** nvmlRepairStatus_v1_t (= nvmlRepairStatus_t): nvmlDeviceGetRepairStatus. */
    public static final StructLayout nvmlRepairStatus_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            JAVA_INT.withName("bChannelRepairPending"),
            JAVA_INT.withName("bTpcRepairPending"))
            .withName("nvmlRepairStatus_v1_t");

    /** nvmlUnrepairableMemoryStatus_v1_t: nvmlDeviceGetUnrepairableMemoryFlag_v1; no version word. */
    public static final StructLayout nvmlUnrepairableMemoryStatus_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("bUnrepairableMemory"))
            .withName("nvmlUnrepairableMemoryStatus_v1_t");

    /** nvmlTemperature_v1_t (= nvmlTemperature_t): nvmlDeviceGetTemperatureV; sensorType goes in. */
    public static final StructLayout nvmlTemperature_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            JAVA_INT.withName("sensorType"),
            JAVA_INT.withName("temperature"))
            .withName("nvmlTemperature_v1_t");

    /** nvmlMarginTemperature_v1_t (= nvmlMarginTemperature_t): the distance to the nearest slowdown threshold. */
    public static final StructLayout nvmlMarginTemperature_v1_t = MemoryLayout.structLayout(
            JAVA_INT.withName("version"),
            JAVA_INT.withName("marginTemperature"))
            .withName("nvmlMarginTemperature_v1_t");

    public static final List<StructLayout> STRUCTS = List.of(nvmlPciInfo_t, nvmlMemory_t, nvmlMemory_v2_t, nvmlGpuFabricInfo_t,
            nvmlGpuFabricInfo_v2_t, nvmlGpuFabricInfo_v3_t, nvmlDeviceAddressingMode_v1_t, nvmlUtilization_t, nvmlProcessInfo_v2_t,
            nvmlPlatformInfo_v1_t, nvmlPlatformInfo_v2_t, nvmlC2cModeInfo_v1_t, nvmlFieldValue_t, nvmlEccSramErrorStatus_v1_t,
            nvmlRemappedRowsInfo_v2_t, nvmlRowRemapperHistogramValues_t, nvmlRepairStatus_v1_t, nvmlUnrepairableMemoryStatus_v1_t,
            nvmlTemperature_v1_t, nvmlMarginTemperature_v1_t);

    /**
     * The version word a versioned struct must carry (NVML_STRUCT_VERSION in nvml.h:
     * sizeof | version << 24). The size comes from the layout, so the word can never
     * disagree with the buffer handed to the driver.
     */
    public static int structVersion(StructLayout layout, int version) {
        return (int) layout.byteSize() | (version << 24);
    }

    public static long offset(StructLayout layout, String field) {
        return layout.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }
}
