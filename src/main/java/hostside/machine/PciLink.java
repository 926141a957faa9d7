package hostside.machine;

/**
 * A PCIe link as sysfs reports it, current and maximum; null where the kernel does not say.
 * Bandwidth is per direction, after line encoding: 8b/10b up to Gen2, 128b/130b for Gen3-5,
 * and FLIT mode from Gen6 (236 data bytes in 256), before packet (TLP) overhead.
 */
public record PciLink(Double speedGTs, Integer width, Double maxSpeedGTs, Integer maxWidth) {

    /** Each PCIe generation's transfer rate per lane, GT/s: Gen1 first. */
    private static final double[] RATES = {2.5, 5, 8, 16, 32, 64, 128};

    /** PCIe generation for a transfer rate in GT/s; 0 when it is none of the standard ones. */
    public static int generation(Double gts) {
        if (gts == null) return 0;
        for (int i = 0; i < RATES.length; i++) if (Math.abs(gts - RATES[i]) < 0.01) return i + 1;
        return 0;
    }

    /** A generation's transfer rate per lane in GT/s; null for a generation PCIe does not have. */
    public static Double rate(int generation) {
        return generation < 1 || generation > RATES.length ? null : RATES[generation - 1];
    }

    /** Payload bandwidth of one direction in GB/s (10^9 bytes), 0 when unknown. */
    public static double gbPerSecond(Double gts, Integer width) {
        if (gts == null || width == null || width <= 0) return 0;
        int gen = generation(gts);
        double efficiency = gen >= 6 ? 236.0 / 256 : gen >= 3 ? 128.0 / 130 : 0.8;
        return gts * width * efficiency / 8;
    }

    public double currentGBs() {
        return gbPerSecond(speedGTs, width);
    }

    public double maxGBs() {
        return gbPerSecond(maxSpeedGTs, maxWidth);
    }

    public boolean belowMaxWidth() {
        return width != null && maxWidth != null && width > 0 && width < maxWidth;
    }

    public boolean belowMaxSpeed() {
        return speedGTs != null && maxSpeedGTs != null && speedGTs > 0 && speedGTs < maxSpeedGTs - 0.01;
    }

    /** "Gen5 x16" or "32 GT/s x16" for a rate outside the standard ones; "?" parts when unknown. */
    public static String describe(Double gts, Integer width) {
        int gen = generation(gts);
        String speed = gen > 0 ? "Gen" + gen : gts == null ? "Gen?" : trim(gts) + " GT/s";
        return speed + " x" + (width == null || width <= 0 ? "?" : width);
    }

    public String current() {
        return describe(speedGTs, width);
    }

    public String max() {
        return describe(maxSpeedGTs, maxWidth);
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    /** Parses sysfs's "32.0 GT/s PCIe", "8 GT/s", "2.5 GT/s"; null for "Unknown" or garbage. */
    static Double parseSpeed(String s) {
        if (s == null) return null;
        String first = s.strip().split("\\s+")[0];
        try {
            double v = Double.parseDouble(first);
            return v > 0 && v < 1000 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static Integer parseWidth(String s) {
        if (s == null) return null;
        try {
            int w = Integer.parseInt(s.strip().replaceFirst("^x", ""));
            return w > 0 && w <= 32 ? w : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
