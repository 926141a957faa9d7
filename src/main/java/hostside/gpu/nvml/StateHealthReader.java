package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlStructs.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import hostside.gpu.nvml.FieldBatch.Ask;
import hostside.gpu.nvml.GpuHealth.ComputeMode;
import hostside.gpu.nvml.GpuHealth.RecoveryAction;
import hostside.gpu.nvml.GpuHealth.State;
import hostside.gpu.nvml.GpuHealth.ThrottleTime;

/** {@link GpuHealth.State} of one GPU (health.md section 2); its field ids go in the GPU's one batch. */
final class StateHealthReader {
    private final HealthCalls calls;
    private final Ask swPowerCap, syncBoost, swThermal, hwThermal, hwPowerBrake, memoryTemp, shutdownTLimit, slowdownTLimit,
            powerAverage, powerInstant, recovery;

    StateHealthReader(HealthCalls calls, FieldBatch batch) {
        this.calls = calls;
        // the throttle counters are unsigned long long ns; any other type under these ids is the renumbering trap
        swPowerCap = batch.ask("state.throttleTime.swPowerCapNs", NVML_FI_DEV_PERF_POLICY_POWER, 0, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
        syncBoost = batch.ask("state.throttleTime.syncBoostNs", NVML_FI_DEV_PERF_POLICY_SYNC_BOOST, 0, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
        swThermal = batch.ask("state.throttleTime.swThermalNs", NVML_FI_DEV_CLOCKS_EVENT_REASON_SW_THERM_SLOWDOWN, 0,
                NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
        hwThermal = batch.ask("state.throttleTime.hwThermalNs", NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_THERM_SLOWDOWN, 0,
                NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
        hwPowerBrake = batch.ask("state.throttleTime.hwPowerBrakeNs", NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_POWER_BRAKE_SLOWDOWN, 0,
                NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
        memoryTemp = batch.ask("state.memoryTempC", NVML_FI_DEV_MEMORY_TEMP, 0, FieldBatch.ANY_WHOLE);
        shutdownTLimit = batch.ask("state.shutdownTLimitC", NVML_FI_DEV_TEMPERATURE_SHUTDOWN_TLIMIT, 0, NVML_VALUE_TYPE_SIGNED_INT);
        slowdownTLimit = batch.ask("state.slowdownTLimitC", NVML_FI_DEV_TEMPERATURE_SLOWDOWN_TLIMIT, 0, NVML_VALUE_TYPE_SIGNED_INT);
        powerAverage = batch.ask("state.powerAverageMw", NVML_FI_DEV_POWER_AVERAGE, 0, FieldBatch.ANY_WHOLE);
        powerInstant = batch.ask("state.powerInstantMw", NVML_FI_DEV_POWER_INSTANT, 0, FieldBatch.ANY_WHOLE);
        recovery = batch.ask("state.recoveryAction", NVML_FI_DEV_GET_GPU_RECOVERY_ACTION, 0, FieldBatch.ANY_WHOLE);
    }

    State read(FieldBatch batch) {
        // the name before driver 535 where the library lacks the new one (NvmlActivity does the same)
        NvmlFunction reasonsCall = calls.nvml.has(DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS)
                ? DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS : DEVICE_GET_CURRENT_CLOCKS_THROTTLE_REASONS;
        Long reasons = calls.uint64("state.clockEventReasons", reasonsCall);
        Long supported = calls.uint64("state.supportedClockEventReasons", DEVICE_GET_SUPPORTED_CLOCKS_EVENT_REASONS);
        Long a = batch.take(swPowerCap), b = batch.take(syncBoost), c = batch.take(swThermal), d = batch.take(hwThermal),
                e = batch.take(hwPowerBrake);
        ThrottleTime throttle = MemoryHealthReader.group(new ThrottleTime(a, b, c, d, e), a, b, c, d, e);
        Integer gpuTemp = gpuTemperature();
        Integer memTemp = batch.takeInt(memoryTemp);
        Integer slowdown = calls.int32("state.slowdownTempC", DEVICE_GET_TEMPERATURE_THRESHOLD, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN);
        Integer shutdown = calls.int32("state.shutdownTempC", DEVICE_GET_TEMPERATURE_THRESHOLD, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN);
        Integer gpuMax = calls.int32("state.gpuMaxOperatingTempC", DEVICE_GET_TEMPERATURE_THRESHOLD, NVML_TEMPERATURE_THRESHOLD_GPU_MAX);
        Integer memMax = calls.int32("state.memoryMaxOperatingTempC", DEVICE_GET_TEMPERATURE_THRESHOLD, NVML_TEMPERATURE_THRESHOLD_MEM_MAX);
        Integer margin = margin();
        Integer shutdownT = batch.takeInt(shutdownTLimit), slowdownT = batch.takeInt(slowdownTLimit);
        Integer avg = batch.takeInt(powerAverage), instant = batch.takeInt(powerInstant);
        Integer limit = calls.int32("state.powerLimitMw", DEVICE_GET_ENFORCED_POWER_LIMIT);
        Integer defaultLimit = calls.int32("state.defaultPowerLimitMw", DEVICE_GET_POWER_MANAGEMENT_DEFAULT_LIMIT);
        Integer persistence = calls.int32("state.persistenceMode", DEVICE_GET_PERSISTENCE_MODE);
        Integer compute = calls.int32("state.computeMode", DEVICE_GET_COMPUTE_MODE);
        ComputeMode mode = compute == null ? null : ComputeMode.of(compute);
        if (mode == ComputeMode.UNDEFINED) calls.unknownValue("state.computeMode",
                "nvmlDeviceGetComputeMode gave " + compute + ", not a nvmlComputeMode_t this header knows");
        int[] mig = calls.int32s("state.migEnabled", DEVICE_GET_MIG_MODE, 2);
        Long action = batch.take(recovery);
        RecoveryAction recoveryAction = action == null ? null : RecoveryAction.of(action);
        if (recoveryAction == RecoveryAction.UNDEFINED) calls.unknownValue("state.recoveryAction",
                "NVML_FI_DEV_GET_GPU_RECOVERY_ACTION gave " + action + ", an action this header does not name");
        Integer pstate = calls.int32("state.performanceState", DEVICE_GET_PERFORMANCE_STATE);
        return MemoryHealthReader.group(new State(reasons, supported, throttle, gpuTemp, memTemp, slowdown, shutdown, gpuMax, memMax,
                        margin, shutdownT, slowdownT, avg, instant, limit, defaultLimit,
                        persistence == null ? null : persistence == NVML_FEATURE_ENABLED, mode,
                        mig == null ? null : mig[0] == NVML_DEVICE_MIG_ENABLE, mig == null ? null : mig[1] == NVML_DEVICE_MIG_ENABLE,
                        recoveryAction, pstate),
                reasons, supported, throttle, gpuTemp, memTemp, slowdown, shutdown, gpuMax, memMax, margin, shutdownT, slowdownT,
                avg, instant, limit, defaultLimit, persistence, mode, mig, recoveryAction, pstate);
    }

    /**
     * nvmlDeviceGetTemperatureV (nvmlTemperature_v1_t, sensor GPU); where the library lacks it or
     * refuses the struct version, the deprecated nvmlDeviceGetTemperature, as old as NVML.
     */
    private Integer gpuTemperature() {
        if (calls.stopped()) return null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlTemperature_v1_t);
            s.set(JAVA_INT, offset(nvmlTemperature_v1_t, "version"), structVersion(nvmlTemperature_v1_t, 1));
            s.set(JAVA_INT, offset(nvmlTemperature_v1_t, "sensorType"), NVML_TEMPERATURE_GPU);
            int rc = calls.nvml.call(DEVICE_GET_TEMPERATURE_V, calls.dev, s);
            if (rc != NVML_ERROR_FUNCTION_NOT_FOUND && rc != NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
                return calls.check("state.gpuTempC", DEVICE_GET_TEMPERATURE_V, rc)
                        ? s.get(JAVA_INT, offset(nvmlTemperature_v1_t, "temperature")) : null;
            }
        }
        return calls.int32("state.gpuTempC", DEVICE_GET_TEMPERATURE, NVML_TEMPERATURE_GPU);
    }

    private Integer margin() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlMarginTemperature_v1_t);
            s.set(JAVA_INT, offset(nvmlMarginTemperature_v1_t, "version"), structVersion(nvmlMarginTemperature_v1_t, 1));
            if (!calls.call("state.marginTempC", DEVICE_GET_MARGIN_TEMPERATURE, calls.dev, s)) return null;
            return s.get(JAVA_INT, offset(nvmlMarginTemperature_v1_t, "marginTemperature"));
        }
    }
}
