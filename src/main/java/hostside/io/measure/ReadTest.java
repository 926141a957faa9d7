package hostside.io.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.annotation.JsonInclude;

import hostside.core.Better;
import hostside.core.Distribution;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;
import hostside.io.uring.IoUring;
import hostside.libc.FileIo;
import hostside.libc.LibcException;

/**
 * Reads of the test file the way a checkpoint loader or a dataset reader might: sequential
 * 1 MiB reads (bandwidth, GB/s) or random 4 KiB reads (IOPS), through the page cache cold
 * (its pages dropped first) or warm, or around it with O_DIRECT, one request at a time with
 * pread(2) or many in flight with io_uring. Each case matches one fio job, the result's anchor
 * ("fio --rw=read ..."), which is the figure it is checked against.
 */
public record ReadTest(Pattern pattern, Cache cache, Engine engine, int depth) implements TestCase<IoTarget> {
    static final int SEQ_BLOCK = 1 << 20, RAND_BLOCK = 4096;
    /** Samples kept at least; the loop stops there once the median is known within {@link #WITHIN}. */
    static final int SAMPLES = 5;
    /** Samples kept at most, and how closely the median must be known before that: fio's own runs of one job differ more. */
    static final int MOST_SAMPLES = 25;
    static final double WITHIN = 0.05;

    /**
     * Five samples and more until the median is within 5%, at most {@link #MOST_SAMPLES} or some
     * seconds of samples: ten samples' time for a time-based sample (a second at the default 100 ms,
     * what fio's job runs: five samples' time, in whole seconds and at least one, {@link FioReadJob}),
     * a second for sequential passes, whose length only the disk tells (five passes of 256 MiB take
     * 0.85 s at the H100 VM's 1.6 GB/s; a slower disk takes its five whatever the cap). A disk that has
     * not settled by then does not settle later: on the H100 VM the random reads stopped at a 3 s cap
     * with their medians known only to 5-21%, the cold and O_DIRECT passes that did not settle at
     * 3.0-4.1 s to 7-14% (docs/measurements/2026-12-07-report-h100.md), and a quick report's cold and
     * depth-32 passes ran to the 2 s cap there, 4.2 s of its 16.9
     * (docs/measurements/2026-12-08-minute-cuts/quick-stamped-h100.txt). The report says so
     * ({@link hostside.harness.Settling}) rather than taking longer.
     */
    static final Duration SEQUENTIAL_CAP = Duration.ofSeconds(1);

    Sampling sampling(IoTarget t) {
        Duration cap = pattern == Pattern.SEQUENTIAL ? SEQUENTIAL_CAP : Duration.ofNanos(Math.multiplyExact(t.sampleNanos(), 2L * SAMPLES));
        return Sampling.untilSettled(1, SAMPLES, MOST_SAMPLES, WITHIN, cap);
    }

    public enum Pattern { SEQUENTIAL, RANDOM }

    /**
     * Through the page cache with its pages dropped first, through it once they are all cached (by
     * one sequential pass over the file after its pages were dropped, so that earlier cases leave no
     * trace in the figure), or around it.
     */
    public enum Cache { COLD, WARM, DIRECT }

    public enum Engine { PSYNC, IO_URING }

    public static List<TestCase<IoTarget>> all() {
        return List.of(
                new ReadTest(Pattern.SEQUENTIAL, Cache.COLD, Engine.PSYNC, 1),
                new ReadTest(Pattern.SEQUENTIAL, Cache.WARM, Engine.PSYNC, 1),
                new ReadTest(Pattern.SEQUENTIAL, Cache.DIRECT, Engine.PSYNC, 1),
                new ReadTest(Pattern.SEQUENTIAL, Cache.DIRECT, Engine.IO_URING, 32),
                new ReadTest(Pattern.RANDOM, Cache.COLD, Engine.PSYNC, 1),
                new ReadTest(Pattern.RANDOM, Cache.WARM, Engine.PSYNC, 1),
                new ReadTest(Pattern.RANDOM, Cache.DIRECT, Engine.PSYNC, 1),
                new ReadTest(Pattern.RANDOM, Cache.DIRECT, Engine.IO_URING, 1),
                new ReadTest(Pattern.RANDOM, Cache.DIRECT, Engine.IO_URING, 32));
    }

    public int block() {
        return pattern == Pattern.SEQUENTIAL ? SEQ_BLOCK : RAND_BLOCK;
    }

    public String key() {
        return (pattern == Pattern.SEQUENTIAL ? "seq" : "rand") + "_read_" + cache.name().toLowerCase()
                + (engine == Engine.IO_URING ? "_uring" : "") + "_qd" + depth;
    }

