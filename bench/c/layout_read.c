/* Buffered or O_DIRECT sequential 1 MiB preads of FILE for SECONDS into one 1 MiB buffer laid out
 * three ways, in turns, ROUNDS times:
 *   scattered  every page physically apart from its neighbours (hostside's io.measure.Buffers until
 *              2026-12-07: buffer and spacer pages first-touched in turns, no THP)
 *   ordered    one mapping first-touched in order, no THP (a buffer a program filled)
 *   fio        posix_memalign(4096) and left untouched: the first reads fault its pages in (fio's
 *              read buffer, and hostside's since 2026-12-07)
 * prints GB/s (bytes over time) and the buffer's physical pieces (root: /proc/self/pagemap; -1 where
 * frame numbers are hidden). Evidence behind docs/measurements/2026-12-07-io-equal-to-fio.md.
 *   gcc -O2 -o layout_read bench/c/layout_read.c && ./layout_read FILE 0|1(O_DIRECT) SECONDS ROUNDS */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (1 << 20)
#define PAGE 4096

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static int pieces(const char *buf) {
    int fd = open("/proc/self/pagemap", O_RDONLY), runs = 0, seen = 0;
    uint64_t prev = 0;
    if (fd < 0) return -1;
    for (size_t o = 0; o < BLOCK; o += PAGE) {
        uint64_t e;
        if (pread(fd, &e, 8, ((uintptr_t)buf + o) / PAGE * 8) != 8 || !(e >> 63)) { close(fd); return -1; }
        uint64_t pfn = e & ((1ULL << 55) - 1);
        if (pfn) seen = 1;
        if (o == 0 || pfn != prev + 1) runs++;
        prev = pfn;
    }
    close(fd);
    return seen ? runs : -1;
}

static char *make(int mode, void **to_free, char **spacer_out) {
    *to_free = NULL; *spacer_out = NULL;
    if (mode == 2) { char *b; if (posix_memalign((void **)&b, PAGE, BLOCK)) return NULL; *to_free = b; return b; }
    char *b = mmap(NULL, BLOCK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(b, BLOCK, MADV_NOHUGEPAGE);
    if (mode == 0) {
        char *s = mmap(NULL, BLOCK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        madvise(s, BLOCK, MADV_NOHUGEPAGE);
        for (size_t o = 0; o < BLOCK; o += PAGE) { b[o] = 0; s[o] = 0; }
        munmap(s, BLOCK);
    } else {
        for (size_t o = 0; o < BLOCK; o += PAGE) b[o] = 0;
    }
    return b;
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: %s FILE DIRECT SECONDS ROUNDS\n", argv[0]); return 2; }
    int direct = atoi(argv[2]); double secs = atof(argv[3]); int rounds = atoi(argv[4]);
    int fd = open(argv[1], O_RDONLY | (direct ? O_DIRECT : 0));
    if (fd < 0) { perror("open"); return 1; }
    struct stat st; fstat(fd, &st);
    off_t size = st.st_size / BLOCK * BLOCK, off = 0;
    const char *names[] = {"scattered", "ordered", "fio"};
    for (int r = 0; r < rounds; r++) {
        for (int mode = 0; mode < 3; mode++) {
            void *fr; char *sp; char *b = make(mode, &fr, &sp);
            long long bytes = 0; double t0 = now(), t;
            do {
                ssize_t n = pread(fd, b, BLOCK, off);
                if (n != BLOCK) { perror("pread"); return 1; }
                bytes += n; off = (off + BLOCK) % size;
                t = now();
            } while (t - t0 < secs);
            printf("round %d %-9s %6.2f GB/s pieces %d\n", r + 1, names[mode], bytes / (t - t0) / 1e9, pieces(b));
            fflush(stdout);
            if (fr) free(fr); else munmap(b, BLOCK);
        }
    }
    return 0;
}
