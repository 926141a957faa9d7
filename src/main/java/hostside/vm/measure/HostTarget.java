package hostside.vm.measure;

import java.nio.file.Path;

import hostside.fs.FsRoot;
import hostside.harness.TestFile;

/**
 * What the virtual-memory measurements run against: this machine's page sizes and THP mode,
 * how much memory they may use, and the test file they share (made on first use, removed by
 * the command on every exit path).
 *
 * @param pageSize        the kernel's base page size, bytes
 * @param hugePageSize    THP's PMD size (2 MiB with 4 KiB pages, 512 MiB with 64 KiB), 0 when unknown
 * @param thpEnabled      always, madvise, never or unavailable
 * @param budgetBytes     the most any one measurement may map: a quarter of available memory, or
 *                        less where the caller caps it (the report)
 * @param budgetWhy       that bound with its figures, for a measurement it cut to say so
 * @param dirFilesystem   the file system type of {@code dir} (ext4, xfs, tmpfs...)
 * @param anonBytes       the anonymous region of the first-touch measurements (before the budget)
 */
public record HostTarget(FsRoot fs, long pageSize, long hugePageSize, String thpEnabled, long budgetBytes, String budgetWhy,
                         Path dir, String dirFilesystem, TestFile.Lazy file, long anonBytes) {

    /** File systems whose files live in memory: nothing can be evicted, so there is no cold read. */
    public boolean dirInMemory() {
        return dirFilesystem.equals("tmpfs") || dirFilesystem.equals("ramfs");
    }

    /** Huge pages can be had by asking (madvise) or come by themselves (always). */
    public boolean thpUsable() {
        return (thpEnabled.equals("always") || thpEnabled.equals("madvise")) && hugePageSize > 0;
    }

    /** {@code wanted}, cut to the budget and rounded down to a whole number of {@code unit}. */
    public long bounded(long wanted, long unit) {
        long b = Math.min(wanted, budgetBytes);
        return Math.max(unit, b / unit * unit);
    }
}
