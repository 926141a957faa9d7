package hostside.io.measure;

/**
 * The fio job that measures what a {@link ReadTest} measures, option by option, with why each
 * option is there: the anchor every read figure carries, and the job the bench runs beside it.
 */
final class FioReadJob {
    private FioReadJob() {}

    /** The job's options for {@code r} on {@code t}'s file; the file's name is left to whoever runs it. */
    static String options(ReadTest r, IoTarget t) {
        StringBuilder s = new StringBuilder("--rw=").append(r.pattern() == ReadTest.Pattern.SEQUENTIAL ? "read" : "randread")
                .append(" --bs=").append(r.pattern() == ReadTest.Pattern.SEQUENTIAL ? "1M" : "4k")
                .append(" --size=").append(t.fileBytes())
                .append(" --ioengine=").append(r.engine() == ReadTest.Engine.IO_URING ? "io_uring" : "psync")
                .append(" --iodepth=").append(r.depth())
                .append(" --direct=").append(r.cache() == ReadTest.Cache.DIRECT ? 1 : 0);
        // fio drops the file's cached pages (posix_fadvise DONTNEED) as it opens the file unless told not to
        // (invalidate=1 is its default: ioengines.c, td_io_open_file). The warm job reads the file into the
        // page cache first instead, in order and untimed (pre_read: HOWTO; backend.c reads it before the
        // job's clock starts), as hostside's warm-up reads it once in order; pre_read clears invalidate
        if (r.cache() == ReadTest.Cache.WARM) s.append(" --pre_read=1");
        else s.append(" --invalidate=").append(r.cache() == ReadTest.Cache.COLD ? 1 : 0);
        // and by default tells the kernel the pattern (POSIX_FADV_SEQUENTIAL or _RANDOM), which changes readahead;
        // hostside gives no hint, as torch.load, numpy and a Dataset's reads give none
        if (r.cache() != ReadTest.Cache.DIRECT) s.append(" --fadvise_hint=0");
        // and makes its buffers with one malloc, which without O_DIRECT leaves them 16 bytes past a page (on
        // the AMD dev VM the kernel's copy into such a buffer ran 5-7x slower: fio's warm reads 1.6-2.6 GB/s
        // against 10.9-14.9 aligned) and, with or without, in pages malloc may have handed out before, in
        // whatever physical pieces those fell. --iomem=mmap makes them as hostside's Buffers.map are: one fresh
        // anonymous mapping (fio's memory.c), page-aligned, faulted in by the first reads. O_DIRECT buffers of
        // hostside's are whole huge pages (Buffers.whole), so that no request is split for its buffer's pieces:
        // fio's are with --iomem=shmhuge, SysV shared memory of SHM_HUGETLB pages (memory.c), which must be
        // reserved beforehand (vm.nr_hugepages: hugePagesNeeded), its page size said as fio's default is 4 MiB
        // on some architectures (os/os.h) where the kernel's is 2 MiB
        if (r.wholeBuffers(t)) s.append(" --iomem=shmhuge --hugepage-size=").append(t.hugePage().bytes());
        else s.append(" --iomem=mmap");
        // hostside draws each random offset anew, uniformly over the file (a block may come twice, another not at all); fio
        // by default keeps a map of the blocks done and draws among the rest, which costs it time per read: 480k against
        // 665k cached reads a second on the dev VM, 2026-12-07 (HOWTO, norandommap: "just get a new random offset")
        if (r.pattern() == ReadTest.Pattern.RANDOM) s.append(" --norandommap");
        // a cold pass reads what a cold sample reads; the rest run five samples' time, in fio's whole seconds and at least
        // one (at 100 ms samples, ten samples' time)
        if (r.pattern() == ReadTest.Pattern.SEQUENTIAL && r.cache() == ReadTest.Cache.COLD) s.append(" --io_size=").append(t.sequentialSampleBytes());
        else s.append(" --time_based --runtime=").append(Math.max(1, t.sampleNanos() * ReadTest.SAMPLES / 1_000_000_000L));
        return s.toString();
    }

    /**
     * The huge pages fio's {@code --iomem=shmhuge} job takes: its buffer is the block times the depth
     * and a page (room to align it for O_DIRECT), rounded up to whole huge pages, and a page more again
     * when it is allocated, which shmget rounds up to one more huge page: two at depth 1 with 1 MiB
     * blocks, 18 at depth 32 (fio 3.42's --debug=mem: "Alloc 35655679 for buffers", "shmget
     * 37748736"; with 17 reserved it stops: "no huge pages available").
     */
    static long hugePagesNeeded(ReadTest r, HugePage huge, long pageSize) {
        long rounded = huge.pagesFor((long) r.block() * r.depth() + pageSize - 1) * huge.bytes();
        return huge.pagesFor(rounded + pageSize - 1);
    }
}
