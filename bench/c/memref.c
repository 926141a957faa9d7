/* memref: the C reference for hostside's host-memory figures `memory_latency` and
 * `memory_bandwidth_read`, measured the way the established tools measure them, so
 * that bench/run memory can put hostside's figure beside a method nobody disputes.
 *
 *   memref chase [--size BYTES] [--loads N] [--samples S] [--cpu C] [--node M] [--no-huge]
 *     Idle memory latency by a dependent pointer chase (lmbench lat_mem_rd, Intel MLC
 *     --idle_latency): an anonymous private region of SIZE bytes (default 256 MiB, 2 MiB
 *     aligned), madvise(MADV_HUGEPAGE) (--no-huge: MADV_NOHUGEPAGE, so that THP "always" gives
 *     4 KiB pages too), bound with mbind(MPOL_BIND) to node M if given, all before it is touched.
 *     The thread is pinned to CPU C if given. Its 64-byte lines form one random cycle over every
 *     line (Sattolo's algorithm, splitmix64 seeded 7); each line's first 8 bytes hold the address
 *     of the next line, written line by line in address order: that is the first touch. One full
 *     pass of the cycle warms up, then each of S samples (default 5) times N dependent loads
 *     (default 2^22, p = *(void **)p) with CLOCK_MONOTONIC: latency = elapsed ns / N.
 *     Prints one line per sample and a summary (median, min, max), with huge_bytes: the region's
 *     AnonHugePages in /proc/self/smaps, i.e. how much of it THP really backed.
 *
 *   memref read [--size BYTES] [--samples S] [--threads T] [--cpus LIST] [--node M] [--no-huge]
 *     Read bandwidth as Intel MLC's read-only (all reads) bandwidth: an array of doubles of SIZE
 *     bytes (default 4 x the L3 of cpu0 x the number of L3 instances, at least 1 GiB), mapped
 *     and bound as above, summed by T OpenMP threads (default: every CPU this process may use),
 *     thread i pinned to the i-th CPU of LIST (cpulist syntax: 0-3,8) if given. The array is
 *     first touched in parallel with the same static chunks as the reads (as STREAM initialises
 *     its arrays); each thread sums its chunk with 8 independent vector accumulators (not latency
 *     bound) in the widest vectors the CPU has, as MLC loads: AVX2 (32 bytes) where the CPU
 *     has it, else SSE2 on x86-64 and NEON on Arm (16 bytes), chosen at run time so that the
 *     static binary runs on any x86-64; the summary's vector_bytes says which. A sample is timed from
 *     before the parallel region to after it: GB/s = bytes / ns (10^9 bytes a second). One
 *     warm-up pass, then S samples (default 10); the summary gives median, min, max and best
 *     (= max, the figure STREAM reports).
 *
 *   memref triad [--size BYTES] [--samples S] [--threads T] [--cpus LIST] [--node M]
 *     STREAM's four kernels (stream.c 5.10: Copy c=a, Scale b=3c, Add c=a+b, Triad a=b+3c) over
 *     three arrays of doubles of SIZE bytes each (default 1 GiB), at a size STREAM fixes only when
 *     it is built: what a report's own array size needs beside it. Each array is mapped as hostside
 *     maps its own (anonymous, no madvise: the kernel's THP policy as STREAM's static arrays get
 *     it), bound to node M if given, first touched in parallel in the kernels' chunks with STREAM's
 *     values (a=1, b=2, c=0). T threads (default: every CPU this process may use), pinned as in read
 *     with --cpus; each kernel is its own parallel region, timed from before it to after it (as
 *     STREAM times each kernel). One warm-up round of the four, then S rounds (default 9: STREAM's
 *     NTIMES 10 less the first it skips); bytes as STREAM counts them (2 arrays for Copy and Scale,
 *     3 for Add and Triad). The arrays are checked against the same sequence on scalars at the end,
 *     every 4096th element, as STREAM's checkSTREAMresults checks them. One summary line a kernel:
 *       summary triad_gb_s median 38.2 min 37.9 max 38.6 best 38.6 samples 9 array_bytes 134217728 threads 2 cpus 0-1
 *
 * SIZE takes a K, M or G suffix (powers of 1024). Output, one record a line, "key value" pairs
 * after the first word (lines starting with # are comments):
 *   sample 3 latency_ns 98.42
 *   summary latency_ns median 98.1 min 97.5 max 99.0 samples 5 working_set_bytes 268435456 huge 1 huge_bytes 268435456 ...
 *   sample 3 bandwidth_gb_s 21.37
 *   summary bandwidth_gb_s median 21.3 min 20.9 max 21.5 best 21.5 samples 10 working_set_bytes 1073741824 ...
 * huge: 1 when huge pages were asked for, madvise took it and THP is not [never]; huge_bytes says
 * how much THP gave. With --node, pages_on_node/pages_sampled: of up to 64 pages spread over the
 * region, how many lie on node M (move_pages query), after the run.
 * Exit codes: 0 done, 1 a system call failed, 2 bad usage or bad input (one line on stderr,
 * e.g. a node that does not exist).
 *
 * Build (static; checked on Debian 12, gcc 12):
 *   gcc -O2 -fopenmp -static -o memref bench/c/memref.c
 * where the static libgomp is missing, the dynamic build works as well:
 *   gcc -O2 -fopenmp -o memref bench/c/memref.c
 * Run:
 *   ./memref chase --cpu 0 --node 0
 *   ./memref read --cpus 0-15 --node 0
 *   ./memref triad --size 128M --cpus 0-15
 * bench/run memory builds it and runs it beside hostside and STREAM.
 * No libnuma: mbind and move_pages are called through syscall(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LINE 64
#define HUGE_ALIGN (2UL << 20)
#define MAX_NODES 1024
#define MPOL_BIND_ 2

static const char *prog_mode = "memref";

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog_mode);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

static const char *const usage_chase = "memref chase [--size BYTES] [--loads N] [--samples S] [--cpu C] [--node M] [--no-huge]";
static const char *const usage_read = "memref read [--size BYTES] [--samples S] [--threads T] [--cpus LIST] [--node M] [--no-huge]";
static const char *const usage_triad = "memref triad [--size BYTES] [--samples S] [--threads T] [--cpus LIST] [--node M]";

/* bad usage: one line on stderr, exit 2 */
static void usage(const char *why) {
    const char *u = !strcmp(prog_mode, "memref chase") ? usage_chase : !strcmp(prog_mode, "memref read") ? usage_read
                    : !strcmp(prog_mode, "memref triad") ? usage_triad : NULL;
    if (u) fprintf(stderr, "%s: %s; usage: %s\n", prog_mode, why, u);
    else fprintf(stderr, "memref: %s; usage: %s | %s | %s\n", why, usage_chase, usage_read, usage_triad);
    exit(2);
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- options ---- */

static unsigned long long parse_num(const char *opt, const char *s, int suffix) {
    char *end;
    errno = 0;
    if (!*s || *s == '-') die(2, "%s: \"%s\" is not a positive number", opt, s);
    unsigned long long v = strtoull(s, &end, 10);
    unsigned long long mul = 1;
    if (suffix && *end) {
        switch (*end) {
        case 'k': case 'K': mul = 1ULL << 10; break;
        case 'm': case 'M': mul = 1ULL << 20; break;
        case 'g': case 'G': mul = 1ULL << 30; break;
        default: mul = 0;
        }
        if (mul) end++;
        if (*end == 'i' && end[1] == 'B') end += 2; else if (*end == 'B') end++;
    }
    if (errno || *end || end == s || mul == 0 || (mul > 1 && v > ~0ULL / mul)) die(2, "%s: \"%s\" is not a number%s", opt, s, suffix ? " (BYTES, K/M/G allowed)" : "");
    return v * mul;
}

/* a cpulist ("0-3,8") into cpus[]; returns how many */
static int parse_cpulist(const char *s, int *cpus, int max) {
    int n = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        long a = strtol(p, &end, 10), b;
        if (end == p || a < 0 || errno) goto bad;
        b = a;
        if (*end == '-') {
            p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p || b < a || errno) goto bad;
        }
        for (long c = a; c <= b; c++) {
            if (c >= CPU_SETSIZE) die(2, "--cpus: CPU %ld is past %d", c, CPU_SETSIZE - 1);
            if (n == max) die(2, "--cpus: more than %d CPUs", max);
            cpus[n++] = (int)c;
        }
        if (*end == ',') end++;
        else if (*end) goto bad;
        p = end;
    }
    if (n == 0) goto bad;
    return n;
