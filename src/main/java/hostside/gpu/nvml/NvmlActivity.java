package hostside.gpu.nvml;

import java.util.Locale;
import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlStructs.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * What one GPU is doing at one moment: the readings that change from second to second, where
 * {@link NvmlGpu} holds what stays. Each field NVML cannot give is null with a line in
 * {@code unknowns}, as in NvmlGpu.
 *
 * @param utilGpuPercent       share of the driver's last sample period with a kernel running
 * @param utilMemoryPercent    share of it with device memory being read or written
 * @param memoryUsedBytes      what processes hold, as nvidia-smi's "Used" (the driver's reserve left
 *                             out where the driver has nvmlDeviceGetMemoryInfo_v2)
 * @param powerMilliwatts      nvmlDeviceGetPowerUsage (a one-second average on Ampere and newer)
 * @param powerLimitMilliwatts the limit the GPU obeys now (nvmlDeviceGetEnforcedPowerLimit)
 * @param clocksEventReasons   the nvmlClocksEventReason* bits holding the clocks down now
 * @param pcieTxKBps           what the GPU sent over PCIe, KB/s over NVML's 20 ms window; null
 *                             when not asked this time (each counter costs that window)
 * @param pcieRxKBps           what it received, the same way
 * @param processes            the processes with a compute context on it (the CUDA contexts)
 */
