package hostside.io.measure;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import hostside.harness.Result;
import hostside.harness.Stats;
import hostside.harness.TestCase;
import hostside.harness.TestFile;
import hostside.libc.FileIo;

/**
 * Writing a checkpoint-sized file in 1 MiB pwrite(2) calls: without fsync, which measures how
 * fast the page cache takes the bytes (they reach the disk later, and a crash loses them), and
 * with fsync at the end, which is what a checkpoint that must survive costs. Each sample writes
 * a fresh file, deleted after (and on Ctrl-C).
 */
public record WriteTest(boolean fsync) implements TestCase<IoTarget> {
    static final int BLOCK = 1 << 20, SAMPLES = 3;

    public static List<TestCase<IoTarget>> all() {
        return List.of(new WriteTest(false), new WriteTest(true));
    }

    public String key() {
        return fsync ? "write_fsync" : "write_buffered";
    }

    public String description() {
        return "sequential 1 MiB writes of a new file" + (fsync ? ", then fsync: the bytes are on the disk" : ", no fsync: the page cache takes them");
    }

    public Result run(IoTarget t) {
        double[] gbs = new double[SAMPLES];
        double[] syncMs = new double[SAMPLES];
        try (Arena arena = Arena.ofConfined(); TestFile file = TestFile.scratch(t.dir(), "io-write")) {
            MemorySegment block = arena.allocate(BLOCK, 4096);
            // incompressible bytes: a virtual disk that compresses or deduplicates zeros would flatter the figure
            SplittableRandom rnd = new SplittableRandom(11);
            for (long i = 0; i < BLOCK; i += 8) block.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i, rnd.nextLong());
            for (int i = -1; i < SAMPLES; i++) {
                long[] times = writeOnce(file, block, t.writeBytes());
                file.delete();
                if (i < 0) continue; // warm-up
                gbs[i] = t.writeBytes() / (double) times[0];
                syncMs[i] = times[1] / 1e6;
            }
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("bytes", t.writeBytes());
        d.put("blockBytes", BLOCK);
        if (fsync) d.put("fsyncMs", Stats.of(syncMs).median());
        d.put("fio", "--rw=write --bs=1M --ioengine=psync --iodepth=1 --direct=0 --end_fsync=" + (fsync ? 1 : 0) + " --size=" + t.writeBytes());
        return Result.ok(this, "GB/s", Stats.of(gbs), "pwrite(2) in 1 MiB calls" + (fsync ? ", then fsync(2), both timed" : ", timed without the flush")
                + "; a new file per sample; host clock", d);
    }

    /** Writes the file; returns {nanoseconds timed, of which fsync}. Unsynced bytes are flushed after, outside the timing. */
    private long[] writeOnce(TestFile file, MemorySegment block, long bytes) {
        int fd = FileIo.open(file.path().toString(), FileIo.O_WRONLY | FileIo.O_CREAT | FileIo.O_TRUNC, 0600);
        try {
            long start = System.nanoTime();
            for (long off = 0; off < bytes; off += BLOCK) {
                long n = FileIo.pwrite(fd, block, Math.min(BLOCK, bytes - off), off);
                long want = Math.min(BLOCK, bytes - off);
                if (n != want) throw new IllegalStateException("pwrite wrote " + n + " of " + want + " bytes");
            }
            long written = System.nanoTime();
            // the next measurement must not share the disk with this one's flush
            FileIo.fsync(fd);
            long synced = System.nanoTime();
            return fsync ? new long[] {synced - start, synced - written} : new long[] {written - start, 0};
        } finally {
            FileIo.close(fd);
        }
    }
}
