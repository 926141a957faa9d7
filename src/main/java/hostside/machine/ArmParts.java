package hostside.machine;

import java.util.Locale;
import java.util.Map;

/** Arm core names by MIDR implementer and part number (the ones found in servers and SoCs with GPUs). */
public final class ArmParts {
    private static final Map<Integer, String> ARM = Map.ofEntries(
            Map.entry(0xc07, "Cortex-A7"), Map.entry(0xc09, "Cortex-A9"), Map.entry(0xc0f, "Cortex-A15"),
            Map.entry(0xd03, "Cortex-A53"), Map.entry(0xd04, "Cortex-A35"), Map.entry(0xd05, "Cortex-A55"),
            Map.entry(0xd07, "Cortex-A57"), Map.entry(0xd08, "Cortex-A72"), Map.entry(0xd09, "Cortex-A73"),
            Map.entry(0xd0a, "Cortex-A75"), Map.entry(0xd0b, "Cortex-A76"), Map.entry(0xd0c, "Neoverse-N1"),
            Map.entry(0xd0d, "Cortex-A77"), Map.entry(0xd40, "Neoverse-V1"), Map.entry(0xd41, "Cortex-A78"),
            Map.entry(0xd42, "Cortex-A78AE"), Map.entry(0xd44, "Cortex-X1"), Map.entry(0xd46, "Cortex-A510"),
            Map.entry(0xd47, "Cortex-A710"), Map.entry(0xd48, "Cortex-X2"), Map.entry(0xd49, "Neoverse-N2"),
            Map.entry(0xd4a, "Neoverse-E1"), Map.entry(0xd4b, "Cortex-A78C"), Map.entry(0xd4d, "Cortex-A715"),
            Map.entry(0xd4e, "Cortex-X3"), Map.entry(0xd4f, "Neoverse-V2"), Map.entry(0xd80, "Cortex-A520"),
            Map.entry(0xd81, "Cortex-A720"), Map.entry(0xd82, "Cortex-X4"), Map.entry(0xd84, "Neoverse-V3"),
            Map.entry(0xd85, "Cortex-X925"), Map.entry(0xd87, "Cortex-A725"), Map.entry(0xd8e, "Neoverse-N3"));

    private ArmParts() {}

    public static String name(int implementer, int part) {
        if (implementer == 0x41) {
            String n = ARM.get(part);
            if (n != null) return n;
        }
        if (implementer == 0x4e) return String.format(Locale.ROOT, "NVIDIA part 0x%03x", part);
        return String.format(Locale.ROOT, "implementer 0x%02x part 0x%03x", implementer, part);
    }
}
