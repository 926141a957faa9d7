package hostside.vm.explain;

import java.util.Locale;
import java.util.Optional;

import hostside.vm.explain.PageWalk.Arch;
import hostside.vm.explain.PageWalk.Layout;

/** Which half of the address space an address is in, and whether the MMU accepts it at all. */
final class Canonical {
    private Canonical() {}

    /** x86: the top VA bit (47 or 56); ARM: bit 55, which selects TTBR1 (memory.rst: "[55] TTBR0/1"). */
    static boolean upper(long va, Layout layout) {
        int bit = layout.arch() == Arch.X86 ? layout.vaBits() - 1 : 55;
        return ((va >>> bit) & 1) == 1;
    }

    /**
     * ARM user pointers may carry a tag in bits 63:56: Linux sets TCR_EL1.TBI0, so the MMU ignores that byte for
     * TTBR0 addresses. Kernel addresses get no such pass (TBI1 stays off without hardware-tag KASAN).
     */
    static long tag(long va, Layout layout) {
        return layout.arch() == Arch.ARM && !upper(va, layout) ? va >>> 56 : 0;
    }

    static Optional<String> problem(long va, Layout layout) {
        if (layout.arch() == Arch.X86) {
            int top = layout.vaBits() - 1;
            long above = va >> top;  // arithmetic: all 0 or all 1 when canonical
            if (above == 0 || above == -1) return Optional.empty();
            return Optional.of("bits 63:" + layout.vaBits() + " = " + String.format(Locale.ROOT, "0x%0" + (64 - layout.vaBits() + 3) / 4 + "x", va >>> layout.vaBits())
                    + " but bit " + top + " = " + ((va >>> top) & 1));
        }
        if (!upper(va, layout)) {
            long between = (va >>> layout.vaBits()) & 0xff;  // bits 55:48, below the ignored top byte
            if (between == 0) return Optional.empty();
            return Optional.of("bit 55 = 0 but bits 55:" + layout.vaBits() + " = " + String.format(Locale.ROOT, "0x%02x", between));
        }
        if ((va >> layout.vaBits()) == -1) return Optional.empty();
        return Optional.of("bit 55 = 1 but bits 63:" + layout.vaBits() + " = " + String.format(Locale.ROOT, "0x%04x", va >>> layout.vaBits()));
    }
}
