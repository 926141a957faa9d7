package hostside.libc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The libc binding on this machine's real libc (Linux, as CI is): what the drills rely on is that
 * each call reaches the right function with the right arguments, and that each failure names its
 * call and errno. Counts are asserted where the kernel makes them exact; nothing is timed.
 */
class LibcTest {
    @TempDir
    Path tmp;

    static final long PAGE = 4096;

    static boolean x86() {
        String arch = System.getProperty("os.arch");
        return arch.equals("amd64") || arch.equals("x86_64");
    }

    @Test
    void pageSizeIsTheKernelsBasePage() {
        assertThat(Libc.available()).isTrue();
        long page = Libc.pageSize();
        if (x86()) assertThat(page).isEqualTo(4096);
        else assertThat(page).isIn(4096L, 16384L, 65536L);
    }

    /** An anonymous private mapping of {@code pages} base pages, without huge pages, for one test. */
    static MemorySegment anonymous(long pages) {
        MemorySegment m = Libc.mmap(pages * Libc.pageSize(), Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        try {
            Libc.madvise(m, Libc.MADV_NOHUGEPAGE);
        } catch (LibcException e) {
            if (e.errno() != 22) throw e; // a kernel without THP: base pages anyway
        }
        return m;
    }

    @Test
    void anonymousMappingIsPageAlignedZeroedAndWritable() {
        long page = Libc.pageSize();
        MemorySegment m = anonymous(16);
        try {
            assertThat(m.byteSize()).isEqualTo(16 * page);
            assertThat(m.address() % page).as("mmap returns page-aligned memory").isZero();
            assertThat(m.get(ValueLayout.JAVA_LONG, 8 * page)).isZero();
            m.set(ValueLayout.JAVA_LONG, 8 * page, 0x1234_5678_9abcL);
            m.set(ValueLayout.JAVA_BYTE, 16 * page - 1, (byte) 7);
            assertThat(m.get(ValueLayout.JAVA_LONG, 8 * page)).isEqualTo(0x1234_5678_9abcL);
            assertThat(m.get(ValueLayout.JAVA_BYTE, 16 * page - 1)).isEqualTo((byte) 7);
        } finally {
            Libc.munmap(m);
        }
    }

    @Test
    void failedCallsNameTheCallAndTheErrno() {
        // mmap of zero bytes is EINVAL: MAP_FAILED must be told from an address
        assertThatThrownBy(() -> Libc.mmap(0, Libc.PROT_READ, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0))
                .isInstanceOf(LibcException.class).hasMessage("mmap: EINVAL (invalid argument)")
                .satisfies(e -> assertThat(((LibcException) e).errno()).isEqualTo(22));
        MemorySegment m = anonymous(1);
        try {
            assertThatThrownBy(() -> Libc.madvise(m, 9999)).isInstanceOf(LibcException.class)
                    .hasMessage("madvise: EINVAL (invalid argument)");
        } finally {
            Libc.munmap(m);
        }
        assertThatThrownBy(() -> Libc.close(-1)).isInstanceOf(LibcException.class).hasMessage("close: EBADF (bad file descriptor)")
                .satisfies(e -> assertThat(((LibcException) e).errno()).isEqualTo(9));
    }

    @Test
    void firstTouchCountsOneMinorFaultPerPageOnThisThread() throws InterruptedException {
        long page = Libc.pageSize();
        int pages = 256;
        MemorySegment m = anonymous(pages);
        try {
            Libc.Usage before = Libc.threadUsage();
            for (long off = 0; off < pages * page; off += page) m.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
            Libc.Usage used = Libc.threadUsage().minus(before);
            // ru_minflt is the fifth counter after the two timevals; a wrong index reads 0 (ixrss)
            // or a size in KiB (maxrss), which this bound would not hold for
            assertThat(used.minorFaults()).as("minor faults for %d first touches", pages).isBetween((long) pages, pages + 128L);
            // the whole process counts at least what this thread did since it started
            assertThat(Libc.usage(Libc.RUSAGE_SELF).minorFaults()).isGreaterThanOrEqualTo(Libc.threadUsage().minorFaults());
            // touched again: no fault at all
            Libc.Usage again = Libc.threadUsage();
            for (long off = 0; off < pages * page; off += page) m.set(ValueLayout.JAVA_BYTE, off, (byte) 2);
            assertThat(Libc.threadUsage().minus(again).minorFaults()).isLessThan(pages / 4);
        } finally {
            Libc.munmap(m);
        }
        // sleeping gives the CPU up: ru_nvcsw grows (the 13th counter)
        Libc.Usage before = Libc.threadUsage();
        for (int i = 0; i < 3; i++) Thread.sleep(2);
        assertThat(Libc.threadUsage().minus(before).voluntarySwitches()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void residentPagesCountsWhatWasTouched() {
        long page = Libc.pageSize();
        MemorySegment m = anonymous(64);
        try {
            assertThat(Libc.residentPages(m, page)).as("a fresh anonymous mapping holds no page").isZero();
            for (int p : new int[] {0, 1, 2, 10, 33, 63}) m.set(ValueLayout.JAVA_BYTE, p * page + 100, (byte) 1);
            assertThat(Libc.residentPages(m, page)).isEqualTo(6);
            assertThat(Libc.residentPages(m.asSlice(0, 11 * page), page)).isEqualTo(4);
        } finally {
            Libc.munmap(m);
        }
    }

    Path writeFile(String name, byte[] content) throws IOException {
        Path f = tmp.resolve(name);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) ch.write(b);
            ch.force(true); // clean pages: DONTNEED drops only those
        }
        return f;
    }

    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) (i * 31 + (i >> 8));
        return b;
    }

    @Test
    void readGoesToEndOfFileInWholeCalls() throws IOException {
        byte[] content = pattern(10_000);
        Path f = writeFile("ten-thousand.bin", content);
        int fd = Libc.open(f.toString(), Libc.O_RDONLY);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(4096);
            byte[] got = new byte[content.length];
            int total = 0;
            long[] sizes = new long[5];
            int calls = 0;
            long n;
            while ((n = Libc.read(fd, buf, 4096)) > 0) {
                MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, got, total, (int) n);
                total += (int) n;
                sizes[calls++] = n;
            }
            assertThat(calls).isEqualTo(3);
            assertThat(sizes).startsWith(4096, 4096, 10_000 - 8192);
            assertThat(total).isEqualTo(content.length);
            assertThat(got).isEqualTo(content);
            assertThat(Libc.read(fd, buf, 4096)).as("still at end of file").isZero();
        } finally {
            Libc.close(fd);
        }
        // a descriptor that is not open is EBADF, not a hang or a crash (-1: a closed one could be reused meanwhile)
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(16);
            assertThatThrownBy(() -> Libc.read(-1, buf, 16)).isInstanceOf(LibcException.class).hasMessageStartingWith("read: EBADF");
        }
    }

    @Test
    void openOfAMissingFileNamesEnoent() {
        Path missing = tmp.resolve("not-here");
        assertThatThrownBy(() -> Libc.open(missing.toString(), Libc.O_RDONLY)).isInstanceOf(LibcException.class)
                .hasMessage("open: ENOENT (no such file or directory)")
                .satisfies(e -> assertThat(((LibcException) e).errno()).isEqualTo(2));
    }

    @Test
    void fadviseDontneedDropsACleanFileFromThePageCache() throws IOException {
        long page = Libc.pageSize();
        int pages = 64;
        Path f = writeFile("cached.bin", pattern((int) (pages * page)));
        boolean inMemory = java.util.Set.of("tmpfs", "ramfs").contains(Files.getFileStore(f).type());
        int fd = Libc.open(f.toString(), Libc.O_RDONLY);
        try {
            Files.readAllBytes(f); // every page in the cache
            MemorySegment map = Libc.mmap(pages * page, Libc.PROT_READ, Libc.MAP_PRIVATE, fd, 0);
            try {
                assertThat(Libc.residentPages(map, page)).as("a file just read is cached").isEqualTo(pages);
                assertThat(map.get(ValueLayout.JAVA_BYTE, 5 * page + 3)).isEqualTo(pattern((int) (pages * page))[(int) (5 * page + 3)]);
            } finally {
                Libc.munmap(map);
            }
            Libc.fadvise(fd, Libc.POSIX_FADV_DONTNEED);
            map = Libc.mmap(pages * page, Libc.PROT_READ, Libc.MAP_PRIVATE, fd, 0);
            try {
                // tmpfs pages are the file itself: nothing to drop there
                if (inMemory) assertThat(Libc.residentPages(map, page)).isEqualTo(pages);
                else assertThat(Libc.residentPages(map, page)).as("after POSIX_FADV_DONTNEED (0 on ext4 and xfs)").isLessThan(pages / 4);
            } finally {
                Libc.munmap(map);
            }
            assertThatThrownBy(() -> Libc.fadvise(fd, 99)).isInstanceOf(LibcException.class)
                    .hasMessage("posix_fadvise: EINVAL (invalid argument)");
        } finally {
            Libc.close(fd);
        }
        // posix_fadvise returns its error instead of setting errno: still named
        assertThatThrownBy(() -> Libc.fadvise(-1, Libc.POSIX_FADV_DONTNEED)).isInstanceOf(LibcException.class)
                .hasMessage("posix_fadvise: EBADF (bad file descriptor)")
                .satisfies(e -> assertThat(((LibcException) e).errno()).isEqualTo(9));
    }

    @Test
    void errnoNamesTheKnownOnesAndNumbersTheRest() {
        assertThat(Errno.describe(2)).isEqualTo("ENOENT (no such file or directory)");
        assertThat(Errno.describe(12)).startsWith("ENOMEM");
        assertThat(Errno.describe(13)).startsWith("EACCES");
        assertThat(Errno.describe(28)).startsWith("ENOSPC");
        assertThat(Errno.describe(4242)).isEqualTo("errno 4242");
        assertThat(new LibcException("x: y").errno()).isZero();
    }
}
