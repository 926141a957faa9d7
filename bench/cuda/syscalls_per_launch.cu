// How many syscalls a CUDA kernel launch, a cudaStreamSynchronize and a pinned host-to-device copy
// make, counted by ptrace (the machines hostside runs on have no strace or perf): the child runs
// each phase between two getppid() markers; the parent counts the syscalls it enters between them,
// by number. M3-SYSCALL's "what pays a syscall" rests on these counts.
//   nvcc -O2 -o /tmp/spl bench/cuda/syscalls_per_launch.cu -lcuda && /tmp/spl [N]
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

static int child(int n) {
    ptrace(PTRACE_TRACEME, 0, 0, 0);
    raise(SIGSTOP);
    cudaFree(0); // the context, made before anything is counted
    void *d, *h;
    cudaMalloc(&d, 1 << 20);
    cudaMallocHost(&h, 1 << 20);
    empty<<<1, 1>>>();
    cudaDeviceSynchronize();
    marker(); // phase 1: n launches
    for (int i = 0; i < n; i++) empty<<<1, 1>>>();
    marker();
    cudaDeviceSynchronize();
    marker(); // phase 2: n launches, each followed by a synchronize (the default: spin, then yield)
    for (int i = 0; i < n; i++) { empty<<<1, 1>>>(); cudaStreamSynchronize(0); }
    marker();
    marker(); // phase 3: n pinned 1 MiB host-to-device copies, synchronous
    for (int i = 0; i < n; i++) cudaMemcpy(d, h, 1 << 20, cudaMemcpyHostToDevice);
    marker();
    return 0;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    pid_t pid = fork();
    if (pid == 0) return child(n);
    int status;
    waitpid(pid, &status, 0);
    ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD);
    const char *names[] = {"launches", "launch+synchronize", "pinned 1 MiB copies"};
    int phase = -1, markers = 0;
    bool entry = true;
    std::map<long, long> counts[3];
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
            } else if (phase >= 0 && phase < 3) {
                counts[phase][nr]++;
            }
        }
        entry = !entry;
    }
    for (int p = 0; p < 3; p++) {
        long total = 0;
        for (auto &c : counts[p]) total += c.second;
        printf("%-22s n=%d syscalls=%ld per op=%.3f", names[p], n, total, (double) total / n);
        for (auto &c : counts[p]) printf(" nr%ld:%ld", c.first, c.second);
        printf("\n");
    }
    return 0;
}
