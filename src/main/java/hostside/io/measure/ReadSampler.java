package hostside.io.measure;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

import org.HdrHistogram.Histogram;

import hostside.io.uring.IoUring;
import hostside.libc.Errno;
import hostside.libc.FileIo;

/**
 * The read loops of a {@link ReadTest}, one per engine (pread, io_uring), over one open file and its
 * buffers: what one sample reads and how long it took, every request's latency recorded.
 */
final class ReadSampler {
    private final ReadTest.Pattern pattern;
    private final int depth;
    private final int block;
    private final int fd;
    private final IoTarget t;
    private final IoUring ring;
    private final MemorySegment buffers;
    private final SplittableRandom rnd;
    private final long[] submitted;
    private long nextOffset;

    ReadSampler(ReadTest test, int fd, IoTarget t, IoUring ring, MemorySegment buffers, SplittableRandom rnd) {
        this.pattern = test.pattern();
        this.depth = test.depth();
        this.block = test.block();
        this.fd = fd;
        this.t = t;
        this.ring = ring;
        this.buffers = buffers;
        this.rnd = rnd;
        this.submitted = new long[depth];
    }

    void readAll() {
        MemorySegment b = buffers.asSlice(0, block);
        for (long off = 0; off < t.fileBytes(); off += block) FileIo.pread(fd, b, block, off);
    }

    private long offset() {
        long blocks = t.fileBytes() / block;
        if (pattern == ReadTest.Pattern.RANDOM) return rnd.nextLong(blocks) * block;
        long o = nextOffset;
        nextOffset = (nextOffset + block) % (blocks * block);
        return o;
    }

    /** Sequential: one sample's worth of bytes (an eighth for the warm-up); random: reads until {@code nanos} have passed. */
    ReadTest.Sample sample(Histogram latency, long nanos, boolean warmUp) {
        boolean bySize = pattern == ReadTest.Pattern.SEQUENTIAL;
        long wantOps = bySize ? t.sequentialSampleBytes() / block : Long.MAX_VALUE;
        if (bySize && warmUp) wantOps = Math.max(1, wantOps / 8);
        return ring == null ? psync(latency, nanos, wantOps, bySize) : uring(latency, nanos, wantOps, bySize);
    }

    private ReadTest.Sample psync(Histogram latency, long nanos, long wantOps, boolean bySize) {
        MemorySegment b = buffers.asSlice(0, block);
        long ops = 0, bytes = 0, start = System.nanoTime(), now = start;
        while (bySize ? ops < wantOps : now - start < nanos) {
            long off = offset();
            long t0 = System.nanoTime();
            long n = FileIo.pread(fd, b, block, off);
            now = System.nanoTime();
            if (n != block) throw new IllegalStateException("short read: " + n + " of " + block + " bytes at offset " + off);
            latency.recordValue(Math.min(now - t0, latency.getHighestTrackableValue()));
            ops++;
            bytes += n;
        }
        return new ReadTest.Sample(bytes, ops, now - start, 0);
    }

    private ReadTest.Sample uring(Histogram latency, long nanos, long wantOps, boolean bySize) {
        long[] done = new long[2]; // ops, bytes
        long queued = 0, start = System.nanoTime();
        RuntimeException[] failed = new RuntimeException[1];
        for (int slot = 0; slot < depth && queued < wantOps; slot++, queued++) queue(slot);
        long now = start;
        int[] refill = new int[depth];
        int[] count = new int[1];
        while (ring.outstanding() > 0) {
            // only waits: every read was submitted when it was queued
            ring.submit(1);
            long reapedAt = System.nanoTime();
            now = reapedAt;
            boolean more = bySize ? queued < wantOps : now - start < nanos;
            count[0] = 0;
            ring.reap(c -> {
                int slot = (int) c.userData();
                if (c.result() != block) {
                    failed[0] = new IllegalStateException(c.result() < 0 ? "io_uring read: " + Errno.describe(-c.result())
                            : "short read: " + c.result() + " of " + block + " bytes");
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
        return new ReadTest.Sample(done[1], done[0], now - start, 0);
    }

    /**
     * Queues one read and submits it at once, in its own io_uring_enter, as fio does by
     * default (iodepth_batch_submit=1), and apart from the wait for completions. Submitting
     * the refills together in the enter that also waits (one syscall a round) was measured
     * on the H200 VM at 0.82 of fio's IOPS with the device holding 32 reads all along: each
     * read took longer there, not fewer were in flight (docs/measurements/2026-12-04-peers-final.md).
     */
    private void queue(int slot) {
        MemorySegment b = buffers.asSlice((long) slot * block, block);
        submitted[slot] = System.nanoTime();
        if (!ring.queueRead(fd, b, block, offset(), slot)) throw new IllegalStateException("io_uring submission ring full");
        ring.submit(0);
    }

    /** Waits out what is still in flight, so no read lands in a buffer being freed. */
    private void drain() {
        while (ring.outstanding() > 0) {
            ring.submit(1);
            ring.reap(c -> { });
        }
    }
}
