package hostside.vm.explain;

import java.util.ArrayList;
import java.util.List;

import hostside.vm.explain.PageWalk.Arch;
import hostside.vm.explain.PageWalk.Layout;

/** Page-table entries as the hardware reads them: building plausible ones, and decoding their flag bits. */
final class Entries {
    // x86 (Intel SDM vol. 3, 4.5): the bits the course names.
    static final long P = 1, RW = 1 << 1, US = 1 << 2, A = 1 << 5, D = 1 << 6, PS = 1 << 7, G = 1 << 8, NX = 1L << 63;
    // ARM VMSAv8-64 descriptors: bit 0 valid, bit 1 table/page (1) or block (0).
    static final long VALID = 1, TABLE = 1 << 1, AP_EL0 = 1 << 6, AP_RO = 1 << 7, SH_INNER = 3 << 8, AF = 1 << 10,
            NG = 1 << 11, PXN = 1L << 53, UXN = 1L << 54;

    private Entries() {}

    /** An entry pointing at the next table; Linux writes 0x67 (_PAGE_TABLE) for user tables, 0x63 for kernel ones. */
    static long table(Layout layout, long next, boolean user) {
        if (layout.arch() == Arch.X86) return next | P | RW | A | D | (user ? US : 0);
        return next | VALID | TABLE;
    }

    /** A present data page, already accessed and written, never executable: the state after a first write. */
    static long leaf(Layout layout, long frame, boolean user, boolean huge) {
        if (layout.arch() == Arch.X86) return frame | P | RW | A | D | (huge ? PS : 0) | (user ? US : G) | NX;
        return frame | VALID | (huge ? 0 : TABLE) | SH_INNER | AF | (user ? AP_EL0 | NG : 0) | PXN | UXN;
    }

    static boolean present(long entry) {
        return (entry & 1) == 1;  // P on x86, valid on ARM: the same bit
    }

    /** The physical address an entry holds: bits 51:12 on x86, 47:12 or 47:16 on ARM. */
    static long address(Layout layout, long entry) {
        if (layout.arch() == Arch.X86) return entry & 0x000F_FFFF_FFFF_F000L;
        return entry & 0x0000_FFFF_FFFF_FFFFL & -layout.basePageBytes();
    }

    /** The flag bits in words; sizeBit says whether this level could end the walk (x86 PS, ARM block). */
    static String flags(Layout layout, long entry, boolean last, boolean sizeBit) {
        if (layout.arch() == Arch.X86) {
            if (!present(entry)) return "P=0 (not present; the other bits are free for the kernel)";
            List<String> f = new ArrayList<>(List.of("P=1", bit("RW", entry, RW), bit("US", entry, US)));
            if (sizeBit) f.add(bit("PS", entry, PS));
            f.add(bit("A", entry, A));
            if (last || (entry & PS) != 0) f.add(bit("D", entry, D));
            if ((entry & G) != 0) f.add("G=1");
            f.add(bit("NX", entry, NX));
            return String.join(" ", f);
        }
        if (!present(entry)) return "valid=0 (invalid; the other bits are ignored)";
        boolean tableBit = (entry & TABLE) != 0;
        if (tableBit && !last) return "valid=1 table";
        String ap = switch ((int) ((entry >>> 6) & 3)) {
            case 0 -> "AP=00 (read-write, kernel only)";
            case 1 -> "AP=01 (read-write, user)";
            case 2 -> "AP=10 (read-only, kernel only)";
            default -> "AP=11 (read-only, user)";
        };
        return "valid=1 " + (last ? "page" : "block") + " " + bit("AF", entry, AF) + " " + ap + " " + bit("nG", entry, NG)
                + " " + bit("UXN", entry, UXN);
    }

    private static String bit(String name, long entry, long mask) {
        return name + "=" + ((entry & mask) != 0 ? 1 : 0);
    }
}
