/* Sequential 1 MiB O_DIRECT reads of FILE for SECONDS into one buffer made three ways, and into
 * how many physically contiguous pieces that buffer fell (root only: others read frame number 0):
 *   0  page-aligned malloc, untouched: the reads fault its pages in (fio's buffer)
 *   1  the same, touched by memset first (a buffer the program filled)
 *   2  one 2 MiB transparent huge page (madvise): a single piece
 * On a VM's virtual disk each piece is a segment the host copies on its own, so the figure
 * follows the pieces. Evidence behind the O_DIRECT io figures (docs/measurements, 2026-12-03, io).
 *   gcc -O2 -o odirect_buffer bench/c/odirect_buffer.c && ./odirect_buffer FILE 1 3 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (1 << 20)
#define HUGE (2 << 20)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* runs of consecutive frame numbers over the buffer's pages; -1 when unknown */
static int pieces(const char *buf) {
    int fd = open("/proc/self/pagemap", O_RDONLY), runs = 0, seen = 0;
    uint64_t prev = 0;
    if (fd < 0) return -1;
    for (size_t o = 0; o < BLOCK; o += 4096) {
        uint64_t e;
        if (pread(fd, &e, 8, ((uintptr_t)buf + o) / 4096 * 8) != 8 || !(e >> 63)) { close(fd); return -1; }
        uint64_t pfn = e & ((1ULL << 55) - 1);
        if (pfn) seen = 1;
        if (o == 0 || pfn != prev + 1) runs++;
        prev = pfn;
    }
    close(fd);
    return seen ? runs : -1;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s FILE MODE(0|1|2) SECONDS\n", argv[0]); return 2; }
    int mode = atoi(argv[2]);
    double secs = atof(argv[3]);
    char *buf;
    if (mode == 2) {
        char *m = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) { perror("mmap"); return 1; }
        buf = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
        madvise(buf, HUGE, MADV_HUGEPAGE);
        memset(buf, 1, BLOCK);
    } else {
        if (posix_memalign((void **)&buf, 4096, BLOCK)) { perror("posix_memalign"); return 1; }
        if (mode == 1) memset(buf, 1, BLOCK);
    }
    int fd = open(argv[1], O_RDONLY | O_DIRECT);
    if (fd < 0) { perror(argv[1]); return 1; }
    off_t size = lseek(fd, 0, SEEK_END) / BLOCK * BLOCK, off = 0;
    long ops = 0;
    double t0 = now();
    while (now() - t0 < secs) {
        if (pread(fd, buf, BLOCK, off) != BLOCK) { perror("pread"); return 1; }
        off = (off + BLOCK) % size;
        ops++;
    }
    double t = now() - t0;
    printf("mode %d: %.2f GB/s, buffer in %d physical pieces\n", mode, ops * (double)BLOCK / t / 1e9, pieces(buf));
    return 0;
}
