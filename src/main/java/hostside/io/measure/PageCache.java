package hostside.io.measure;

import java.lang.foreign.MemorySegment;

import hostside.libc.Libc;

/**
 * How much of a file the page cache holds, and dropping it: mincore over a read-only mapping
 * (no page is faulted in by asking), and posix_fadvise(DONTNEED), which needs no root and
 * touches only this file, where drop_caches would hit the whole machine.
 */
final class PageCache {
    private PageCache() {}

    /** Bytes of the file resident in the page cache now. */
    static long residentBytes(String path, long fileBytes, long pageSize) {
        if (fileBytes == 0) return 0;
        int fd = Libc.open(path, Libc.O_RDONLY);
        try {
            MemorySegment map = Libc.mmap(fileBytes, Libc.PROT_READ, Libc.MAP_SHARED, fd, 0);
            try {
                return Libc.residentPages(map, pageSize) * pageSize;
            } finally {
                Libc.munmap(map);
            }
        } finally {
            Libc.close(fd);
        }
    }

    /** Drops the file's clean pages; returns the share still resident after (0 for a true cold read). */
    static double evict(String path, long fileBytes, long pageSize) {
        int fd = Libc.open(path, Libc.O_RDONLY);
        try {
            Libc.fadvise(fd, Libc.POSIX_FADV_DONTNEED);
        } finally {
            Libc.close(fd);
        }
        return residentBytes(path, fileBytes, pageSize) / (double) fileBytes;
    }
}
