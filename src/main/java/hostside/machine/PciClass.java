package hostside.machine;

import java.util.Locale;

/**
 * PCI class codes (the 24-bit "class" file: base class, subclass, programming interface) and
 * what hostside calls each device. Only accelerators count as GPUs: a BMC's VGA chip (ASPEED,
 * Matrox) is a display controller, not a GPU to train on.
 */
public final class PciClass {
    public static final int VENDOR_NVIDIA = 0x10de;
    public static final int VENDOR_AMD = 0x1002;
    public static final int VENDOR_INTEL = 0x8086;

    private PciClass() {}

    /** Parses "0x030200"; -1 for garbage. */
    public static int parse(String s) {
        if (s == null) return -1;
        try {
            String t = s.strip();
            int v = Integer.decode(t.startsWith("0x") || t.startsWith("0X") ? t : "0x" + t);
            return v >= 0 && v <= 0xffffff ? v : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static PciKind kind(int classCode, int vendor, boolean gpuDriver) {
        int base = classCode >> 16, sub = (classCode >> 8) & 0xff;
        if (base == 0x03) {
            if (gpuDriver) return PciKind.GPU;
            boolean accelerator = sub == 0x02 || sub == 0x80; // 3D controller, "other display" (AMD Instinct)
            if (vendor == VENDOR_NVIDIA || (vendor == VENDOR_AMD && accelerator) || (vendor == VENDOR_INTEL && sub == 0x80)) {
                return PciKind.GPU;
            }
            return sub == 0x02 && vendor < 0 ? PciKind.GPU : PciKind.OTHER;
        }
        if (base == 0x02) return PciKind.NIC;
        if (base == 0x01 && sub == 0x08 && (classCode & 0xff) == 0x02) return PciKind.NVME;
        if (base == 0x06) return PciKind.BRIDGE;
        return PciKind.OTHER;
    }

    /** A short name for the class, from the PCI code and ID specification. */
    public static String describe(int classCode) {
        if (classCode < 0) return "unknown class";
        int base = classCode >> 16, sub = (classCode >> 8) & 0xff;
        return switch (base) {
            case 0x01 -> switch (sub) {
                case 0x00 -> "SCSI controller";
                case 0x01 -> "IDE controller";
                case 0x04 -> "RAID controller";
                case 0x06 -> "SATA controller";
                case 0x07 -> "SAS controller";
                case 0x08 -> (classCode & 0xff) == 0x02 ? "NVMe drive" : "non-volatile memory controller";
                default -> "storage controller";
            };
            case 0x02 -> switch (sub) {
                case 0x00 -> "Ethernet controller";
                case 0x07 -> "InfiniBand controller";
                case 0x08 -> "fabric controller";
                default -> "network controller";
            };
            case 0x03 -> switch (sub) {
                case 0x00 -> "VGA controller";
                case 0x02 -> "3D controller";
                default -> "display controller";
            };
            case 0x04 -> "multimedia controller";
            case 0x05 -> "memory controller";
            case 0x06 -> switch (sub) {
                case 0x00 -> "host bridge";
                case 0x01 -> "ISA bridge";
                case 0x04 -> "PCI bridge";
                default -> "bridge";
            };
            case 0x07 -> "communication controller";
            case 0x08 -> "system peripheral";
            case 0x0b -> "processor";
            case 0x0c -> sub == 0x03 ? "USB controller" : "serial bus controller";
            case 0x12 -> "processing accelerator";
            case 0x13 -> "instrumentation";
            case 0xff -> "unassigned class";
            default -> "class " + String.format(Locale.ROOT, "0x%06x", classCode);
        };
    }

    public static String vendorName(int vendor) {
        return switch (vendor) {
            case VENDOR_NVIDIA -> "NVIDIA";
            case VENDOR_AMD -> "AMD";
            case VENDOR_INTEL -> "Intel";
            case 0x15b3 -> "Mellanox";
            case 0x14e4 -> "Broadcom";
            case 0x1af4 -> "virtio";
            case 0x1d0f -> "Amazon";
            case 0x144d -> "Samsung";
            case 0x1344 -> "Micron";
            case 0x1c5c -> "SK hynix";
            case 0x1000 -> "Broadcom/LSI";
            case 0x1a03 -> "ASPEED";
            case 0x102b -> "Matrox";
            case 0x1022 -> "AMD";
            case 0x1014 -> "IBM";
            case 0x10b5 -> "Broadcom/PLX";
            case 0x1dd8 -> "Pensando";
            case 0x1924 -> "Solarflare";
            default -> vendor < 0 ? "" : String.format(Locale.ROOT, "vendor 0x%04x", vendor);
        };
    }
}
