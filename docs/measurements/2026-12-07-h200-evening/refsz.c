// Small C references for hostside's CPU and VM figures. One static binary, several modes:
//   refs syscall [calls] [samples]            getppid by syscall(2): ns/call (2 warm-ups, median of samples)
//   refs pingpong futex|pipe CPU_A CPU_B      two pinned threads hand a token over: ns per hand-over (half a round trip)
//   refs fault base|thp BYTES [samples]       first touch of fresh anonymous memory, one write per 4 KiB page
//   refs timer PERIOD_US TICKS               cyclictest's loop: clock_nanosleep(ABSTIME), lateness, passed ticks skipped
//   refs hog N SECONDS                       N child processes spinning for SECONDS
// Every figure printed is min / median / max over samples after warm-up.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static int cmp_ll(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

static void stats(const char *what, const char *unit, double *v, int n) {
    double *s = malloc(n * sizeof *s);
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_d);
    double med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    printf("%s median %.3f min %.3f max %.3f %s (n=%d) samples:", what, med, s[0], s[n - 1], unit, n);
    for (int i = 0; i < n; i++) printf(" %.3f", v[i]);
    printf("\n");
    free(s);
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set)) { perror("sched_setaffinity"); exit(1); }
}

/* ---------- syscall ---------- */
static int do_syscall(int argc, char **argv) {
    long calls = argc > 2 ? atol(argv[2]) : 200000;
    int samples = argc > 3 ? atoi(argv[3]) : 7;
    double v[64];
    volatile long sink = 0;
    for (int i = -2; i < samples; i++) {
        long long t0 = now_ns();
        for (long k = 0; k < calls; k++) sink += syscall(SYS_getppid);
        long long t1 = now_ns();
        if (i >= 0) v[i] = (t1 - t0) / (double)calls;
    }
    stats("syscall_getppid", "ns/call", v, samples);
    return 0;
}

/* ---------- ping-pong ---------- */
static int word __attribute__((aligned(64)));
static int pipes[2][2];
static int rounds = 20000;
static int mode_pipe;
static int cpu_a, cpu_b;

static void fwait(int *w, int val) {
    int v;
    while ((v = __atomic_load_n(w, __ATOMIC_SEQ_CST)) != val) syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}
static void hand(int *w, int mine, int theirs) {
    fwait(w, mine);
    __atomic_store_n(w, theirs, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void dirty(void) { if (getenv("DIRTY_ZMM")) __asm__ volatile("vpternlogd $0xff, %%zmm16, %%zmm16, %%zmm16" ::: "xmm16"); }
static void *side_b(void *arg) {
    (void)arg;
    pin(cpu_b);
    dirty();
    char c;
    for (int r = 0; r < rounds; r++) {
        if (mode_pipe) {
            if (read(pipes[0][0], &c, 1) != 1) exit(1);
            if (write(pipes[1][1], &c, 1) != 1) exit(1);
        } else {
            hand(&word, 1, 0);
        }
    }
    return NULL;
}

static double one_pingpong(void) {
    pthread_t tb;
    word = 0;
    if (mode_pipe) { if (pipe(pipes[0]) || pipe(pipes[1])) { perror("pipe"); exit(1); } }
    pthread_create(&tb, NULL, side_b, NULL);
    pin(cpu_a);
    dirty();
    char c = 'x';
    long long t0 = now_ns();
    for (int r = 0; r < rounds; r++) {
        if (mode_pipe) {
            if (write(pipes[0][1], &c, 1) != 1) exit(1);
            if (read(pipes[1][0], &c, 1) != 1) exit(1);
        } else {
            hand(&word, 0, 1);
        }
    }
    if (!mode_pipe) fwait(&word, 0);
    long long t1 = now_ns();
    pthread_join(tb, NULL);
    if (mode_pipe) { close(pipes[0][0]); close(pipes[0][1]); close(pipes[1][0]); close(pipes[1][1]); }
    return (t1 - t0) / (2.0 * rounds);
}

static int do_pingpong(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "pingpong futex|pipe CPU_A CPU_B [samples]\n"); return 2; }
    mode_pipe = !strcmp(argv[2], "pipe");
    cpu_a = atoi(argv[3]);
    cpu_b = atoi(argv[4]);
    int samples = argc > 5 ? atoi(argv[5]) : 7;
    double v[64];
    for (int i = -1; i < samples; i++) {
        double x = one_pingpong();
        if (i >= 0) v[i] = x;
    }
    char what[96];
    snprintf(what, sizeof what, "pingpong_%s_cpus_%d_%d", argv[2], cpu_a, cpu_b);
    stats(what, "ns/hand-over", v, samples);
    return 0;
}

/* ---------- first touch ---------- */
static long vmstat(const char *key) {
    FILE *f = fopen("/proc/vmstat", "r");
    char k[128];
    long v, r = -1;
    if (!f) return -1;
    while (fscanf(f, "%127s %ld", k, &v) == 2) if (!strcmp(k, key)) { r = v; break; }
    fclose(f);
    return r;
}

static long anon_huge_kb(void *addr) {
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0;
    long kb = -1;
    unsigned long a = (unsigned long)addr;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) { in = a >= lo && a < hi; continue; }
        if (in && !strncmp(line, "AnonHugePages:", 14)) { sscanf(line + 14, "%ld", &kb); break; }
    }
    fclose(f);
    return kb;
}