bad:
    die(2, "--cpus: \"%s\" is not a cpulist (e.g. 0-3,8)", s);
}

/* ---- the region: mapped, advised, bound, not touched ---- */

static int thp_never(void) {
    char buf[256] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return 1; /* no THP in this kernel */
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, "[never]") != NULL;
}

static void check_node(int node) {
    char path[96];
    struct stat st;
    if (node < 0 || node >= MAX_NODES) die(2, "--node: %d is not a NUMA node number (0..%d)", node, MAX_NODES - 1);
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d", node);
    if (stat(path, &st) != 0) die(2, "--node %d: no such NUMA node (%s does not exist)", node, path);
}

/* SIZE bytes (a multiple of the page) at a 2 MiB boundary, so that THP can back all of it */
static char *map_region(size_t size, int huge, int node, int *huge_ok) {
    size_t span = size + HUGE_ALIGN;
    char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) die(1, "mmap of %zu bytes: %s", span, strerror(errno));
    char *p = (char *)(((uintptr_t)raw + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (raw + span > p + size) munmap(p + size, (size_t)(raw + span - (p + size)));
    if (huge < 0) {
        *huge_ok = 0; /* no advice: the kernel's policy, as a program's plain arrays get it */
    } else if (huge) {
        *huge_ok = madvise(p, size, MADV_HUGEPAGE) == 0 && !thp_never();
    } else {
        madvise(p, size, MADV_NOHUGEPAGE); /* a kernel without THP refuses it: then there are no huge pages anyway */
        *huge_ok = 0;
    }
    if (node >= 0) {
        unsigned long mask[MAX_NODES / (8 * sizeof(unsigned long))] = {0};
        mask[node / (8 * sizeof(unsigned long))] = 1UL << (node % (8 * sizeof(unsigned long)));
        /* maxnode one past the mask's bits: the kernel counts one fewer than it is given */
        if (syscall(SYS_mbind, p, size, MPOL_BIND_, mask, (unsigned long)MAX_NODES + 1, 0UL) != 0) {
            int e = errno;
            die(e == EINVAL ? 2 : 1, "mbind to node %d: %s%s", node, strerror(e),
                e == EPERM ? " (a container's seccomp profile refuses mbind without CAP_SYS_NICE)"
                : e == EINVAL ? " (the node has no memory, or this cpuset may not use it)"
                : e == ENOSYS ? " (a kernel without NUMA)" : "");
        }
    }
    return p;
}

/* AnonHugePages of every mapping of /proc/self/smaps that overlaps [p, p+size), in bytes */
static long long huge_bytes(const char *p, size_t size) {
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return -1;
    char line[512];
    int in = 0;
    long long total = 0;
    uintptr_t lo = (uintptr_t)p, hi = lo + size;
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b;
        long long kb;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &a, &b, perms) == 3) { /* a mapping's first line */
            in = a < hi && b > lo;
        } else if (in && sscanf(line, "AnonHugePages: %lld kB", &kb) == 1) {
            total += kb * 1024;
        }
    }
    fclose(f);
    return total;
}

