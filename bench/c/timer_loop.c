/* cyclictest's measuring loop alone, as a reference where cyclictest cannot run (it calls
 * sched_setscheduler even for --policy=other, which a VM without CAP_SYS_NICE refuses): sleep
 * to absolute ticks with clock_nanosleep(TIMER_ABSTIME), lateness on wake, ticks already passed
 * skipped. A normal thread with the default 50 us timer slack, like hostside's feeder.
 *   gcc -O2 -o timer_loop bench/c/timer_loop.c && ./timer_loop 20000 100 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cmp(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: timer_loop TICKS PERIOD_US\n"); return 2; }
    int n = atoi(argv[1]);
    int64_t period = atol(argv[2]) * 1000;
    int64_t *late = malloc(sizeof *late * n), skipped = 0;
    int64_t deadline = now() + 1000000;
    for (int i = 0; i < n; i++) {
        struct timespec ts = {deadline / 1000000000, deadline % 1000000000};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        int64_t woke = now();
        late[i] = woke - deadline;
        deadline += period;
        while (woke > deadline) { deadline += period; skipped++; }
    }
    qsort(late, n, sizeof *late, cmp);
    printf("C timer loop (cyclictest's) p50 %ld  p99 %ld  p99.9 %ld  max %ld us  (%d samples, %ld ticks skipped)\n",
           (long)(late[n / 2] / 1000), (long)(late[n * 99 / 100] / 1000), (long)(late[n * 999 / 1000] / 1000), (long)(late[n - 1] / 1000), n, (long)skipped);
    free(late);
    return 0;
}
