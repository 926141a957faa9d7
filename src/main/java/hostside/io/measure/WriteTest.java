package hostside.io.measure;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;
import hostside.harness.TestData;
import hostside.harness.TestFile;
import hostside.libc.FileIo;

/**
 * Writing a checkpoint-sized file in 1 MiB pwrite(2) calls: without fsync, which measures how
 * fast the page cache takes the bytes (they reach the disk later, and a crash loses them), and
 * with fsync at the end, which is what a checkpoint that must survive costs. Each sample writes
 * a new file of hostside's ({@link TestFile#createNew}: a random name, never through a link),
 * deleted after, and on Ctrl-C; none is made once that cleanup ran.
 */
public record WriteTest(boolean fsync) implements TestCase<IoTarget> {
    static final int BLOCK = 1 << 20;
    /**
     * A first file thrown away (the page cache it leaves is what the next writes into), then five
     * and more until the median is within 5%, at most seven files or four seconds of them (each
     * file's flush and removal count: some 0.45 s a 512 MiB file on the H100 VM, before samples were cut to 256 MiB). fio's job writes
     * one file after its warm-up; on the H100 VM ten files left the median known only to 10-23%
     * (docs/measurements/2026-12-07-report-h100.md): more files do not settle a disk that does not.
     */
    static final Sampling SAMPLING = Sampling.untilSettled(1, 5, 7, 0.05, Duration.ofSeconds(4));

    public static List<TestCase<IoTarget>> all() {
        return List.of(new WriteTest(false), new WriteTest(true));
    }

    public String key() {
        return fsync ? "write_fsync" : "write_buffered";
    }

    public String description() {
        return "sequential 1 MiB writes of a new file" + (fsync ? ", then fsync: the bytes are on the disk" : ", no fsync: the page cache takes them");
    }

    public Optional<String> notApplicable(IoTarget t) {
        if (fsync && t.inMemory()) {
            return Optional.of("the file is on " + t.dirFilesystem() + ": it lives in memory, so fsync has no disk to reach (use --dir on a disk)");
        }
        return Optional.empty();
    }

    public Result run(IoTarget t) {
        try (TestFile file = TestFile.scratch(t.dir(), "io-write")) {
            return run(t, file);
        }
    }

    /**
     * What a write result holds beside its figure; the fio job is the result's anchor.
     *
     * @param bytes      bytes written per sample (one new file)
     * @param blockBytes bytes per pwrite(2) call
     * @param fsyncMs    with fsync: how long the fsync(2) at the end took, per sample, in ms; null without
     * @param overall    GB/s over all samples together (every byte over the summed time), as fio computes its own;
     *                   null in a report that did not keep it
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record WriteDetail(long bytes, int blockBytes, Stats fsyncMs, Double overall) implements Detail {
        /** The figure that lives here: the fsync's time ({@code <key>_fsync}, ms), when there was one. */
        public List<Figure> figures(Result r, Scope scope) {
            if (fsyncMs == null) return List.of();
            return List.of(new Figure(r.key() + "_fsync", scope, fsyncMs.median(), Unit.MS, Better.LOWER, fsyncMs.min(), fsyncMs.max(),
                    fsyncMs.samples(), "fsync(2) of each sample's new file after its writes; host clock", null));
        }
    }

    @Override
    public Class<? extends Detail> detailType() {
        return WriteDetail.class;
    }

    /**
     * The fio jobs that write the same: 1 MiB buffered writes of a new file of this size, with fsync
     * at its end or not, after a first file of the same size written, synced and removed
     * ({@code --name=warmup ... --unlink=1}, then the measured job behind {@code --stonewall}). Each
     * of hostside's samples writes into the page cache that the sample before it gave back when its
     * file was removed; on a VM that returns freed memory to its host (virtio-balloon free page
     * reporting, about two seconds after the free) a write into memory taken back from the host pays a
     * host fault per page and ran several times slower (dev VM: 0.5-0.7 against 3.9-5.5 GB/s, fio
     * both, 2026-12-07). fio's single job got whichever memory the process before it left, which made
     * its own figure swing; its warm-up job gives it what hostside's samples get. fio's job options
     * given before the first {@code --name} apply to both jobs.
     * {@code --fallocate=none}: fio reserves a write job's blocks with posix_fallocate before it
     * writes unless told not to, and a file whose blocks are reserved takes buffered writes faster
     * (ext4 on the H200 VM: 5.80 against 5.04 GB/s, fio both) than a new file whose blocks are found as
     * it grows, which is what hostside writes and what torch.save, safetensors and a distributed
     * checkpoint write. {@code --iomem_align}: hostside's source buffer starts on a page; fio's,
     * without it, 16 bytes past one (malloc's), and on the AMD dev VM the kernel copied from it ten
     * times slower (0.38 against 4.15 GB/s, fio both).
     */
    public String fio(IoTarget t) {
        return "fio --rw=write --bs=1M --ioengine=psync --iodepth=1 --direct=0 --fallocate=none --iomem_align=" + t.pageSize()
                + " --size=" + t.writeBytes() + " --name=warmup --end_fsync=1 --unlink=1 --name=" + key() + " --stonewall --end_fsync=" + (fsync ? 1 : 0);
    }

    /** The samples, each a new file made by {@code file} and removed after. */
    Result run(IoTarget t, TestFile file) {
        List<long[]> kept;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(BLOCK, 4096);
            kept = SAMPLING.each(i -> {
                // each file its own bytes, every page different (TestData says why): filled here, before the timing
                long[] times = writeOnce(file, new TestData(block), t.writeBytes());
                file.delete();
                return times;
            }, x -> t.writeBytes() / (double) x[0]);
        }
        Stats gbs = Stats.of(kept.stream().mapToDouble(x -> t.writeBytes() / (double) x[0]).toArray());
        Stats syncMs = fsync ? Stats.of(kept.stream().mapToDouble(x -> x[1] / 1e6).toArray()) : null;
        double overall = t.writeBytes() * (double) kept.size() / kept.stream().mapToLong(x -> x[0]).sum();
        return Result.ok(this, Unit.GB_PER_S, gbs, "pwrite(2) in 1 MiB calls" + (fsync ? ", then fsync(2), both timed" : ", timed without the flush")
                + "; a new file per sample, every 4 KiB page different, written into the page cache the sample before gave back"
                + " (after a first sample, not kept); host clock", fio(t), new WriteDetail(t.writeBytes(), BLOCK, syncMs, overall));
    }

    /**
     * Writes one new file; returns {nanoseconds timed, of which fsync}. Only the pwrite and fsync
     * calls are timed: each block's stamp (512 stores per MiB, see TestData) is made between them.
     * Unsynced bytes are flushed after, outside the timing. The descriptor is the file's: closed
     * by its delete().
     */
    long[] writeOnce(TestFile file, TestData data, long bytes) {
        int fd = file.createNew(); // O_EXCL|O_NOFOLLOW, and refused once the exit cleanup ran
        MemorySegment block = data.block();
        long timed = 0;
        for (long off = 0; off < bytes; off += BLOCK) {
            long want = Math.min(BLOCK, bytes - off);
            data.stamp(off);
            long start = System.nanoTime();
            long n = FileIo.pwrite(fd, block, want, off);
            timed += System.nanoTime() - start;
            if (n != want) throw new IllegalStateException("pwrite wrote " + n + " of " + want + " bytes");
        }
        // the next measurement must not share the disk with this one's flush
        long start = System.nanoTime();
        FileIo.fsync(fd);
        long sync = System.nanoTime() - start;
        return fsync ? new long[] {timed + sync, sync} : new long[] {timed, 0};
    }
}