static int do_fault(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "fault base|thp BYTES [samples]\n"); return 2; }
    int thp = !strcmp(argv[2], "thp");
    long bytes = atol(argv[3]);
    int samples = argc > 4 ? atoi(argv[4]) : 5;
    long page = sysconf(_SC_PAGESIZE), huge = 2L << 20;
    double ms_gib[64], us_fault[64];
    long faults_last = 0, thp_alloc = 0, thp_fb = 0, ahkb = 0;
    double gib = bytes / (double)(1L << 30);
    for (int i = -1; i < samples; i++) {
        char *raw = mmap(NULL, bytes + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) { perror("mmap"); return 1; }
        char *p = (char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
        if (madvise(p, bytes, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)) perror("madvise");
        long a0 = vmstat("thp_fault_alloc"), f0 = vmstat("thp_fault_fallback");
        struct rusage r0, r1;
        getrusage(RUSAGE_THREAD, &r0);
        long long t0 = now_ns();
        for (long off = 0; off < bytes; off += page) p[off] = 1;
        long long t1 = now_ns();
        getrusage(RUSAGE_THREAD, &r1);
        long a1 = vmstat("thp_fault_alloc"), f1 = vmstat("thp_fault_fallback");
        long faults = (r1.ru_minflt - r0.ru_minflt) + (r1.ru_majflt - r0.ru_majflt);
        long ah = thp ? anon_huge_kb(p) : 0;
        munmap(raw, bytes + huge);
        if (i < 0) continue;
        ms_gib[i] = (t1 - t0) / 1e6 / gib;
        us_fault[i] = faults ? (t1 - t0) / 1e3 / faults : 0;
        faults_last = faults;
        thp_alloc = a1 - a0;
        thp_fb = f1 - f0;
        ahkb = ah;
    }
    char what[64];
    snprintf(what, sizeof what, "first_touch_%s_%ldMiB", argv[2], bytes >> 20);
    stats(what, "ms/GiB", ms_gib, samples);
    snprintf(what, sizeof what, "first_touch_%s_per_fault", argv[2]);
    stats(what, "us/fault", us_fault, samples);
    printf("first_touch_%s last sample: faults %ld (%.2f per MiB), thp_fault_alloc %ld, thp_fault_fallback %ld, AnonHugePages %ld kB of %ld kB\n",
           argv[2], faults_last, faults_last / (bytes / 1048576.0), thp_alloc, thp_fb, ahkb, bytes >> 10);
    return 0;
}

/* ---------- timer loop (cyclictest's) ---------- */
static int do_timer(int argc, char **argv) {
    long period_us = argc > 2 ? atol(argv[2]) : 100;
    long ticks = argc > 3 ? atol(argv[3]) : 20000;
    long long period = period_us * 1000LL;
    long long *late = malloc(ticks * sizeof *late);
    struct timespec next;
    long missed = 0;
    // warm-up: 1 s of the same loop
    clock_gettime(CLOCK_MONOTONIC, &next);
    long long dl = next.tv_sec * 1000000000LL + next.tv_nsec + period;
    long long warm_end = now_ns() + 1000000000LL;
    for (long n = -1; n < ticks;) {
        struct timespec ts = {dl / 1000000000LL, dl % 1000000000LL};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        long long t = now_ns();
        if (n < 0) {
            if (t >= warm_end) n = 0;
        } else {
            late[n++] = t - dl;
        }
        dl += period;
        while (dl <= t) { dl += period; if (n > 0) missed++; }
    }
    qsort(late, ticks, sizeof *late, cmp_ll);
    printf("timer_loop period %ld us ticks %ld: late p50 %.1f p99 %.1f p99.9 %.1f max %.1f us, missed ticks %ld, timerslack %d ns\n",
           period_us, ticks, late[ticks / 2] / 1e3, late[(long)(ticks * 0.99)] / 1e3, late[(long)(ticks * 0.999)] / 1e3,
           late[ticks - 1] / 1e3, missed, prctl(PR_GET_TIMERSLACK));
    return 0;
}

/* ---------- hogs ---------- */
static int do_hog(int argc, char **argv) {
    int n = argc > 2 ? atoi(argv[2]) : 1;
    double secs = argc > 3 ? atof(argv[3]) : 5;
    pid_t kids[512];
    for (int i = 0; i < n && i < 512; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            long long end = now_ns() + (long long)(secs * 1e9);
            volatile unsigned long x = 0;
            while (now_ns() < end) for (int k = 0; k < 100000; k++) x++;
            _exit(0);
        }
    }
    for (int i = 0; i < n && i < 512; i++) waitpid(kids[i], NULL, 0);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) { fprintf(stderr, "refs syscall|pingpong|fault|timer|hog ...\n"); return 2; }
    if (!strcmp(argv[1], "syscall")) return do_syscall(argc, argv);
    if (!strcmp(argv[1], "pingpong")) return do_pingpong(argc, argv);
    if (!strcmp(argv[1], "fault")) return do_fault(argc, argv);
    if (!strcmp(argv[1], "timer")) return do_timer(argc, argv);
    if (!strcmp(argv[1], "hog")) return do_hog(argc, argv);
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
