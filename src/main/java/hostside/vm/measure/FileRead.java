package hostside.vm.measure;

import hostside.harness.TestFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;

import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;
import hostside.libc.Libc;

/**
 * One file read end to end, by read(2) into a buffer or through an mmap copied out of the
 * mapping: the same bytes reach the same buffer, so what differs is how the kernel hands them
 * over (a copy per syscall vs a page fault per mapped page or fault-around window). Cold: the
 * file's pages are dropped from the page cache first with posix_fadvise(DONTNEED) (no root, and
 * only this file), and mincore says how much really left. Warm: the file is cached.
 */
public record FileRead(boolean mmap, boolean cold) implements TestCase<HostTarget> {
    static final int CHUNK = 1 << 20;
    static final int COLD_SAMPLES = 3, WARM_SAMPLES = 5;

    public String key() {
        return "file_" + (mmap ? "mmap" : "read") + "_" + (cold ? "cold" : "warm");
    }

    public String description() {
        return (mmap ? "mmap of the test file, copied out of the mapping" : "read() of the test file in 1 MiB calls")
                + (cold ? ", page cache dropped first (cold)" : ", file in the page cache (warm)");
    }

    public java.util.Optional<String> notApplicable(HostTarget t) {
        if (cold && t.dirInMemory()) {
            return java.util.Optional.of(t.dir() + " is on " + t.dirFilesystem() + ": its files live in memory, so nothing can be read cold (use --dir on a disk)");
        }
        return java.util.Optional.empty();
    }

    /** What one pass did: its time and this thread's faults. */
    record Pass(double seconds, Libc.Usage faults) {}

    public Result run(HostTarget t) {
        TestFile file = t.file().get();
        int samples = cold ? COLD_SAMPLES : WARM_SAMPLES;
        double[] gbs = new double[samples];
        long[] minor = new long[samples], major = new long[samples];
        double maxResident = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(CHUNK, 4096);
            buffer.fill((byte) 1); // the destination is touched once here, not inside the timing
            if (!cold) pass(file, buffer); // warm-up: the file enters the page cache
            for (int i = 0; i < samples; i++) {
                if (cold) maxResident = Math.max(maxResident, evict(file, t.pageSize()));
                Pass p = pass(file, buffer);
                gbs[i] = file.bytes() / p.seconds() / 1e9;
                minor[i] = p.faults().minorFaults();
                major[i] = p.faults().majorFaults();
            }
        }
        double mib = file.bytes() / (double) (1 << 20);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("fileBytes", file.bytes());
        d.put("file", file.path().toString());
        d.put("minorFaults", median(minor));
        d.put("majorFaults", median(major));
        d.put("faultsPerMiB", (median(minor) + median(major)) / mib);
        if (cold) d.put("residentAtStartPercent", maxResident * 100); // what eviction left cached: ~0 for a true cold read
        return Result.ok(this, hostside.core.Unit.GB_PER_S, Stats.of(gbs), mmap
                ? "mmap(MAP_PRIVATE) + 1 MiB copies out of the mapping, host clock; faults from getrusage(RUSAGE_THREAD)"
                : "read(2) in 1 MiB calls, host clock; faults from getrusage(RUSAGE_THREAD)", d);
    }

    private Pass pass(TestFile file, MemorySegment buffer) {
        int fd = Libc.open(file.path().toString(), Libc.O_RDONLY);
        try {
            Libc.Usage before = Libc.threadUsage();
            long t0 = System.nanoTime();
            if (mmap) {
                MemorySegment map = Libc.mmap(file.bytes(), Libc.PROT_READ, Libc.MAP_PRIVATE, fd, 0);
                try {
                    for (long off = 0; off < file.bytes(); off += CHUNK) {
                        long n = Math.min(CHUNK, file.bytes() - off);
                        MemorySegment.copy(map, off, buffer, 0, n);
                    }
                } finally {
                    Libc.munmap(map);
                }
            } else {
                long total = 0;
                while (total < file.bytes()) {
                    long n = Libc.read(fd, buffer, CHUNK);
                    if (n == 0) break;
                    total += n;
                }
                if (total != file.bytes()) throw new IllegalStateException(file.path() + " shrank while being read: " + total + " bytes");
            }
            long ns = System.nanoTime() - t0;
            Libc.Usage after = Libc.threadUsage();
            return new Pass(ns / 1e9, after.minus(before));
        } finally {
            Libc.close(fd);
        }
    }

    /** Drops the file's pages; returns the share still resident afterwards (0..1), by mincore. */
    static double evict(TestFile file, long pageSize) {
        int fd = Libc.open(file.path().toString(), Libc.O_RDONLY);
        try {
            Libc.fadvise(fd, Libc.POSIX_FADV_DONTNEED);
            MemorySegment map = Libc.mmap(file.bytes(), Libc.PROT_READ, Libc.MAP_PRIVATE, fd, 0);
            try {
                long pages = (file.bytes() + pageSize - 1) / pageSize;
                return Libc.residentPages(map, pageSize) / (double) pages;
            } finally {
                Libc.munmap(map);
            }
        } finally {
            Libc.close(fd);
        }
    }

    static long median(long[] v) {
        long[] s = v.clone();
        java.util.Arrays.sort(s);
        return s[s.length / 2];
    }
}