/* of up to 64 pages spread over the region, how many lie on NODE (move_pages without nodes: a query) */
static void node_check(const char *p, size_t size, int node, int *on, int *sampled) {
    enum { K = 64 };
    void *pages[K];
    int status[K];
    long page = sysconf(_SC_PAGESIZE);
    size_t npages = size / (size_t)page, k = npages < K ? npages : K;
    for (size_t i = 0; i < k; i++) pages[i] = (void *)(p + (npages * i / k) * (size_t)page);
    *on = 0;
    *sampled = 0;
    if (syscall(SYS_move_pages, 0, (unsigned long)k, pages, NULL, status, 0) != 0) return;
    *sampled = (int)k;
    for (size_t i = 0; i < k; i++) *on += status[i] == node;
}

static void pin_self(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0) die(errno == EINVAL ? 2 : 1, "pin to CPU %d: %s (not one of this process's CPUs?)", cpu, strerror(errno));
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* median (the mean of the middle two for an even count), min, max */
static void stats(const double *v, int n, double *med, double *min, double *max) {
    double *s = malloc(sizeof *s * (size_t)n);
    memcpy(s, v, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    *min = s[0];
    *max = s[n - 1];
    free(s);
}

static void node_fields(const char *p, size_t size, int node) {
    if (node < 0) { printf(" node -1"); return; }
    int on, sampled;
    node_check(p, size, node, &on, &sampled);
    printf(" node %d pages_on_node %d pages_sampled %d", node, on, sampled);
}

/* ---- chase ---- */

static volatile uintptr_t sink;

static __attribute__((noinline)) void *chase(void *p, uint64_t n) {
    while (n >= 8) {
        p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p;
        p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p;
        n -= 8;
    }
    while (n--) p = *(void **)p;
    return p;
}

static int do_chase(int argc, char **argv) {
    size_t size = 256UL << 20;
    uint64_t loads = 1ULL << 22;
    int samples = 5, cpu = -1, node = -1, huge = 1;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--no-huge")) { huge = 0; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "%s: %s needs a value\n", prog_mode, o); exit(2); }
        const char *v = argv[++i];
        if (!strcmp(o, "--size")) size = parse_num(o, v, 1);
        else if (!strcmp(o, "--loads")) loads = parse_num(o, v, 0);
        else if (!strcmp(o, "--samples")) samples = (int)parse_num(o, v, 0);
        else if (!strcmp(o, "--cpu")) cpu = (int)parse_num(o, v, 0);
        else if (!strcmp(o, "--node")) node = (int)parse_num(o, v, 0);
        else { fprintf(stderr, "%s: unknown option %s; usage: %s\n", prog_mode, o, argv[1][0] == 'c' ? usage_chase : usage_read); exit(2); }
    }
    long page = sysconf(_SC_PAGESIZE);
    size = size / (size_t)page * (size_t)page;
    if (size < 2 * (size_t)page) die(2, "--size: at least two pages");
    if (loads < 1 || samples < 1 || samples > 100000) die(2, "--loads and --samples must be at least 1 (samples at most 100000)");
    if (node >= 0) check_node(node);
    if (cpu >= 0) {
        if (cpu >= CPU_SETSIZE) die(2, "--cpu: %d is past %d", cpu, CPU_SETSIZE - 1);
        pin_self(cpu);
    }

    int huge_ok;
    char *region = map_region(size, huge, node, &huge_ok);
    size_t n = size / LINE;

    /* Sattolo: a random cyclic permutation, so that following next[] visits every line once */
    size_t *next = malloc(sizeof *next * n);
    if (!next) die(1, "no memory for the %zu-line permutation", n);
    for (size_t i = 0; i < n; i++) next[i] = i;
    uint64_t seed = 7;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(((unsigned __int128)splitmix64(&seed) * i) >> 64); /* 0 <= j < i */
        size_t t = next[i]; next[i] = next[j]; next[j] = t;
    }
    /* the first touch: every line, in address order */
    for (size_t i = 0; i < n; i++) *(void **)(region + i * LINE) = region + next[i] * LINE;
    free(next);

    printf("# memref chase: size %zu lines %zu loads %llu samples %d cpu %d node %d huge_requested %d page %ld\n",
           size, n, (unsigned long long)loads, samples, cpu, node, huge, page);
    void *p = chase(region, n); /* warm-up: one whole pass */
    double *lat = malloc(sizeof *lat * (size_t)samples);
    for (int s = 0; s < samples; s++) {
        int64_t t0 = now_ns();
        p = chase(p, loads);
        int64_t t1 = now_ns();
        lat[s] = (double)(t1 - t0) / (double)loads;
        sink += (uintptr_t)p;
        printf("sample %d latency_ns %.2f\n", s + 1, lat[s]);
        fflush(stdout);
    }
    double med, min, max;
    stats(lat, samples, &med, &min, &max);
    printf("summary latency_ns median %.2f min %.2f max %.2f samples %d working_set_bytes %zu huge %d huge_bytes %lld loads %llu cpu %d",
           med, min, max, samples, size, huge_ok, huge_bytes(region, size), (unsigned long long)loads, cpu);
    node_fields(region, size, node);
    printf("\n");
    free(lat);
    munmap(region, size);
    return 0;
}