    public String description() {
        String what = pattern == Pattern.SEQUENTIAL ? "sequential 1 MiB reads" : "random 4 KiB reads";
        String how = switch (cache) {
            case COLD -> "through the page cache, its pages dropped first (cold)";
            case WARM -> "from the page cache (warm)";
            case DIRECT -> "with O_DIRECT (no page cache)";
        };
        return what + " " + how + ", " + (engine == Engine.IO_URING ? "io_uring" : "pread") + " at queue depth " + depth;
    }

    public Optional<String> notApplicable(IoTarget t) {
        if (engine == Engine.IO_URING && t.uringUnavailable() != null) return Optional.of(t.uringUnavailable());
        if (t.inMemory() && cache != Cache.WARM) {
            return Optional.of("the file is on " + t.dirFilesystem() + ": it lives in memory, so there is no cold read and no disk for O_DIRECT to read from (use --dir on a disk)");
        }
        return Optional.empty();
    }

    /**
     * What a read result holds beside its figure. The figure's other unit (IOPS beside GB/s, or GB/s
     * beside IOPS) is not kept: every request reads one whole block, so it is the figure scaled by
     * the block size ({@link #otherUnit}), sample by sample. The fio job is the result's anchor.
     *
     * @param file                  the file read
     * @param fileBytes             its size
     * @param blockBytes            bytes per request: 1 MiB sequential, 4 KiB random
     * @param queueDepth            requests in flight
     * @param engine                "psync" or "io_uring", as fio names them
     * @param latencyUs             each request's time from submission to completion, over all kept samples, in us
     * @param residentBeforePercent cold reads: the largest share of the file still cached when a sample began
     *                              (0 for a true cold read); null for the others
     * @param pageCacheBytes        the file's bytes in the page cache after the samples; null with O_DIRECT
     * @param bufferPieces          O_DIRECT reads of more than a page: into how many physically contiguous pieces each
     *                              request's buffer fell, the mean over the requests in flight ({@link PhysicalPieces}: one
     *                              DMA segment each, which a VM's virtual disk pays for one by one); null when not known
     *                              (frame numbers are root's) or not an O_DIRECT read of more than a page
     * @param overall               the figure over all kept samples together (every byte or request over their summed
     *                              time), as fio computes its own: below the median when a few samples stalled; null in
     *                              a report that did not keep it
     * @param requestsPerRead       O_DIRECT reads: the requests the file's disk completed per read over the case (warm-up
     *                              and samples), from /sys/block/DISK/stat ({@link DiskRequests}): 2 where each read was
     *                              split in two, below 1 where reads were merged; every reader of the disk counts; null
     *                              when not one known disk
     * @param maxSegments           that disk's queue/max_segments: a buffer in more pieces than this is split; null when not read
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ReadDetail(String file, long fileBytes, int blockBytes, int queueDepth, String engine, Distribution latencyUs,
                             Double residentBeforePercent, Long pageCacheBytes, Double bufferPieces, Double overall,
                             Double requestsPerRead, Long maxSegments) implements Detail {

        /** The figure in the other unit: IOPS for a result in GB/s, GB/s for one in IOPS; the same samples, scaled. */
        public Stats otherUnit(Unit unit, Stats value) {
            double k = unit == Unit.GB_PER_S ? 1e9 / blockBytes : blockBytes / 1e9;
            return new Stats(value.median() * k, value.min() * k, value.max() * k, value.samples());
        }

        public static Unit otherUnit(Unit unit) {
            return unit == Unit.GB_PER_S ? Unit.IOPS : Unit.GB_PER_S;
        }

