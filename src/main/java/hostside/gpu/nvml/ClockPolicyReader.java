package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlTypes.*;

import java.lang.foreign.MemorySegment;

/** Reads {@link NvmlGpu.ClockPolicy}, what {@link ClockLock} judges, for one GPU. */
final class ClockPolicyReader {
    private ClockPolicyReader() {}

    /**
     * The administrator's clock settings. A board without applications clocks (GeForce) answers
     * NOT_SUPPORTED to all four calls: one unknown line says so, not four.
     */
    static NvmlGpu.ClockPolicy read(Nvml nvml, MemorySegment dev, NvmlReader.Unknowns u) {
        Integer appSm = u.get("applicationsClocks", () -> nvml.getInt(DEVICE_GET_APPLICATIONS_CLOCK, dev, NVML_CLOCK_SM));
        Integer defaultSm = null, appMem = null, defaultMem = null;
        if (appSm != null) {
            defaultSm = u.get("defaultApplicationsClocks", () -> nvml.getInt(DEVICE_GET_DEFAULT_APPLICATIONS_CLOCK, dev, NVML_CLOCK_SM));
            appMem = u.get("applicationsClocks", () -> nvml.getInt(DEVICE_GET_APPLICATIONS_CLOCK, dev, NVML_CLOCK_MEM));
            defaultMem = u.get("defaultApplicationsClocks", () -> nvml.getInt(DEVICE_GET_DEFAULT_APPLICATIONS_CLOCK, dev, NVML_CLOCK_MEM));
        }
        Integer power = u.get("powerLimitMw", () -> nvml.getInt(DEVICE_GET_ENFORCED_POWER_LIMIT, dev));
        Integer defaultPower = u.get("defaultPowerLimitMw", () -> nvml.getInt(DEVICE_GET_POWER_MANAGEMENT_DEFAULT_LIMIT, dev));
        Long reasons = u.get("clocksEventReasons", () -> NvmlActivity.clocksEventReasons(nvml, dev));
        return new NvmlGpu.ClockPolicy(appSm, defaultSm, appMem, defaultMem, power, defaultPower, reasons);
    }
}