/* ---- read ---- */

typedef double v2d __attribute__((vector_size(16)));

/* the sum of n doubles at a (64-byte aligned, n a multiple of 8): 8 accumulators of 16 bytes */
static double sum_chunk16(const double *a, size_t n) {
    v2d s0 = {0, 0}, s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    const v2d *v = (const v2d *)a;
    size_t m = n / 2, i = 0;
    for (; i + 8 <= m; i += 8) {
        s0 += v[i]; s1 += v[i + 1]; s2 += v[i + 2]; s3 += v[i + 3];
        s4 += v[i + 4]; s5 += v[i + 5]; s6 += v[i + 6]; s7 += v[i + 7];
    }
    for (; i < m; i++) s0 += v[i];
    v2d s = (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7);
    return s[0] + s[1];
}

#if defined(__x86_64__)
typedef double v4d __attribute__((vector_size(32)));

/* the same with 32-byte loads: on this kind of core the count of loads per line bounds one
 * thread's read bandwidth (SSE2 against AVX2 on the dev VM's EPYC: 21.7 against 22+ GB/s,
 * scalar 8-byte loads 17-18), so the reference loads as wide as the core allows, as MLC does */
__attribute__((target("avx2"))) static double sum_chunk32(const double *a, size_t n) {
    v4d s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    const v4d *v = (const v4d *)a;
    size_t m = n / 4, i = 0;
    for (; i + 8 <= m; i += 8) {
        s0 += v[i]; s1 += v[i + 1]; s2 += v[i + 2]; s3 += v[i + 3];
        s4 += v[i + 4]; s5 += v[i + 5]; s6 += v[i + 6]; s7 += v[i + 7];
    }
    for (; i < m; i++) s0 += v[i];
    v4d s = (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7);
    double r = s[0] + s[1] + s[2] + s[3];
    for (size_t k = m * 4; k < n; k++) r += a[k];
    return r;
}
#endif

