package hostside.io.measure;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import org.HdrHistogram.Histogram;

import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;
import hostside.io.uring.IoUring;
import hostside.libc.FileIo;
import hostside.libc.LibcException;

/**
 * Reads of the test file the way a checkpoint loader or a dataset reader might: sequential
 * 1 MiB reads (bandwidth, GB/s) or random 4 KiB reads (IOPS), through the page cache cold
 * (its pages dropped first) or warm, or around it with O_DIRECT, one request at a time with
 * pread(2) or many in flight with io_uring. Each case matches one fio job (its options are in
 * the result's detail as {@code fio}), which is the figure it is checked against.
 */
public record ReadTest(Pattern pattern, Cache cache, Engine engine, int depth) implements TestCase<IoTarget> {
    static final int SEQ_BLOCK = 1 << 20, RAND_BLOCK = 4096;
    static final int SAMPLES = 5;

    public enum Pattern { SEQUENTIAL, RANDOM }

    /** Through the page cache with its pages dropped first, through it once they are all cached, or around it. */
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
            return Optional.of("the file is on " + t.dirFilesystem() + ": it lives in memory, so there is no cold read and O_DIRECT is refused (use --dir on a disk)");
        }
        return Optional.empty();
    }

    /** One sample: bytes and requests done in a time, and each request's latency (ns). */
    record Sample(long bytes, long ops, long nanos) {}

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
        double[] figures = new double[SAMPLES];
        double[] other = new double[SAMPLES];
        double residentBefore = 0;
        long cachedAfter = -1;
        try (Arena arena = Arena.ofConfined(); IoUring ring = engine == Engine.IO_URING ? IoUring.open(depth) : null) {
            MemorySegment buffers = arena.allocate((long) block() * depth, 4096);
            buffers.fill((byte) 1); // touched here, not inside the timing
            SplittableRandom rnd = new SplittableRandom(7);
            Sampler sampler = new Sampler(fd, t, ring, buffers, rnd);
            // warm-up: the JIT, the device's own caches, and for WARM the file into the page cache
            if (cache == Cache.WARM) sampler.readAll();
            else {
                if (cache == Cache.COLD) PageCache.evict(path, t.fileBytes(), t.pageSize());
                sampler.sample(new Histogram(60_000_000_000L, 3), Math.min(t.sampleNanos() / 4, 250_000_000L), true);
            }
            for (int i = 0; i < SAMPLES; i++) {
                if (cache == Cache.COLD) residentBefore = Math.max(residentBefore, PageCache.evict(path, t.fileBytes(), t.pageSize()));
                Sample s = sampler.sample(latency, t.sampleNanos(), false);
                double gbs = s.bytes() / (double) s.nanos(), iops = s.ops() * 1e9 / s.nanos();
                figures[i] = pattern == Pattern.SEQUENTIAL ? gbs : iops;
                other[i] = pattern == Pattern.SEQUENTIAL ? iops : gbs;
            }
            if (cache != Cache.DIRECT) cachedAfter = PageCache.residentBytes(path, t.fileBytes(), t.pageSize());
        } finally {
            FileIo.close(fd);
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("file", path);
        d.put("fileBytes", t.fileBytes());
        d.put("blockBytes", block());
        d.put("queueDepth", depth);
        d.put("engine", engine == Engine.IO_URING ? "io_uring" : "psync");
        if (pattern == Pattern.SEQUENTIAL) d.put("iops", Stats.of(other).median());
        else d.put("gbPerS", Stats.of(other).median());
        d.put("latencyUs", Map.of("p50", latency.getValueAtPercentile(50) / 1e3, "p99", latency.getValueAtPercentile(99) / 1e3,
                "max", latency.getMaxValue() / 1e3));
        if (cache == Cache.COLD) d.put("residentBeforePercent", residentBefore * 100);
        if (cachedAfter >= 0) d.put("pageCacheBytes", cachedAfter);
        d.put("fio", fioOptions(t));
        String method = (engine == Engine.IO_URING ? "io_uring (IORING_OP_READ, " + depth + " in flight)" : "pread(2), one at a time")
                + (cache == Cache.DIRECT ? ", O_DIRECT, 4 KiB-aligned buffers" : "")
                + (cache == Cache.COLD ? ", posix_fadvise(DONTNEED) before each sample" : "")
                + (pattern == Pattern.SEQUENTIAL ? "; " + SAMPLES + " samples of " + hostside.core.Units.bytes(t.sequentialSampleBytes())
                : "; " + SAMPLES + " samples of " + t.sampleNanos() / 1_000_000 + " ms at uniformly random offsets") + "; host clock";
        return Result.ok(this, pattern == Pattern.SEQUENTIAL ? hostside.core.Unit.GB_PER_S : hostside.core.Unit.IOPS, Stats.of(figures), method, d);
    }

    /** The fio job that measures the same thing (filename and size are added by whoever runs it). */
    public String fioOptions(IoTarget t) {
        StringBuilder s = new StringBuilder("--rw=").append(pattern == Pattern.SEQUENTIAL ? "read" : "randread")
                .append(" --bs=").append(pattern == Pattern.SEQUENTIAL ? "1M" : "4k")
                .append(" --ioengine=").append(engine == Engine.IO_URING ? "io_uring" : "psync")
                .append(" --iodepth=").append(depth)
                .append(" --direct=").append(cache == Cache.DIRECT ? 1 : 0);
        // fio drops the file's cached pages before every job unless told not to (invalidate=1 is its default)
        s.append(" --invalidate=").append(cache == Cache.COLD ? 1 : 0);
        if (pattern == Pattern.SEQUENTIAL && cache == Cache.COLD) s.append(" --io_size=").append(t.sequentialSampleBytes());
        else s.append(" --time_based --runtime=").append(Math.max(1, t.sampleNanos() * SAMPLES / 1_000_000_000L));
        return s.toString();
    }

    /** The read loops, one per engine, over one open file and its buffers. */
    private final class Sampler {
        private final int fd;
        private final IoTarget t;
        private final IoUring ring;
        private final MemorySegment buffers;
        private final SplittableRandom rnd;
        private final long[] submitted;
        private long nextOffset;

        Sampler(int fd, IoTarget t, IoUring ring, MemorySegment buffers, SplittableRandom rnd) {
            this.fd = fd;
            this.t = t;
            this.ring = ring;
            this.buffers = buffers;
            this.rnd = rnd;
            this.submitted = new long[depth];
        }

        void readAll() {
            MemorySegment b = buffers.asSlice(0, block());
            for (long off = 0; off < t.fileBytes(); off += block()) FileIo.pread(fd, b, block(), off);
        }

        private long offset() {
            long blocks = t.fileBytes() / block();
            if (pattern == Pattern.RANDOM) return rnd.nextLong(blocks) * block();
            long o = nextOffset;
            nextOffset = (nextOffset + block()) % (blocks * block());
            return o;
        }

        /** Sequential: one sample's worth of bytes (an eighth for the warm-up); random: reads until {@code nanos} have passed. */
        Sample sample(Histogram latency, long nanos, boolean warmUp) {
            boolean bySize = pattern == Pattern.SEQUENTIAL;
            long wantOps = bySize ? t.sequentialSampleBytes() / block() : Long.MAX_VALUE;
            if (bySize && warmUp) wantOps = Math.max(1, wantOps / 8);
            return ring == null ? psync(latency, nanos, wantOps, bySize) : uring(latency, nanos, wantOps, bySize);
        }

        private Sample psync(Histogram latency, long nanos, long wantOps, boolean bySize) {
            MemorySegment b = buffers.asSlice(0, block());
            long ops = 0, bytes = 0, start = System.nanoTime(), now = start;
            while (bySize ? ops < wantOps : now - start < nanos) {
                long off = offset();
                long t0 = System.nanoTime();
                long n = FileIo.pread(fd, b, block(), off);
                now = System.nanoTime();
                if (n != block()) throw new IllegalStateException("short read: " + n + " of " + block() + " bytes at offset " + off);
                latency.recordValue(Math.min(now - t0, latency.getHighestTrackableValue()));
                ops++;
                bytes += n;
            }
            return new Sample(bytes, ops, now - start);
        }

        private Sample uring(Histogram latency, long nanos, long wantOps, boolean bySize) {
            long[] done = new long[2]; // ops, bytes
            long queued = 0, start = System.nanoTime();
            RuntimeException[] failed = new RuntimeException[1];
            for (int slot = 0; slot < depth && queued < wantOps; slot++, queued++) queue(slot);
            long now = start;
            int[] refill = new int[depth];
            int[] count = new int[1];
            while (ring.outstanding() > 0) {
                ring.submit(1);
                long reapedAt = System.nanoTime();
                now = reapedAt;
                boolean more = bySize ? queued < wantOps : now - start < nanos;
                count[0] = 0;
                ring.reap(c -> {
                    int slot = (int) c.userData();
                    if (c.result() != block()) {
                        failed[0] = new IllegalStateException(c.result() < 0 ? "io_uring read: " + hostside.libc.Errno.describe(-c.result())
                                : "short read: " + c.result() + " of " + block() + " bytes");
                        return;
                    }
                    latency.recordValue(Math.min(reapedAt - submitted[slot], latency.getHighestTrackableValue()));
                    done[0]++;
                    done[1] += c.result();
                    refill[count[0]++] = slot;
                });
                if (failed[0] != null) {
                    drain();
                    throw failed[0];
                }
                for (int i = 0; i < count[0] && more && queued < wantOps; i++, queued++) queue(refill[i]);
            }
            return new Sample(done[1], done[0], now - start);
        }

        private void queue(int slot) {
            MemorySegment b = buffers.asSlice((long) slot * block(), block());
            submitted[slot] = System.nanoTime();
            if (!ring.queueRead(fd, b, block(), offset(), slot)) throw new IllegalStateException("io_uring submission ring full");
        }

        /** Waits out what is still in flight, so no read lands in a buffer being freed. */
        private void drain() {
            while (ring.outstanding() > 0) {
                ring.submit(1);
                ring.reap(c -> { });
            }
        }
    }
}