public record NvmlActivity(
        int index,
        Integer utilGpuPercent,
        Integer utilMemoryPercent,
        Long memoryUsedBytes,
        Long memoryTotalBytes,
        Integer powerMilliwatts,
        Integer powerLimitMilliwatts,
        Integer smClockMhz,
        Integer smClockMaxMhz,
        Long clocksEventReasons,
        Integer pcieTxKBps,
        Integer pcieRxKBps,
        List<ComputeProcess> processes,
        List<String> unknowns) {

    public NvmlActivity {
        processes = processes == null ? null : List.copyOf(processes);
        unknowns = List.copyOf(unknowns);
    }

    /** One compute process; {@code usedGpuMemoryBytes} is null where NVML has no figure (NVML_VALUE_NOT_AVAILABLE). */
    public record ComputeProcess(long pid, Long usedGpuMemoryBytes) {}

    /** Which PCIe counters to read: each one holds the caller for NVML's 20 ms window. */
    public enum Pcie { NONE, TX, RX, BOTH }

    /**
     * Bounded retries of the process list: processes can start between the call that counts
     * them and the call that lists them.
     */
    static final int PROCESS_LIST_TRIES = 4;
    /** Room for processes that start between the two calls. */
    static final int PROCESS_LIST_SLACK = 8;

    /** Reads GPU {@code index} through an open binding. */
    public static NvmlActivity read(Nvml nvml, MemorySegment dev, int index, Pcie pcie) {
        NvmlReader.Unknowns u = new NvmlReader.Unknowns();
        int[] util = u.get("utilization", () -> utilization(nvml, dev));
        long[] mem = u.get("memory", () -> memory(nvml, dev));
        Integer power = u.get("powerMilliwatts", () -> nvml.getInt(DEVICE_GET_POWER_USAGE, dev));
        Integer limit = u.get("powerLimitMilliwatts", () -> nvml.getInt(DEVICE_GET_ENFORCED_POWER_LIMIT, dev));
        Integer sm = u.get("smClockMhz", () -> nvml.getInt(DEVICE_GET_CLOCK_INFO, dev, NVML_CLOCK_SM));
        Integer smMax = u.get("smClockMaxMhz", () -> nvml.getInt(DEVICE_GET_MAX_CLOCK_INFO, dev, NVML_CLOCK_SM));
        Long reasons = u.get("clocksEventReasons", () -> clocksEventReasons(nvml, dev));
        Integer tx = pcie == Pcie.TX || pcie == Pcie.BOTH
                ? u.get("pcieTxKBps", () -> nvml.getInt(DEVICE_GET_PCIE_THROUGHPUT, dev, NVML_PCIE_UTIL_TX_BYTES)) : null;
        Integer rx = pcie == Pcie.RX || pcie == Pcie.BOTH
                ? u.get("pcieRxKBps", () -> nvml.getInt(DEVICE_GET_PCIE_THROUGHPUT, dev, NVML_PCIE_UTIL_RX_BYTES)) : null;
        List<ComputeProcess> procs = u.get("processes", () -> computeProcesses(nvml, dev));
        return new NvmlActivity(index, util == null ? null : util[0], util == null ? null : util[1],
                mem == null ? null : mem[1], mem == null ? null : mem[0], power, limit, sm, smMax, reasons, tx, rx, procs, u.list);
    }

    private static NvmlResult<int[]> utilization(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlUtilization_t);
            return nvml.query(DEVICE_GET_UTILIZATION_RATES, () -> new int[] {
                    s.get(JAVA_INT, offset(nvmlUtilization_t, "gpu")), s.get(JAVA_INT, offset(nvmlUtilization_t, "memory"))}, dev, s);
        }
    }

    /**
     * {total, used} in bytes, used as nvidia-smi's "Used": v2 where the driver has it (R510 and
     * newer); v1's used, on older drivers, also counts the memory the driver reserves.
     */
    private static NvmlResult<long[]> memory(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            if (nvml.has(DEVICE_GET_MEMORY_INFO_V2)) {
                MemorySegment m = arena.allocate(nvmlMemory_v2_t);
                m.set(JAVA_INT, offset(nvmlMemory_v2_t, "version"), structVersion(nvmlMemory_v2_t, 2));
                return nvml.query(DEVICE_GET_MEMORY_INFO_V2, () -> new long[] {
                        m.get(JAVA_LONG, offset(nvmlMemory_v2_t, "total")), m.get(JAVA_LONG, offset(nvmlMemory_v2_t, "used"))}, dev, m);
            }
            MemorySegment m = arena.allocate(nvmlMemory_t);
            return nvml.query(DEVICE_GET_MEMORY_INFO, () -> new long[] {
                    m.get(JAVA_LONG, offset(nvmlMemory_t, "total")), m.get(JAVA_LONG, offset(nvmlMemory_t, "used"))}, dev, m);
        }
    }

    /** The 535+ name first; drivers before it export only the "Throttle" one, with the same bits. */
    static NvmlResult<Long> clocksEventReasons(Nvml nvml, MemorySegment dev) {
        NvmlFunction f = nvml.has(DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS) || !nvml.has(DEVICE_GET_CURRENT_CLOCKS_THROTTLE_REASONS)
                ? DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS : DEVICE_GET_CURRENT_CLOCKS_THROTTLE_REASONS;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            return nvml.query(f, () -> out.get(JAVA_LONG, 0), dev, out);
        }
    }

    /**
     * nvml.h's two-step: a count of 0 (infos may be NULL) answers INSUFFICIENT_SIZE with the
     * count, or SUCCESS when none runs; then a buffer that large, with room for late arrivals.
     */
    static NvmlResult<List<ComputeProcess>> computeProcesses(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, 0);
            int rc = nvml.call(DEVICE_GET_COMPUTE_RUNNING_PROCESSES_V3, dev, count, MemorySegment.NULL);
            for (int attempt = 0; attempt < PROCESS_LIST_TRIES && rc == NVML_ERROR_INSUFFICIENT_SIZE; attempt++) {
                int room = count.get(JAVA_INT, 0) + PROCESS_LIST_SLACK;
                MemorySegment infos = arena.allocate(nvmlProcessInfo_v2_t, room);
                count.set(JAVA_INT, 0, room);
                rc = nvml.call(DEVICE_GET_COMPUTE_RUNNING_PROCESSES_V3, dev, count, infos);
                if (rc == NVML_SUCCESS) {
                    int n = Math.min(count.get(JAVA_INT, 0), room);
                    return NvmlResult.of(processes(infos, n));
                }
            }
            return nvml.result(DEVICE_GET_COMPUTE_RUNNING_PROCESSES_V3, rc, List::of);
        }
    }

    private static List<ComputeProcess> processes(MemorySegment infos, int n) {
        List<ComputeProcess> out = new ArrayList<>();
        long size = nvmlProcessInfo_v2_t.byteSize();
        for (int i = 0; i < n; i++) {
            long pid = Integer.toUnsignedLong(infos.get(JAVA_INT, i * size + offset(nvmlProcessInfo_v2_t, "pid")));
            long used = infos.get(JAVA_LONG, i * size + offset(nvmlProcessInfo_v2_t, "usedGpuMemory"));
            out.add(new ComputeProcess(pid, used == NVML_VALUE_NOT_AVAILABLE ? null : used));
        }
        return out;
    }

    /** The reasons set in {@code bits}, in nvml.h's words; "none" for 0. GpuIdle is not a limit, only the GPU resting. */
    public static List<String> reasonNames(long bits) {
        List<String> names = new ArrayList<>();
        if ((bits & nvmlClocksEventReasonGpuIdle) != 0) names.add("idle");
        if ((bits & nvmlClocksEventReasonApplicationsClocksSetting) != 0) names.add("application clocks");
        if ((bits & nvmlClocksEventReasonSwPowerCap) != 0) names.add("power cap");
        if ((bits & nvmlClocksThrottleReasonHwSlowdown) != 0) names.add("HW slowdown");
        if ((bits & nvmlClocksEventReasonSyncBoost) != 0) names.add("sync boost");
        if ((bits & nvmlClocksEventReasonSwThermalSlowdown) != 0) names.add("SW thermal slowdown");
        if ((bits & nvmlClocksThrottleReasonHwThermalSlowdown) != 0) names.add("HW thermal slowdown");
        if ((bits & nvmlClocksThrottleReasonHwPowerBrakeSlowdown) != 0) names.add("HW power brake");
        if ((bits & nvmlClocksEventReasonDisplayClockSetting) != 0) names.add("display clocks");
        long known = 0x1FFL;
        if ((bits & ~known) != 0) names.add(String.format(Locale.ROOT, "bits 0x%x", bits & ~known));
        return names;
    }
}
