import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;

import hostside.io.uring.IoUring;
import hostside.libc.FileIo;
import hostside.libc.Libc;

/**
 * The experiment on random 4 KiB O_DIRECT io_uring reads at depth 32: hostside's read loop
 * and fio's submission pattern, side by side on hostside's own IoUring, with what each costs the
 * thread (CPU time, voluntary switches per read). Not part of hostside; compiled against its jar:
 *   javac -cp target/hostside.jar -d target/bench-classes bench/java/UringProbe.java
 *   java --enable-native-access=ALL-UNNAMED -cp target/hostside.jar:target/bench-classes UringProbe FILE hs|fio|split SECONDS
 * hs:  queue every free slot, then one io_uring_enter that submits them and waits for one completion (ReadTest's loop)
 * fio: one io_uring_enter per read as soon as it is queued (fio's default iodepth_batch_submit=1),
 *      and a separate enter that waits for one completion (iodepth_batch_complete_min=1)
 * split: the refills of a round submitted together in one enter, and a separate enter that waits
 */
public class UringProbe {
    public static void main(String[] args) {
        String file = args[0], variant = args[1];
        long nanos = (long) (Double.parseDouble(args[2]) * 1e9);
        int depth = 32, block = 4096;
        long page = Libc.pageSize();
        int fd = FileIo.open(file, Libc.O_RDONLY | FileIo.O_DIRECT, 0);
        long blocks = new java.io.File(file).length() / block;
        MemorySegment map = Libc.mmap((long) block * depth + 2 * page, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        MemorySegment bufs = map.asSlice(page, (long) block * depth);
        SplittableRandom rnd = new SplittableRandom(7);
        long[] submitted = new long[depth];
        long[] lat = new long[4_000_000];
        int[] nlat = {0};
        try (IoUring ring = IoUring.open(depth)) {
            for (int pass = 0; pass < 2; pass++) { // pass 0: one second of warm-up for the JIT
                long want = pass == 0 ? 1_000_000_000L : nanos;
                nlat[0] = 0;
                var bean = ManagementFactory.getThreadMXBean();
                long cpu0 = bean.getCurrentThreadCpuTime();
                Libc.Usage u0 = Libc.threadUsage();
                long ops = 0, start = System.nanoTime(), now = start;
                int[] free = new int[depth];
                int nfree = 0;
                for (int s = 0; s < depth; s++) free[nfree++] = s;
                while (true) {
                    boolean more = now - start < want;
                    if (more) {
                        while (nfree > 0) {
                            int s = free[--nfree];
                            submitted[s] = System.nanoTime();
                            ring.queueRead(fd, bufs.asSlice((long) s * block, block), block, rnd.nextLong(blocks) * block, s);
                            if (variant.equals("fio")) ring.submit(0);
                        }
                        if (variant.equals("split")) ring.submit(0);
                    }
                    if (ring.outstanding() == 0) break;
                    ring.submit(1);
                    long t = System.nanoTime();
                    now = t;
                    int[] got = {0};
                    int base = nfree;
                    ring.reap(c -> {
                        if (c.result() != block) throw new IllegalStateException("read: " + c.result());
                        if (nlat[0] < lat.length) lat[nlat[0]++] = t - submitted[(int) c.userData()];
                        free[base + got[0]++] = (int) c.userData();
                    });
                    nfree += got[0];
                    ops += got[0];
                }
                long el = now - start;
                Libc.Usage du = Libc.threadUsage().minus(u0);
                long cpu = bean.getCurrentThreadCpuTime() - cpu0;
                if (pass == 1) {
                    long[] l = Arrays.copyOf(lat, nlat[0]);
                    Arrays.sort(l);
                    System.out.printf(java.util.Locale.ROOT, "%s iops %.0f p50_us %.1f p99_us %.1f cpu_pct %.1f volsw_per_io %.3f invsw %d%n",
                            variant, ops * 1e9 / el, l[l.length / 2] / 1e3, l[(int) (l.length * 0.99)] / 1e3, cpu * 100.0 / el,
                            (double) du.voluntarySwitches() / ops, du.involuntarySwitches());
                }
            }
        } finally {
            FileIo.close(fd);
            Libc.munmap(map);
        }
    }
}
