package hostside.core;

import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * A set of CPU (or NUMA node) numbers, read from the kernel's two spellings: the list
 * ("0-7,16-23") and the mask ("00000000,00ff00ff", 32-bit words, most significant first).
 */
public final class CpuSet implements Comparable<CpuSet> {
    public static final CpuSet EMPTY = new CpuSet(new BitSet());
    /** Larger than any machine: a guard against garbage such as "0-4294967295". */
    private static final int MAX_CPU = 1 << 20;

    private final BitSet bits;

    private CpuSet(BitSet bits) {
        this.bits = bits;
    }

    public static CpuSet of(int... cpus) {
        BitSet b = new BitSet();
        for (int c : cpus) b.set(c);
        return new CpuSet(b);
    }

    public static CpuSet range(int from, int toInclusive) {
        BitSet b = new BitSet();
        b.set(from, toInclusive + 1);
        return new CpuSet(b);
    }

    /**
     * The value at the start of a sysfs file: the text up to the first control or non-ASCII
     * character, stripped. hwloc reads a number or a mask and stops at what is not part of it, so
     * stray bytes a kernel or capture tool left after the value ("0-63\n\0\u0001", "32K\uFFFD")
     * do not hide it; printable garbage ("0-zz") is still garbage.
     */
    public static String sysfsValue(String text) {
        String s = text.strip();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            // nothing before the stray bytes: no value at all, and the parser says so
            if (c < 0x20 || c >= 0x7f) return i == 0 ? s : s.substring(0, i).strip();
        }
        return s;
    }

    /** Parses "0-3,8,10-11" (also "0-15:2" strides, as cmdline isolcpus allows); "" is empty. */
    @com.fasterxml.jackson.annotation.JsonCreator
    public static CpuSet parseList(String text) {
        String s = sysfsValue(text);
        BitSet b = new BitSet();
        if (s.isEmpty()) return new CpuSet(b);
        for (String part : s.split(",")) {
            part = part.strip();
            try {
                int stride = 1;
                int colon = part.indexOf(':');
                if (colon >= 0) {
                    stride = Integer.parseInt(part.substring(colon + 1).split("/")[0]);
                    part = part.substring(0, colon);
                }
                int dash = part.indexOf('-');
                int lo = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1));
                if (lo < 0 || hi < lo || hi > MAX_CPU || stride < 1) throw new NumberFormatException();
                // long: a stride near 2^31 ("1-5:2147483647") wrapped an int past hi to a negative bit
                for (long c = lo; c <= hi; c += stride) b.set((int) c);
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                throw new GarbageException("not a CPU list: \"" + abbreviate(s) + "\"");
            }
        }
        return new CpuSet(b);
    }

    /** Parses a kernel cpumask: comma-separated 32-bit hex words, the last one holds CPUs 0-31. */
    public static CpuSet parseMask(String text) {
        String s = sysfsValue(text);
        if (s.isEmpty()) throw new GarbageException("empty CPU mask");
        String[] words = s.split(",");
        BitSet b = new BitSet();
        int base = 0;
        for (int i = words.length - 1; i >= 0; i--) {
            String w = words[i].strip();
            if (w.startsWith("0x") || w.startsWith("0X")) w = w.substring(2);
            if (w.isEmpty() || w.length() > 8 && words.length > 1) {
                throw new GarbageException("not a CPU mask: \"" + abbreviate(s) + "\"");
            }
            // a single word may be longer than 32 bits (some kernels print one long hex number)
            for (int d = w.length() - 1, bit = base; d >= 0; d--, bit += 4) {
                int v = Character.digit(w.charAt(d), 16);
                if (v < 0) throw new GarbageException("not a CPU mask: \"" + abbreviate(s) + "\"");
                for (int k = 0; k < 4; k++) if ((v & (1 << k)) != 0) b.set(bit + k);
            }
            base += words.length > 1 ? 32 : 4 * w.length();
        }
        return new CpuSet(b);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    public boolean contains(int cpu) {
        return cpu >= 0 && bits.get(cpu);
    }

    public int size() {
        return bits.cardinality();
    }

    public boolean isEmpty() {
        return bits.isEmpty();
    }

    public int first() {
        return bits.nextSetBit(0);
    }

    public IntStream stream() {
        return bits.stream();
    }

    public CpuSet and(CpuSet o) {
        BitSet b = (BitSet) bits.clone();
        b.and(o.bits);
        return new CpuSet(b);
    }

    public CpuSet or(CpuSet o) {
        BitSet b = (BitSet) bits.clone();
        b.or(o.bits);
        return new CpuSet(b);
    }

    public CpuSet andNot(CpuSet o) {
        BitSet b = (BitSet) bits.clone();
        b.andNot(o.bits);
        return new CpuSet(b);
    }

    public CpuSet with(int cpu) {
        BitSet b = (BitSet) bits.clone();
        b.set(cpu);
        return new CpuSet(b);
    }

    public boolean intersects(CpuSet o) {
        return bits.intersects(o.bits);
    }

    public boolean containsAll(CpuSet o) {
        // no copy: hwloc-style insertion compares every new object with all the others
        for (int i = o.bits.nextSetBit(0); i >= 0; i = o.bits.nextSetBit(i + 1)) if (!bits.get(i)) return false;
        return true;
    }

    /** The kernel's list spelling: "0-7,16-23"; "" when empty. How a CpuSet is written in JSON, and read back. */
    @com.fasterxml.jackson.annotation.JsonValue
    public String toList() {
        StringBuilder sb = new StringBuilder();
        int i = bits.nextSetBit(0);
        while (i >= 0) {
            int end = bits.nextClearBit(i) - 1;
            if (!sb.isEmpty()) sb.append(',');
            sb.append(i);
            if (end > i) sb.append('-').append(end);
            i = bits.nextSetBit(end + 1);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet c && c.bits.equals(bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }

    @Override
    public int compareTo(CpuSet o) {
        int a = first(), b = o.first();
        if (a != b) return Integer.compare(a, b);
        return toList().compareTo(o.toList());
    }

    @Override
    public String toString() {
        return toList();
    }
}
