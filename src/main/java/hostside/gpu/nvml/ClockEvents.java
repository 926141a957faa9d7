package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The nvmlClocksEventReason* bits in the words {@code nvidia-smi -q} prints under "Clocks Event
 * Reasons" (testdata/h200/nvidia-smi-q.txt), in its order. HW Slowdown (0x8) is the union that
 * smi prints HW Thermal and HW Power Brake under; nvml.h notes it "may be also reported during
 * PState or clock change".
 */
public final class ClockEvents {
    private ClockEvents() {}

    /** One bit and its nvidia-smi words. */
    public record Reason(long bit, String words) {}

    public static final List<Reason> REASONS = List.of(
            new Reason(nvmlClocksEventReasonGpuIdle, "Idle"),
            new Reason(nvmlClocksEventReasonApplicationsClocksSetting, "Applications Clocks Setting"),
            new Reason(nvmlClocksEventReasonSwPowerCap, "SW Power Cap"),
            new Reason(nvmlClocksThrottleReasonHwSlowdown, "HW Slowdown"),
            new Reason(nvmlClocksThrottleReasonHwThermalSlowdown, "HW Thermal Slowdown"),
            new Reason(nvmlClocksThrottleReasonHwPowerBrakeSlowdown, "HW Power Brake Slowdown"),
            new Reason(nvmlClocksEventReasonSyncBoost, "Sync Boost"),
            new Reason(nvmlClocksEventReasonSwThermalSlowdown, "SW Thermal Slowdown"),
            new Reason(nvmlClocksEventReasonDisplayClockSetting, "Display Clock Setting"));

    /**
     * The words of each bit set in {@code reasons}, in nvidia-smi's order; a bit this header does
     * not name comes as "0x..." so that nothing set goes unsaid.
     */
    public static List<String> names(long reasons) {
        List<String> out = new ArrayList<>();
        long known = 0;
        for (Reason r : REASONS) {
            known |= r.bit();
            if ((reasons & r.bit()) != 0) out.add(r.words());
        }
        long rest = reasons & ~known;
        for (int bit = 0; bit < Long.SIZE; bit++) {
            if ((rest >>> bit & 1) != 0) out.add("0x" + Long.toHexString(1L << bit));
        }
        return out;
    }
}
