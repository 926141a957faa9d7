package hostside.io.measure;

import java.nio.file.Path;
import java.util.function.Supplier;

import hostside.harness.TestFiles;

/**
 * What the I/O measurements run against.
 *
 * @param dir               where the test files go (--dir)
 * @param dirFilesystem     its file system type (ext4, xfs, tmpfs, nfs4...)
 * @param file              the file to read: hostside's own test file, made on first use, or the user's --file
 * @param fileBytes         its size
 * @param writeBytes        how much each write sample writes
 * @param pageSize          the kernel's base page size
 * @param sampleNanos       how long a random-read sample runs
 * @param uringUnavailable  why io_uring cannot be used here, or null
 * @param disk              the disk the file is on, whose requests the O_DIRECT reads count; null when not one known disk
 * @param hugePage          the huge page O_DIRECT read buffers are made of ({@link Buffers#whole}); null where there is
 *                          none to use, and they are made of base pages
 */
public record IoTarget(Path dir, String dirFilesystem, Supplier<Path> file, long fileBytes, long writeBytes, long pageSize,
                       long sampleNanos, String uringUnavailable, DiskRequests disk, HugePage hugePage) {
    /** A sequential sample reads this much: the whole file, up to {@link TestFiles#COLD_SAMPLE_BYTES}, in whole blocks. */
    public long sequentialSampleBytes() {
        return Math.min(fileBytes, TestFiles.COLD_SAMPLE_BYTES) / ReadTest.SEQ_BLOCK * ReadTest.SEQ_BLOCK;
    }

    /**
     * Files on these live in memory: nothing can be read cold, O_DIRECT has no disk to read from
     * (tmpfs accepts the flag since mm/shmem.c's shmem_file_open sets FMODE_CAN_ODIRECT, and reads
     * the same pages), and fsync has no disk to reach.
     */
    public boolean inMemory() {
        return inMemory(dirFilesystem);
    }

    public static boolean inMemory(String filesystem) {
        return filesystem.equals("tmpfs") || filesystem.equals("ramfs");
    }
}
