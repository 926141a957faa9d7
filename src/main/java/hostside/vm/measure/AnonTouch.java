package hostside.vm.measure;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.fs.Smaps;
import hostside.harness.Cut;
import hostside.harness.Result;
import hostside.harness.Sampling;
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

    /**
     * What a first touch measured beside its figure (JSON names as hostside/1 wrote them). The
     * counters are medians of the samples; -1 where the kernel has no such counter.
     *
     * @param regionBytes      the region touched (--anon-size, cut to the budget: see {@code cut})
     * @param pageSize         the base page size
     * @param faults           this thread's faults in one touch of the region
     * @param faultsPerMiB     the same per MiB: 256 with 4 KiB pages, 0.5 with 2 MiB huge pages
     * @param usPerFault       the median time over the faults; null when no fault was counted
     * @param hugePageSize     THP's size; null for the base-page case
     * @param thpFaultAlloc    /proc/vmstat thp_fault_alloc during a touch (0 expected for base pages)
     * @param thpFaultFallback thp_fault_fallback during a touch: huge pages asked for and not had; null for base pages
     * @param anonHugeBytes    AnonHugePages of the region (smaps); null for base pages, -1 when smaps could not say
     * @param hugePercent      anonHugeBytes as a share of the region; null when not known or base pages
     * @param cut              what --anon-size was cut to, and why; null when used as asked
     */
    public record TouchDetail(long regionBytes, long pageSize, long faults, double faultsPerMiB, Double usPerFault,
                              Long hugePageSize, long thpFaultAlloc, Long thpFaultFallback, Long anonHugeBytes, Double hugePercent,
                              Cut cut) implements Cut.Holder {
        /** The same detail, saying that the region was cut. */
        public TouchDetail withCut(Cut c) {
            return new TouchDetail(regionBytes, pageSize, faults, faultsPerMiB, usPerFault, hugePageSize, thpFaultAlloc, thpFaultFallback,
                    anonHugeBytes, hugePercent, c);
        }
    }

    @Override
    public Class<TouchDetail> detailType() {
        return TouchDetail.class;
    }

    /** One touch of a fresh region: its time, this thread's faults, the THP counters and AnonHugePages. */
    record Touch(long ns, long faults, long thpAlloc, long thpFallback, long anonHuge) {}

    public Result run(HostTarget t) {
        long unit = Math.max(t.hugePageSize(), t.pageSize());
        long bytes = t.bounded(t.anonBytes(), unit);
        double gib = bytes / (double) (1L << 30);
        // one warm-up: the JIT and the kernel's free lists settle
        List<Touch> touches = new Sampling(1, SAMPLES).each(i -> touchOnce(t, bytes));
        Stats s = Stats.of(touches.stream().mapToDouble(x -> x.ns() / 1e6 / gib).toArray());
        long f = FileRead.median(touches.stream().mapToLong(Touch::faults).toArray());
        long alloc = FileRead.median(touches.stream().mapToLong(Touch::thpAlloc).toArray());
        Long fallback = null, anonHuge = null;
        Double pct = null;
        if (huge) {
            fallback = FileRead.median(touches.stream().mapToLong(Touch::thpFallback).toArray());
            anonHuge = FileRead.median(touches.stream().mapToLong(Touch::anonHuge).toArray());
            if (anonHuge >= 0) pct = 100.0 * anonHuge / bytes;
        }
        TouchDetail d = new TouchDetail(bytes, t.pageSize(), f, f / (bytes / (double) (1 << 20)), f > 0 ? s.median() * gib * 1e3 / f : null,
                huge ? t.hugePageSize() : null, alloc, fallback, anonHuge, pct, null);
        return Result.ok(this, Unit.MS_PER_GIB, s, "mmap(MAP_PRIVATE|MAP_ANONYMOUS), one write per base page, host clock; faults from getrusage(RUSAGE_THREAD), THP counters from /proc/vmstat", d);
    }

    private Touch touchOnce(HostTarget t, long bytes) {
        long unit = Math.max(t.hugePageSize(), t.pageSize());
        try (Region r = Region.map(bytes, unit, t.pageSize())) {
            r.advise(huge ? Libc.MADV_HUGEPAGE : Libc.MADV_NOHUGEPAGE, t);
            Map<String, Long> vmBefore = VmStatCounters.read(t.fs());
            Libc.Usage before = Libc.threadUsage();
            long t0 = System.nanoTime();
            touch(r.segment(), t.pageSize());
            long ns = System.nanoTime() - t0;
            Libc.Usage used = Libc.threadUsage().minus(before);
            Map<String, Long> vmAfter = VmStatCounters.read(t.fs());
            return new Touch(ns, used.minorFaults() + used.majorFaults(), VmStatCounters.delta(vmBefore, vmAfter, "thp_fault_alloc"),
                    VmStatCounters.delta(vmBefore, vmAfter, "thp_fault_fallback"),
                    huge ? Smaps.anonHugeBytes(t.fs(), r.segment().address()).orElse(-1L) : 0);
        }
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
