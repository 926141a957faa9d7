package hostside.vm.measure;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;
import hostside.libc.Libc;
import hostside.libc.LibcException;

/**
 * First touch of fresh anonymous memory: every base page costs a minor fault (the kernel zeroes
 * a page and maps it), unless THP hands out a huge page per fault. This is what allocating a
 * pinned staging buffer, a DataLoader batch or a fresh tensor costs before any data moves; the
 * THP row shows whether huge pages really happened (the kernel's thp_fault_alloc and
 * thp_fault_fallback counters, and AnonHugePages of the region itself).
 */
public record AnonTouch(boolean huge) implements TestCase<HostTarget> {
    /** Enough pages for a steady per-fault figure; small enough that a VM's slow faults stay in seconds. */
    public static final long DEFAULT_BYTES = 256L << 20;
    static final int SAMPLES = 5;

    public String key() {
        return huge ? "anon_first_touch_thp" : "anon_first_touch_base";
    }

    public String description() {
        return huge ? "first touch of anonymous memory with madvise(MADV_HUGEPAGE): ms per GiB, THP faults"
                : "first touch of anonymous memory in base pages (MADV_NOHUGEPAGE): ms per GiB, cost per fault";
    }

    public Optional<String> notApplicable(HostTarget t) {
        if (huge && !t.thpUsable()) return Optional.of("THP is " + t.thpEnabled() + " on this machine: no huge pages to ask for");
        return Optional.empty();
    }

    public Result run(HostTarget t) {
        long unit = Math.max(t.hugePageSize(), t.pageSize());
        long bytes = t.bounded(t.anonBytes(), unit);
        double gib = bytes / (double) (1L << 30);
        double[] msPerGib = new double[SAMPLES];
        long[] faults = new long[SAMPLES];
        long[] thpAlloc = new long[SAMPLES], thpFallback = new long[SAMPLES], anonHuge = new long[SAMPLES];
        for (int i = -1; i < SAMPLES; i++) {
            Region r = Region.map(bytes, unit, t.pageSize());
            try {
                r.advise(huge ? Libc.MADV_HUGEPAGE : Libc.MADV_NOHUGEPAGE, t);
                Map<String, Long> vmBefore = VmStatCounters.read(t.fs());
                Libc.Usage before = Libc.threadUsage();
                long t0 = System.nanoTime();
                touch(r.segment(), t.pageSize());
                long ns = System.nanoTime() - t0;
                Libc.Usage used = Libc.threadUsage().minus(before);
                Map<String, Long> vmAfter = VmStatCounters.read(t.fs());
                if (i < 0) continue; // warm-up: the JIT and the kernel's free lists settle
                msPerGib[i] = ns / 1e6 / gib;
                faults[i] = used.minorFaults() + used.majorFaults();
                thpAlloc[i] = VmStatCounters.delta(vmBefore, vmAfter, "thp_fault_alloc");
                thpFallback[i] = VmStatCounters.delta(vmBefore, vmAfter, "thp_fault_fallback");
                anonHuge[i] = huge ? Smaps.anonHugeBytes(t.fs(), r.segment().address()).orElse(-1L) : 0;
            } finally {
                r.close();
            }
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("regionBytes", bytes);
        d.put("pageSize", t.pageSize());
        long f = FileRead.median(faults);
        d.put("faults", f);
        d.put("faultsPerMiB", f / (bytes / (double) (1 << 20)));
        Stats s = Stats.of(msPerGib);
        if (f > 0) d.put("usPerFault", s.median() * gib * 1e3 / f);
        if (huge) {
            d.put("hugePageSize", t.hugePageSize());
            d.put("thpFaultAlloc", FileRead.median(thpAlloc));
            d.put("thpFaultFallback", FileRead.median(thpFallback));
            long ah = FileRead.median(anonHuge);
            d.put("anonHugeBytes", ah);
            if (ah >= 0) d.put("hugePercent", 100.0 * ah / bytes);
        } else {
            d.put("thpFaultAlloc", FileRead.median(thpAlloc)); // should be 0: the region asked for none
        }
        return Result.ok(this, hostside.core.Unit.MS_PER_GIB, s, "mmap(MAP_PRIVATE|MAP_ANONYMOUS), one write per base page, host clock; faults from getrusage(RUSAGE_THREAD), THP counters from /proc/vmstat", d);
    }

    /** One byte written per base page: each write is the first touch of its page. */
    static void touch(MemorySegment m, long pageSize) {
        for (long off = 0, n = m.byteSize(); off < n; off += pageSize) m.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
    }

    /**
     * An anonymous mapping aligned to {@code align} (a huge page), so that THP can back it from
     * its first byte: mmap gives page alignment only, so a little more is mapped and the ends cut.
     */
    record Region(MemorySegment raw, MemorySegment segment) implements AutoCloseable {
        static Region map(long bytes, long align, long pageSize) {
            long extra = align > pageSize ? align : 0;
            MemorySegment raw = Libc.mmap(bytes + extra, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
            long start = (raw.address() + align - 1) / align * align;
            if (extra == 0) start = raw.address();
            return new Region(raw, MemorySegment.ofAddress(start).reinterpret(bytes));
        }

        /** madvise; EINVAL from a kernel without THP is not an error for base pages. */
        void advise(int advice, HostTarget t) {
            try {
                Libc.madvise(segment, advice);
            } catch (LibcException e) {
                if (advice == Libc.MADV_NOHUGEPAGE && e.errno() == 22) return;
                throw e;
            }
        }

        @Override
        public void close() {
            Libc.munmap(raw);
        }
    }
}