/* 32 where AVX2 is there, else 16 */
static int vector_bytes(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return 32;
#endif
    return 16;
}

static double sum_chunk(const double *a, size_t n, int vbytes) {
#if defined(__x86_64__)
    if (vbytes == 32) return sum_chunk32(a, n);
#endif
    (void)vbytes;
    return sum_chunk16(a, n);
}

static __thread int pinned_to = -1;

/* pins the calling OpenMP thread t to cpus[t] once (a new OS thread in a later team too) */
static void pin_member(int ncpus, const int *cpus, int t, int *failed) {
    if (ncpus && pinned_to != cpus[t]) {
        cpu_set_t c;
        CPU_ZERO(&c);
        CPU_SET(cpus[t], &c);
        if (sched_setaffinity(0, sizeof c, &c) != 0) *failed = 1;
        pinned_to = cpus[t];
    }
}

/* the options read and triad share: a team of threads over arrays of SIZE bytes */
struct team {
    size_t size;
    int samples, threads, node, huge, ncpus;
    int cpus[CPU_SETSIZE];
    const char *cpulist;
};

/* parses the options into o, whose defaults the caller set; --no-huge only where the mode takes it */
static void parse_team(int argc, char **argv, struct team *o, int takes_no_huge, const char *usage_line) {
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (takes_no_huge && !strcmp(a, "--no-huge")) { o->huge = 0; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "%s: %s needs a value\n", prog_mode, a); exit(2); }
        const char *v = argv[++i];
        if (!strcmp(a, "--size")) o->size = parse_num(a, v, 1);
        else if (!strcmp(a, "--samples")) o->samples = (int)parse_num(a, v, 0);
        else if (!strcmp(a, "--threads")) o->threads = (int)parse_num(a, v, 0);
        else if (!strcmp(a, "--cpus")) o->ncpus = parse_cpulist(o->cpulist = v, o->cpus, CPU_SETSIZE);
        else if (!strcmp(a, "--node")) o->node = (int)parse_num(a, v, 0);
        else { fprintf(stderr, "%s: unknown option %s; usage: %s\n", prog_mode, a, usage_line); exit(2); }
    }
}

