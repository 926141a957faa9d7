package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlStructs.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

import hostside.gpu.nvml.GpuHealth.EccCounts;
import hostside.gpu.nvml.GpuHealth.Memory;
import hostside.gpu.nvml.GpuHealth.RemapHistogram;
import hostside.gpu.nvml.GpuHealth.RemappedRows;
import hostside.gpu.nvml.GpuHealth.RetiredPages;
import hostside.gpu.nvml.GpuHealth.SramSources;

/**
 * {@link GpuHealth.Memory} of one GPU, call by call as health.md section 1 lists them (each value
 * is the one nvidia-smi -q prints, by its "nvidia-smi -q field -> NVML" mapping).
 */
final class MemoryHealthReader {
    private final HealthCalls calls;
    private final FieldBatch.Ask corInactive;
    private final FieldBatch.Ask uncInactive;

    /** Asks the fields the v1 remapped-rows fallback needs; they are taken only when it runs. */
    MemoryHealthReader(HealthCalls calls, FieldBatch batch) {
        this.calls = calls;
        this.corInactive = batch.ask("memory.remappedRows.correctableInactive", NVML_FI_DEV_REMAPPED_COR_INACTIVE, 0,
                NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
        this.uncInactive = batch.ask("memory.remappedRows.uncorrectableInactive", NVML_FI_DEV_REMAPPED_UNC_INACTIVE, 0,
                NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
    }

    Memory read(FieldBatch batch) {
        int[] ecc = calls.int32s("memory.eccEnabled", DEVICE_GET_ECC_MODE, 2);
        long[] sram = sramStatus();
        EccCounts vol = counts("memory.volatileErrors", NVML_VOLATILE_ECC, sram, S_VOLATILE);
        EccCounts agg = counts("memory.aggregateErrors", NVML_AGGREGATE_ECC, sram, S_AGGREGATE);
        SramSources sources = sram == null ? null
                : new SramSources(sram[S_BUCKET_L2], sram[S_BUCKET_SM], sram[S_BUCKET_MCU], sram[S_BUCKET_PCIE], sram[S_BUCKET_OTHER]);
        Boolean threshold = sram == null ? null : sram[S_THRESHOLD] != 0;
        int[] repair = repairStatus();
        Integer unrepairable = unrepairable();
        RetiredPages retired = retiredPages();
        RemappedRows rows = remappedRows(batch);
        RemapHistogram histogram = histogram();
        return group(new Memory(ecc == null ? null : ecc[0] == NVML_FEATURE_ENABLED, ecc == null ? null : ecc[1] == NVML_FEATURE_ENABLED,
                        vol, agg, threshold, sources,
                        repair == null ? null : repair[0] != 0, repair == null ? null : repair[1] != 0,
                        unrepairable == null ? null : unrepairable != 0, retired, rows, histogram),
                ecc, vol, agg, threshold, sources, repair, unrepairable, retired, rows, histogram);
    }

    // nvmlEccSramErrorStatus_v1_t's members in order after the version word, then the threshold flag
    private static final String[] SRAM_MEMBERS = {"aggregateUncParity", "aggregateUncSecDed", "aggregateCor", "volatileUncParity",
            "volatileUncSecDed", "volatileCor", "aggregateUncBucketL2", "aggregateUncBucketSm", "aggregateUncBucketPcie",
            "aggregateUncBucketMcu", "aggregateUncBucketOther"};
    /** where the aggregate and the volatile triple (UncParity, UncSecDed, Cor) start */
    private static final int S_AGGREGATE = 0, S_VOLATILE = 3, S_BUCKET_L2 = 6, S_BUCKET_SM = 7, S_BUCKET_PCIE = 8,
            S_BUCKET_MCU = 9, S_BUCKET_OTHER = 10, S_THRESHOLD = 11;

    /**
     * nvmlDeviceGetSramEccErrorStatus: the members above, the threshold flag last; null when not given. Its header says "Requires root/admin",
     * the H100 answered it as uid 65534 too (health.md).
     */
    private long[] sramStatus() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlEccSramErrorStatus_v1_t);
            s.set(JAVA_INT, offset(nvmlEccSramErrorStatus_v1_t, "version"), structVersion(nvmlEccSramErrorStatus_v1_t, 1));
            if (!calls.call("memory.sram", DEVICE_GET_SRAM_ECC_ERROR_STATUS, calls.dev, s)) return null;
            long[] out = new long[SRAM_MEMBERS.length + 1];
            for (int i = 0; i < SRAM_MEMBERS.length; i++) out[i] = s.get(JAVA_LONG, offset(nvmlEccSramErrorStatus_v1_t, SRAM_MEMBERS[i]));
            out[S_THRESHOLD] = Integer.toUnsignedLong(s.get(JAVA_INT, offset(nvmlEccSramErrorStatus_v1_t, "bThresholdExceeded")));
            return out;
        }
    }

    /**
     * One counter type's counts: DRAM by nvmlDeviceGetMemoryErrorCounter, SRAM from the status
     * struct's triple at {@code base}, totals by nvmlDeviceGetTotalEccErrors.
     */
    private EccCounts counts(String at, int counter, long[] sram, int base) {
        Long dramCor = calls.uint64(at + ".dramCorrected", DEVICE_GET_MEMORY_ERROR_COUNTER,
                NVML_MEMORY_ERROR_TYPE_CORRECTED, counter, NVML_MEMORY_LOCATION_DRAM);
        Long dramUnc = calls.uint64(at + ".dramUncorrected", DEVICE_GET_MEMORY_ERROR_COUNTER,
                NVML_MEMORY_ERROR_TYPE_UNCORRECTED, counter, NVML_MEMORY_LOCATION_DRAM);
        Long totalCor = calls.uint64(at + ".totalCorrected", DEVICE_GET_TOTAL_ECC_ERRORS, NVML_MEMORY_ERROR_TYPE_CORRECTED, counter);
        Long totalUnc = calls.uint64(at + ".totalUncorrected", DEVICE_GET_TOTAL_ECC_ERRORS, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, counter);
        Long sramCor = sram == null ? null : sram[base + 2];
        Long sramParity = sram == null ? null : sram[base];
        Long sramSecDed = sram == null ? null : sram[base + 1];
        return group(new EccCounts(dramCor, dramUnc, sramCor, sramParity, sramSecDed, totalCor, totalUnc),
                dramCor, dramUnc, sramCor, sramParity, sramSecDed, totalCor, totalUnc);
    }

    /** nvmlRepairStatus_v1_t: {channel, tpc} pending, or null. */
    private int[] repairStatus() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlRepairStatus_v1_t);
            s.set(JAVA_INT, offset(nvmlRepairStatus_v1_t, "version"), structVersion(nvmlRepairStatus_v1_t, 1));
            if (!calls.call("memory.repairPending", DEVICE_GET_REPAIR_STATUS, calls.dev, s)) return null;
            return new int[] {s.get(JAVA_INT, offset(nvmlRepairStatus_v1_t, "bChannelRepairPending")),
                    s.get(JAVA_INT, offset(nvmlRepairStatus_v1_t, "bTpcRepairPending"))};
        }
    }

    private Integer unrepairable() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlUnrepairableMemoryStatus_v1_t);
            if (!calls.call("memory.unrepairable", DEVICE_GET_UNREPAIRABLE_MEMORY_FLAG_V1, calls.dev, s)) return null;
            return s.get(JAVA_INT, offset(nvmlUnrepairableMemoryStatus_v1_t, "bUnrepairableMemory"));
        }
    }

    /**
     * The retired page counts: *pageCount 0 with no buffer asks the size, which NVML gives with
     * NVML_ERROR_INSUFFICIENT_SIZE (or SUCCESS when it is 0); the addresses themselves are not read.
     */
    private RetiredPages retiredPages() {
        Long single = retiredCount("memory.retiredPages.singleBit", NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS);
        Long dbl = retiredCount("memory.retiredPages.doubleBit", NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR);
        Integer pending = calls.int32("memory.retiredPages.pending", DEVICE_GET_RETIRED_PAGES_PENDING_STATUS);
        Boolean p = pending == null ? null : pending == NVML_FEATURE_ENABLED;
        return group(new RetiredPages(single, dbl, p), single, dbl, p);
    }

    private Long retiredCount(String field, int cause) {
        if (calls.stopped()) return null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, 0);
            int rc = calls.nvml.call(DEVICE_GET_RETIRED_PAGES, calls.dev, cause, count, MemorySegment.NULL);
            if (rc == NVML_ERROR_INSUFFICIENT_SIZE) rc = NVML_SUCCESS;
            return calls.check(field, DEVICE_GET_RETIRED_PAGES, rc) ? Integer.toUnsignedLong(count.get(JAVA_INT, 0)) : null;
        }
    }

    /**
     * nvmlRemappedRowsInfo_v2_t where the library exports it; else, or when it answers
     * ARGUMENT_VERSION_MISMATCH, the v1 call and fields 301/302 for the inactive counts.
     */
    private RemappedRows remappedRows(FieldBatch batch) {
        if (calls.stopped()) return null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlRemappedRowsInfo_v2_t);
            int rc = calls.nvml.call(DEVICE_GET_REMAPPED_ROWS_V2, calls.dev, s);
            if (rc != NVML_ERROR_FUNCTION_NOT_FOUND && rc != NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
                if (!calls.check("memory.remappedRows", DEVICE_GET_REMAPPED_ROWS_V2, rc)) return null;
                int[] v = Arrays.stream(new String[] {"corrActiveRemaps", "uncActiveRemaps", "corrInactiveRemaps", "uncInactiveRemaps",
                        "bPending", "bFailureOccurred"}).mapToInt(m -> s.get(JAVA_INT, offset(nvmlRemappedRowsInfo_v2_t, m))).toArray();
                return new RemappedRows(Integer.toUnsignedLong(v[0]), Integer.toUnsignedLong(v[1]), Integer.toUnsignedLong(v[2]),
                        Integer.toUnsignedLong(v[3]), v[4] != 0, v[5] != 0);
            }
        }
        int[] v1 = calls.int32s("memory.remappedRows", DEVICE_GET_REMAPPED_ROWS, 4);
        Long corInact = batch.take(corInactive), uncInact = batch.take(uncInactive);
        if (v1 == null) return group(new RemappedRows(null, null, corInact, uncInact, null, null), corInact, uncInact);
        return new RemappedRows(Integer.toUnsignedLong(v1[0]), Integer.toUnsignedLong(v1[1]), corInact, uncInact, v1[2] != 0, v1[3] != 0);
    }

    private RemapHistogram histogram() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlRowRemapperHistogramValues_t);
            if (!calls.call("memory.remapHistogram", DEVICE_GET_ROW_REMAPPER_HISTOGRAM, calls.dev, s)) return null;
            long[] v = Arrays.stream(new String[] {"max", "high", "partial", "low", "none"})
                    .mapToLong(m -> Integer.toUnsignedLong(s.get(JAVA_INT, offset(nvmlRowRemapperHistogramValues_t, m)))).toArray();
            return new RemapHistogram(v[0], v[1], v[2], v[3], v[4]);
        }
    }

    /** The group, or null when none of its values was given (each missing one has its Unread). */
    static <T> T group(T record, Object... values) {
        return Arrays.stream(values).anyMatch(Objects::nonNull) ? record : null;
    }
}
