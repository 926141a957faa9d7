// How many syscalls a CUDA kernel launch, a cudaStreamSynchronize and a pinned host-to-device copy
// make, counted by ptrace (the machines hostside runs on have no strace or perf): the child runs
// each phase between two getppid() markers; the parent counts the syscalls it enters between them,
// by number. M3-SYSCALL's "what pays a syscall" rests on these counts.
//   nvcc -O2 -o /tmp/spl bench/cuda/syscalls_per_launch.cu && /tmp/spl [N] [blocking]
#include <cstdio>
#include <cstdlib>
#include <map>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void empty() {}

static void marker() { syscall(SYS_getppid); }

static int child(int n, bool blocking) {
    ptrace(PTRACE_TRACEME, 0, 0, 0);
    raise(SIGSTOP);
    // blocking: the synchronizing calls wait on the driver instead of spinning (cudaDeviceScheduleBlockingSync)
    if (blocking) cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
    cudaFree(0); // the context, made before anything is counted
    void *d, *h, *p;
    cudaMalloc(&d, 1 << 20);
    cudaMallocHost(&h, 1 << 20);
    p = malloc(1 << 20);
    for (int i = 0; i < (1 << 20); i += 4096) ((char *) p)[i] = 1;
    empty<<<1, 1>>>();
    cudaMemcpy(d, p, 1 << 20, cudaMemcpyHostToDevice);
    cudaDeviceSynchronize();
    marker(); // phase 0, the control: n getpid() calls, one syscall each, so the counter is seen to count
    for (int i = 0; i < n; i++) syscall(SYS_getpid);
    marker();
    marker(); // phase 1: n launches
    for (int i = 0; i < n; i++) empty<<<1, 1>>>();
    marker();
    cudaDeviceSynchronize();
    marker(); // phase 2: n launches, each followed by a synchronize
    for (int i = 0; i < n; i++) { empty<<<1, 1>>>(); cudaStreamSynchronize(0); }
    marker();
    marker(); // phase 3: n pinned 1 MiB host-to-device copies, synchronous
    for (int i = 0; i < n; i++) cudaMemcpy(d, h, 1 << 20, cudaMemcpyHostToDevice);
    marker();
    marker(); // phase 4: n pageable 1 MiB host-to-device copies, synchronous
    for (int i = 0; i < n; i++) cudaMemcpy(d, p, 1 << 20, cudaMemcpyHostToDevice);
    marker();
    return 0;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    bool blocking = argc > 2 && argv[2][0] == 'b';
    pid_t pid = fork();
    if (pid == 0) return child(n, blocking);
    int status;
    waitpid(pid, &status, 0);
    ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD);
    const int PHASES = 5;
    const char *names[] = {"getpid (control)", "launches", "launch+synchronize", "pinned 1 MiB copies", "pageable 1 MiB copies"};
    int phase = -1, markers = 0;
    bool entry = true;
    std::map<long, long> counts[PHASES];
    while (true) {
        ptrace(PTRACE_SYSCALL, pid, 0, 0);
        if (waitpid(pid, &status, 0) < 0 || WIFEXITED(status)) break;
        if (!(WIFSTOPPED(status) && WSTOPSIG(status) == (SIGTRAP | 0x80))) continue;
        if (entry) {
            struct user_regs_struct r;
            ptrace(PTRACE_GETREGS, pid, 0, &r);
            long nr = r.orig_rax;
            if (nr == SYS_getppid) {
                markers++;
                phase = markers % 2 == 1 ? (markers - 1) / 2 : -1;
            } else if (phase >= 0 && phase < PHASES) {
                counts[phase][nr]++;
            }
        }
        entry = !entry;
    }
    printf("%s\n", blocking ? "cudaDeviceScheduleBlockingSync" : "default scheduling (spin, then yield)");
    for (int p = 0; p < PHASES; p++) {
        long total = 0;
        for (auto &c : counts[p]) total += c.second;
        printf("%-22s n=%d syscalls=%ld per op=%.3f", names[p], n, total, (double) total / n);
        for (auto &c : counts[p]) printf(" nr%ld:%ld", c.first, c.second);
        printf("\n");
    }
    return 0;
}