/* checks the options once the arrays hold n doubles each, and sets the thread count: one a CPU of --cpus, else every
   CPU this process may use */
static void check_team(struct team *o, size_t n) {
    if (o->samples < 1 || o->samples > 100000) die(2, "--samples: 1 to 100000");
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) die(1, "sched_getaffinity: %s", strerror(errno));
    for (int k = 0; k < o->ncpus; k++)
        if (!CPU_ISSET(o->cpus[k], &allowed)) die(2, "--cpus: CPU %d is not one this process may use", o->cpus[k]);
    if (!o->threads) o->threads = o->ncpus ? o->ncpus : CPU_COUNT(&allowed);
    if (o->ncpus && o->threads > o->ncpus) die(2, "--threads %d but --cpus names %d CPUs", o->threads, o->ncpus);
    if (o->threads < 1 || o->threads > 4096) die(2, "--threads: 1 to 4096");
    if (n < (size_t)o->threads * 8) die(2, "--size: at least 64 bytes a thread");
    if (o->node >= 0) check_node(o->node);
}

/* the static chunk of thread t of T: 64-byte aligned bounds, in doubles */
static void chunk(size_t n, int t, int T, size_t *lo, size_t *hi) {
    size_t lines = n / 8;
    *lo = lines * (size_t)t / (size_t)T * 8;
    *hi = lines * (size_t)(t + 1) / (size_t)T * 8;
}

/* the first touch, in parallel, each thread pinned as its kernels will run and writing its own chunk (STREAM's
   initialisation: a = 1, and b = 2, c = 0 where given), so that every page lies where its thread reads it; dies
   where a thread could not be pinned or OpenMP gave another team */
static void team_touch(const struct team *o, size_t n, double *a, double *b, double *c) {
    int pin_failed = 0, got = 0;
    omp_set_dynamic(0);
#pragma omp parallel num_threads(o->threads)
    {
        int t = omp_get_thread_num();
        pin_member(o->ncpus, o->cpus, t, &pin_failed);
        if (t == 0) got = omp_get_num_threads();
        size_t lo, hi;
        chunk(n, t, o->threads, &lo, &hi);
        for (size_t j = lo; j < hi; j++) {
            a[j] = 1.0;
            if (b) { b[j] = 2.0; c[j] = 0.0; }
        }
    }
    if (pin_failed) die(1, "could not pin a thread to its CPU of --cpus %s", o->cpulist);
    if (got != o->threads) die(1, "OpenMP gave %d threads, not %d", got, o->threads);
}

/* default size: 4 x cpu0's L3 x the number of L3 instances, at least 1 GiB */
static size_t default_read_size(void) {
    size_t l3 = 0, groups = 0;
    char buf[4096], path[128];
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    if (f) {
        unsigned long long v;
        char unit = 0;
        if (fscanf(f, "%llu%c", &v, &unit) >= 1) l3 = v * (unit == 'K' ? 1024 : unit == 'M' ? 1 << 20 : 1);
        fclose(f);
    }
    /* distinct shared_cpu_list of index3 over the CPUs: one per L3 instance */
    char seen[256][64];
    for (int c = 0; c < CPU_SETSIZE && l3; c++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", c);
        if (!(f = fopen(path, "r"))) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d", c);
            struct stat st;
            if (stat(path, &st) != 0) break; /* past the last CPU */
            continue;                        /* offline CPU */
        }
        if (fgets(buf, sizeof buf, f)) {
            buf[strcspn(buf, "\n")] = 0;
            buf[63] = 0;
            size_t k = 0;
            while (k < groups && strcmp(seen[k], buf)) k++;
            if (k == groups && groups < 256) strcpy(seen[groups++], buf);
        }
        fclose(f);
    }
    size_t want = 4 * l3 * (groups ? groups : 1);
    return want < (1UL << 30) ? 1UL << 30 : want;
}