        /**
         * The figures of {@code r} (its own result, measured) that live here: the other unit
         * ({@code <key>_iops} or {@code <key>_gbps}), the latency's p50 and p99 ({@code <key>_p50},
         * {@code <key>_p99}; fio's clat percentiles) and the page cache the file held after
         * ({@code <key>_page_cache}). A latency of an old report, which kept no count, gives none.
         */
        public List<Figure> figures(Result r, Scope scope) {
            List<Figure> out = new ArrayList<>();
            Unit other = otherUnit(r.unit());
            Stats o = otherUnit(r.unit(), r.value());
            out.add(new Figure(r.key() + (other == Unit.IOPS ? "_iops" : "_gbps"), scope, o.median(), other, other.usually, o.min(), o.max(),
                    o.samples(), r.method() + "; the same samples in " + other + " (every request reads " + blockBytes + " bytes)", r.anchor()));
            if (latencyUs != null && latencyUs.count() > 0) {
                int n = (int) Math.min(Integer.MAX_VALUE, latencyUs.count());
                String how = "each request's time from submission to completion, over every request of the kept samples";
                out.add(new Figure(r.key() + "_p50", scope, latencyUs.p50(), Unit.US, Better.LOWER, latencyUs.p50(), latencyUs.p50(), n, how, r.anchor()));
                out.add(new Figure(r.key() + "_p99", scope, latencyUs.p99(), Unit.US, Better.LOWER, latencyUs.p99(), latencyUs.p99(), n, how, r.anchor()));
            }
            if (pageCacheBytes != null) {
                out.add(new Figure(r.key() + "_page_cache", scope, pageCacheBytes, Unit.BYTES, Better.LOWER, pageCacheBytes, pageCacheBytes, 1,
                        "the file's pages resident after the samples: mincore(2) over a read-only mapping", null));
            }
            return out;
        }
    }

    @Override
    public Class<? extends Detail> detailType() {
        return ReadDetail.class;
    }

    /** One sample: bytes and requests done in a time, and for cold reads the share of the file cached as it began. */
    record Sample(long bytes, long ops, long nanos, double residentBefore) {
        Sample coldFrom(double resident) {
            return new Sample(bytes, ops, nanos, resident);
        }

        /** The samples as one: their bytes, requests and time added up. */
        static Sample sum(List<Sample> samples) {
            return new Sample(samples.stream().mapToLong(Sample::bytes).sum(), samples.stream().mapToLong(Sample::ops).sum(),
                    samples.stream().mapToLong(Sample::nanos).sum(), 0);
        }
    }

    /** A sample's figure: GB/s for sequential reads, IOPS for random ones. */
    double figure(Sample s) {
        return pattern == Pattern.SEQUENTIAL ? s.bytes() / (double) s.nanos() : s.ops() * 1e9 / s.nanos();
    }

    /**
     * Its samples' timed windows, as fio's --runtime; a cold sequential read reads a whole pass of
     * the file instead, whose length only the disk tells, and declares none.
     */
    @Override
    public Optional<Duration> cost(IoTarget t) {
        if (pattern == Pattern.SEQUENTIAL && cache == Cache.COLD) return Optional.empty();
        return Optional.of(Duration.ofNanos(Math.multiplyExact(t.sampleNanos(), (long) SAMPLES)));
    }

    public Result run(IoTarget t) {
        String path = t.file().get().toString();
        int flags = cache == Cache.DIRECT ? FileIo.O_DIRECT : 0;
        int fd;
        try {
            fd = FileIo.open(path, flags, 0);
        } catch (LibcException e) {
            if (cache == Cache.DIRECT && e.errno() == 22) return Result.notRun(this, t.dirFilesystem() + " refuses O_DIRECT (EINVAL)");
            throw e;
        }
        Histogram latency = new Histogram(60_000_000_000L, 3);
        List<Sample> kept;
        long cachedAfter = -1;
        Double pieces = null;
        String ringFlags = null;
        Buffers buffers = null;
        DiskRequests disk = cache == Cache.DIRECT ? t.disk() : null;
        DiskRequests.Count before = disk == null ? null : disk.count().orElse(null);
        Double perRead = null;
        try {
            buffers = wholeBuffers(t) ? Buffers.whole(block(), depth, t.hugePage()) : Buffers.map(block(), depth);
            try (IoUring ring = engine == Engine.IO_URING ? IoUring.open(depth) : null) {
                ringFlags = ring == null ? null : ring.setupFlags();
                ReadSampler sampler = new ReadSampler(this, fd, t, ring, buffers.blocks(), new SplittableRandom(7));
                kept = sampling(t).each(i -> {
                    if (i < 0) { // warm-up: the JIT, and for WARM the file into the page cache
                        // WARM drops the file's pages too, then reads it once in order: the cache then holds
                        // it as a sequential read leaves it, in large folios, whatever ran before. After
                        // rand_read_cold's random reads even a full sequential pass leaves nearly every page a
                        // 4 KiB folio of its own (/proc/kpageflags, dev VM), and random warm reads then came
                        // 0.6-0.8 of the same reads on a cache of large folios
                        // (docs/measurements/2026-12-04-peers-final.md, "Warm reads and what ran before")
                        if (cache != Cache.DIRECT) PageCache.evict(path, t.fileBytes(), t.pageSize());
                        if (cache == Cache.WARM) sampler.readAll();
                        else sampler.sample(new Histogram(60_000_000_000L, 3), Math.min(t.sampleNanos() / 4, 250_000_000L), true);
                        return null;
                    }
                    double resident = cache == Cache.COLD ? PageCache.evict(path, t.fileBytes(), t.pageSize()) : 0;
                    return sampler.sample(latency, t.sampleNanos(), false).coldFrom(resident);
                }, this::figure);
            }
            if (cache != Cache.DIRECT) cachedAfter = PageCache.residentBytes(path, t.fileBytes(), t.pageSize());
            if (segmented(t)) pieces = PhysicalPieces.perBlock(buffers.blocks(), block(), depth, t.pageSize());
            if (disk != null) perRead = DiskRequests.perRead(before, disk.count().orElse(null), block()).orElse(null);
        } finally {
            FileIo.close(fd);
            if (buffers != null) buffers.close(); // after the ring: nothing is in flight into it any more
        }
        double[] figures = kept.stream().mapToDouble(this::figure).toArray();
        ReadDetail d = new ReadDetail(path, t.fileBytes(), block(), depth, engine == Engine.IO_URING ? "io_uring" : "psync", latencyUs(latency),
                cache == Cache.COLD ? kept.stream().mapToDouble(Sample::residentBefore).max().orElse(0) * 100 : null,
                cachedAfter >= 0 ? cachedAfter : null, pieces, figure(Sample.sum(kept)), perRead,
                disk == null ? null : disk.maxSegments());
        return Result.ok(this, pattern == Pattern.SEQUENTIAL ? Unit.GB_PER_S : Unit.IOPS, Stats.of(figures), method(t, ringFlags), "fio " + fioOptions(t), d);
    }

    /** Whether each read is a DMA into as many segments as its buffer has physical pieces: O_DIRECT reads of more than a page. */
    boolean segmented(IoTarget t) {
        return cache == Cache.DIRECT && block() > t.pageSize();
    }

    /** Whether its buffers are made whole ({@link Buffers#whole}): {@link #segmented} reads, on a machine with a huge page to use. */
    boolean wholeBuffers(IoTarget t) {
        return segmented(t) && t.hugePage() != null;
    }

    /** How the figure was made, in words: the engine (and the ring's setup flags), the cache, the buffers, the samples. */
    String method(IoTarget t, String ringFlags) {
        return (engine == Engine.IO_URING ? "io_uring (IORING_OP_READ, " + depth + " in flight, each submitted as it is queued, as fio's default iodepth_batch_submit=1 does, setup " + ringFlags + ")" : "pread(2), one at a time")
                + (cache == Cache.DIRECT ? ", O_DIRECT" : "")
                + (cache == Cache.COLD ? ", posix_fadvise(DONTNEED) before each sample" : "")
                + (cache == Cache.WARM ? ", the file's pages dropped then read once in order before the samples (the page cache as a sequential read leaves it)" : "")
                + (cache != Cache.DIRECT ? ", no access-pattern hint (as a loader gives none)" : "")
                // a cached 4 KiB read is about a microsecond, and the reader's own work per read shows in it: fio's, its
                // statistics, was 0.26 us of user time a read on the H100 against hostside's two clock reads and a
                // histogram record (docs/measurements/2026-12-07-io-equal-to-fio.md)
                + (cache == Cache.WARM && pattern == Pattern.RANDOM
                ? " (at a microsecond a read the reader's own work shows: hostside's is two clock reads and a histogram record a read, fio's its statistics)" : "")
                + (wholeBuffers(t)
                ? "; one buffer region for the reads in flight, in " + Units.bytes(t.hugePage().bytes()) + " transparent huge pages (MADV_HUGEPAGE)"
                + " so that each request's buffer is one physical piece, as fio's --iomem=shmhuge (which needs "
                + FioReadJob.hugePagesNeeded(this, t.hugePage(), t.pageSize()) + " huge pages reserved: vm.nr_hugepages)"
                : "; one buffer region for the reads in flight, as fio's --iomem=mmap")
                + ", its pages faulted in by the warm-up's reads"
                + (pattern == Pattern.SEQUENTIAL ? "; samples of " + Units.bytes(t.sequentialSampleBytes())
                : "; samples of " + t.sampleNanos() / 1_000_000 + " ms at uniformly random offsets, each drawn anew")
                + String.format(Locale.ROOT, ", %d and more until the median is known within %.0f%% (at most %d)", SAMPLES, WITHIN * 100, MOST_SAMPLES)
                + "; host clock";
    }

    /** The recorded latencies (ns) as microseconds: the quantiles fio prints as clat percentiles. */
    static Distribution latencyUs(Histogram h) {
        return new Distribution(Unit.US, h.getTotalCount(), h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3,
                h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, List.of());
    }

    /**
     * The options of the fio job that measures the same thing on a file of this size (random
     * offsets span the whole file); the file's name is left to whoever runs it, on a file of theirs.
     */
    public String fioOptions(IoTarget t) {
        return FioReadJob.options(this, t);
    }
}
