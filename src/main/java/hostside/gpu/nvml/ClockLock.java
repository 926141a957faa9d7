package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.nvmlClocksEventReasonApplicationsClocksSetting;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether an administrator holds a GPU's clocks: the report's {@code confounders.clocksLocked}.
 * Two runs, one with clocks locked and one boosting freely, do not measure the same machine
 * (Azure's health checks lock clocks before nvbandwidth; nvbandwidth's maintainers ask "are
 * clocks set to max?" before they look at a low figure).
 *
 * <p>What NVML lets hostside see, and so the rule:
 * <ul>
 *   <li>applications clocks ({@code nvidia-smi -ac}) that differ from the board's defaults: locked;</li>
 *   <li>an enforced power limit below the default ({@code nvidia-smi -pl}, or the platform): capped;</li>
 *   <li>the "applications clocks setting" event reason (0x2, which nvml.h also calls
 *       UserDefinedClocks) while the SM clock is below its maximum and not at the default
 *       applications clock: held by a setting, most likely {@code nvidia-smi -lgc}. The reason alone
 *       is not enough: a board whose default applications clock is below its maximum (V100) shows it
 *       under every load.</li>
 * </ul>
 * NVML (driver 580) has no getter for {@code -lgc}'s range, so a lock at the maximum clock, or one
 * seen while the GPU idles, cannot be told from no lock: "no" means no sign of one, and the report
 * says so.
 *
 * @param locked true with at least one sign; false when the settings were read and none shows;
 *               null when NVML gave too little to say (no clock event reasons)
 * @param signs  one line per sign ("applications clocks SM 1410 MHz, default 1980"), empty when none
 */
public record ClockLock(Boolean locked, List<String> signs) {

    public ClockLock {
        signs = List.copyOf(signs);
    }

    public static ClockLock of(NvmlGpu g) {
        NvmlGpu.ClockPolicy c = g.clocks();
        if (c == null) return new ClockLock(null, List.of());
        List<String> signs = new ArrayList<>();
        if (differs(c.appSmMhz(), c.defaultAppSmMhz())) {
            signs.add(String.format(Locale.ROOT, "applications clocks SM %d MHz, default %d (nvidia-smi -ac)",
                    c.appSmMhz(), c.defaultAppSmMhz()));
        }
        if (differs(c.appMemMhz(), c.defaultAppMemMhz())) {
            signs.add(String.format(Locale.ROOT, "applications clocks memory %d MHz, default %d (nvidia-smi -ac)",
                    c.appMemMhz(), c.defaultAppMemMhz()));
        }
        if (c.powerLimitMw() != null && c.defaultPowerLimitMw() != null && c.powerLimitMw() < c.defaultPowerLimitMw()) {
            signs.add(String.format(Locale.ROOT, "power limit %d W, default %d W (nvidia-smi -pl, or the platform)",
                    c.powerLimitMw() / 1000, c.defaultPowerLimitMw() / 1000));
        }
        if (heldBySetting(c, g.smClockMhz(), g.smClockMaxMhz())) {
            signs.add(String.format(Locale.ROOT, "SM clock %d of %d MHz held by a clock setting (nvidia-smi -lgc or -ac)",
                    g.smClockMhz(), g.smClockMaxMhz()));
        }
        if (!signs.isEmpty()) return new ClockLock(true, signs);
        return new ClockLock(c.eventReasons() == null ? null : false, List.of());
    }

    /** All GPUs: locked when any is, not locked when every one says no, else unknown. No GPU: unknown. */
    public static ClockLock of(List<NvmlGpu> gpus) {
        if (gpus == null || gpus.isEmpty()) return new ClockLock(null, List.of());
        List<String> signs = new ArrayList<>();
        boolean allKnown = true;
        for (NvmlGpu g : gpus) {
            ClockLock one = of(g);
            for (String s : one.signs()) signs.add("GPU" + g.index() + ": " + s);
            if (one.locked() == null) allKnown = false;
        }
        if (!signs.isEmpty()) return new ClockLock(true, signs);
        return new ClockLock(allKnown ? false : null, List.of());
    }

    private static boolean differs(Integer now, Integer byDefault) {
        return now != null && byDefault != null && !now.equals(byDefault);
    }

    private static boolean heldBySetting(NvmlGpu.ClockPolicy c, Integer sm, Integer smMax) {
        if (c.eventReasons() == null || sm == null || smMax == null) return false;
        if ((c.eventReasons() & nvmlClocksEventReasonApplicationsClocksSetting) == 0) return false;
        return sm < smMax && !sm.equals(c.defaultAppSmMhz());
    }
}