static int do_read(int argc, char **argv) {
    static struct team o = {.samples = 10, .node = -1, .huge = 1};
    parse_team(argc, argv, &o, 1, usage_read);
    if (!o.size) o.size = default_read_size();
    long page = sysconf(_SC_PAGESIZE);
    size_t size = o.size / (size_t)page * (size_t)page, n = size / sizeof(double);
    check_team(&o, n);
    int samples = o.samples, threads = o.threads, node = o.node, huge = o.huge, ncpus = o.ncpus;
    const int *cpus = o.cpus;
    const char *cpulist = o.cpulist;

    int huge_ok;
    double *a = (double *)map_region(size, huge, node, &huge_ok);
    double *part = calloc((size_t)threads * 8, sizeof *part); /* one 64-byte line a thread */
    team_touch(&o, n, a, NULL, NULL); /* in the reads' chunks */
    int pin_failed = 0; /* the timed teams' pinning, checked after them */

    printf("# memref read: size %zu samples %d threads %d cpus %s node %d huge_requested %d\n", n * sizeof(double), samples,
           threads, cpulist ? cpulist : "-", node, huge);
    double *gbs = malloc(sizeof *gbs * (size_t)samples);
    size_t bytes = n / 8 * 8 * sizeof(double);
    int vbytes = vector_bytes();
    for (int s = -1; s < samples; s++) { /* s = -1: the warm-up pass */
        int64_t t0 = now_ns();
#pragma omp parallel num_threads(threads)
        {
            int t = omp_get_thread_num();
            pin_member(ncpus, cpus, t, &pin_failed); /* a new OS thread in the team: pinned too */
            size_t lo, hi;
            chunk(n, t, threads, &lo, &hi);
            part[t * 8] = sum_chunk(a + lo, hi - lo, vbytes);
        }
        int64_t t1 = now_ns();
        double total = 0;
        for (int t = 0; t < threads; t++) total += part[t * 8];
        if (total != (double)(n / 8 * 8)) die(1, "the sum is %.0f, not %zu: the reads went wrong", total, n / 8 * 8);
        double v = (double)bytes / (double)(t1 - t0);
        if (s < 0) { printf("# warm-up bandwidth_gb_s %.2f\n", v); continue; }
        gbs[s] = v;
        printf("sample %d bandwidth_gb_s %.2f\n", s + 1, v);
        fflush(stdout);
    }
    if (pin_failed) die(1, "could not pin a thread to its CPU of --cpus %s", cpulist);
    double med, min, max;
    stats(gbs, samples, &med, &min, &max);
    printf("summary bandwidth_gb_s median %.2f min %.2f max %.2f best %.2f samples %d working_set_bytes %zu huge %d huge_bytes %lld threads %d cpus %s vector_bytes %d",
           med, min, max, max, samples, bytes, huge_ok, huge_bytes((char *)a, size), threads, cpulist ? cpulist : "-", vbytes);
    node_fields((char *)a, size, node);
    printf("\n");
    free(gbs);
    free(part);
    munmap(a, size);
    return 0;
}

enum { COPY, SCALE, ADD, TRIAD, KERNELS };
static const char *const kernel_name[KERNELS] = {"copy", "scale", "add", "triad"};
static const int kernel_arrays[KERNELS] = {2, 2, 3, 3};

static int do_triad(int argc, char **argv) {
    static struct team o = {.size = 1UL << 30, .samples = 9, .node = -1};
    parse_team(argc, argv, &o, 0, usage_triad);
    size_t n = o.size / sizeof(double) / 8 * 8;
    check_team(&o, n);
    int samples = o.samples, threads = o.threads, node = o.node, ncpus = o.ncpus;
    const int *cpus = o.cpus;
    const char *cpulist = o.cpulist;

    int ignored;
    double *a = (double *)map_region(n * sizeof(double), -1, node, &ignored);
    double *b = (double *)map_region(n * sizeof(double), -1, node, &ignored);
    double *c = (double *)map_region(n * sizeof(double), -1, node, &ignored);
    team_touch(&o, n, a, b, c);
    int pin_failed = 0; /* the timed teams' pinning, checked after them */
    printf("# memref triad: array_bytes %zu samples %d threads %d cpus %s node %d\n", n * sizeof(double), samples, threads,
           cpulist ? cpulist : "-", node);

    double *gbs[KERNELS];
    for (int k = 0; k < KERNELS; k++) gbs[k] = malloc(sizeof(double) * (size_t)samples);
    const double scalar = 3.0;
    for (int s = -1; s < samples; s++) { /* s = -1: the warm-up round */
        double rate[KERNELS];
        for (int k = 0; k < KERNELS; k++) {
            int64_t t0 = now_ns();
#pragma omp parallel num_threads(threads)
            {
                int t = omp_get_thread_num();
                pin_member(ncpus, cpus, t, &pin_failed);
                size_t lo, hi;
                chunk(n, t, threads, &lo, &hi);
                switch (k) {
                case COPY: for (size_t j = lo; j < hi; j++) c[j] = a[j]; break;
                case SCALE: for (size_t j = lo; j < hi; j++) b[j] = scalar * c[j]; break;
                case ADD: for (size_t j = lo; j < hi; j++) c[j] = a[j] + b[j]; break;
                default: for (size_t j = lo; j < hi; j++) a[j] = b[j] + scalar * c[j]; break;
                }
            }
            int64_t t1 = now_ns();
            rate[k] = (double)kernel_arrays[k] * sizeof(double) * (double)n / (double)(t1 - t0);
        }
        if (s < 0) continue;
        printf("sample %d", s + 1);
        for (int k = 0; k < KERNELS; k++) {
            gbs[k][s] = rate[k];
            printf(" %s_gb_s %.2f", kernel_name[k], rate[k]);
        }
        printf("\n");
        fflush(stdout);
    }
    if (pin_failed) die(1, "could not pin a thread to its CPU of --cpus %s", cpulist);
    /* STREAM's check: the same rounds on scalars, every element equal to them */
    double aj = 1.0, bj = 2.0, cj = 0.0;
    for (int s = -1; s < samples; s++) { cj = aj; bj = scalar * cj; cj = aj + bj; aj = bj + scalar * cj; }
    for (size_t j = 0; j < n; j += 4096) {
        if (fabs(a[j] - aj) > 1e-13 * fabs(aj) || fabs(b[j] - bj) > 1e-13 * fabs(bj) || fabs(c[j] - cj) > 1e-13 * fabs(cj))
            die(1, "element %zu is %g %g %g, not %g %g %g: the kernels went wrong", j, a[j], b[j], c[j], aj, bj, cj);
    }
    for (int k = 0; k < KERNELS; k++) {
        double med, min, max;
        stats(gbs[k], samples, &med, &min, &max);
        printf("summary %s_gb_s median %.2f min %.2f max %.2f best %.2f samples %d array_bytes %zu threads %d cpus %s\n",
               kernel_name[k], med, min, max, max, samples, n * sizeof(double), threads, cpulist ? cpulist : "-");
        free(gbs[k]);
    }
    munmap(a, n * sizeof(double));
    munmap(b, n * sizeof(double));
    munmap(c, n * sizeof(double));
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) usage("no mode");
    if (!strcmp(argv[1], "chase")) { prog_mode = "memref chase"; return do_chase(argc, argv); }
    if (!strcmp(argv[1], "read")) { prog_mode = "memref read"; return do_read(argc, argv); }
    if (!strcmp(argv[1], "triad")) { prog_mode = "memref triad"; return do_triad(argc, argv); }
    usage("the mode is chase, read or triad");
}
