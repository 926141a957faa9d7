package hostside.cpu.trace;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 3's rules on the syscall profile of a traced training process. The conditions are
 * {@link ProfileVerdicts}'; each finding is about the syscalls ({@link ProfileVerdicts#SUBJECT}) and
 * says its figures. strace slows the traced threads, so the counts stand and the times are upper
 * bounds ({@link ProfileVerdicts#CAVEAT}).
 */
public final class ProfileRules {
    private ProfileRules() {}

    static final Source STRACE = Source.document("strace(1): -c counts calls and time per syscall, -f follows threads and children, -T and -w"
            + " time each call from entry to return; a traced thread stops at every call");

    static final Source SHARES = Source.reasoned("a group of calls is named where it holds a large share of the syscall time (half for futex"
            + " waits, 30% for polling, 20% for sockets) or where calls come every step; below that it does not explain where the time goes");

    public static final Rule FUTEX = Rule.of("M3-TRACE-FUTEX", "threads waiting on each other: futex waits' share of the syscall time",
            EnumSet.of(WARN, INFO),
            "threads wait on each other (DataLoader queues, the pin-memory thread, thread pools between ops, CUDA's blocking sync); a warning"
                    + " where the main thread itself spent 30% or more of its time there, so the step waits for a batch or for the GPU",
            "where the step waits for batches: more DataLoader workers or a larger prefetch_factor; where it waits for the GPU through a"
                    + " blocking sync, remove the sync from the step (.item(), .cpu(), torch.cuda.synchronize) or accept that the GPU is the limit",
            STRACE, SHARES,
            Source.reasoned("30% of the main thread's time in futex waits is a step that waits; a first thread that makes under 10% of its"
                    + " process's calls is a launcher, not the step"));

    public static final Rule NVIDIA_IOCTL = Rule.of("M3-TRACE-NVIDIA-IOCTL", "ioctls on /dev/nvidia*: the CUDA driver calling the kernel driver",
            EnumSet.of(INFO),
            "context set-up, memory allocation and mapping, streams and events and some waits go through the kernel driver; kernel launches"
                    + " go through memory mapped into the process and make none. One or more a step means allocation, mapping or a sync"
                    + " through the driver every step",
            "keep allocations out of the step (PyTorch's caching allocators, preallocated buffers) and capture the step in a CUDA graph",
            Source.measurement("docs/measurements/2026-12-02-cpu.md: the built-in PyTorch step on the H200 (torch 2.11.0+cu130), no ioctl on"
                    + " /dev/nvidia* inside 50 steady steps, and 573 in a whole run with CUDA's start-up (403 nvidiactl, 129 nvidia-uvm, 41 nvidia0)"));

    public static final Rule MMAP_CHURN = Rule.of("M3-TRACE-MMAP-CHURN", "memory returned to the kernel and mapped again (munmap, madvise)",
            EnumSet.of(INFO),
            "each page mapped again faults on its first touch: large host allocations above glibc's mmap threshold (each batch's tensors) or"
                    + " an allocator that trims do this",
            "reuse buffers, use a caching host allocator (pin_memory's is one), or raise MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_",
            Source.document("mallopt(3): M_MMAP_THRESHOLD (allocations above it are served by mmap and returned by munmap on free) and"
                    + " M_TRIM_THRESHOLD, settable as MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_"),
            Source.reasoned("one munmap or madvise a step, or 500 calls at 50 a second in a whole run"));

    public static final Rule READS = Rule.of("M3-TRACE-READS", "file reads: how many, and how large on average", EnumSet.of(INFO),
            "each read is a syscall, so reads under 256 KiB on average cost more than their bytes; larger ones cost their bytes, not their count",
            "read in larger pieces (1 MiB and up) or map the files (np.memmap, safetensors)",
            STRACE, Source.reasoned("256 KiB: above it a read's syscall is a small part of its copy; a read a step, or 1,000 in a run, counts"));

    public static final Rule FILE_LOOKUPS = Rule.of("M3-TRACE-FILE-LOOKUPS", "stat and open calls: files looked up every step, or imports",
            EnumSet.of(INFO),
            "a lookup every step is an import or os.path check inside the loop, or a dataset that opens a file per sample; in a whole run"
                    + " most are Python's imports looking along sys.path, paid once per process (and per DataLoader worker under spawn)",
            "open files once, outside the loop; keep imports out of the step",
            Source.document("Python documentation, The import system (sys.path entries searched in turn for each module)"),
            Source.reasoned("one lookup a step, or 1,000 stat calls in a run"));

    public static final Rule POLLING = Rule.of("M3-TRACE-POLLING", "polling and sleeping calls' share of the syscall time", EnumSet.of(INFO),
            "threads idle until work or a timeout arrives: time asleep, not CPU burnt", "", STRACE, SHARES);

    public static final Rule YIELDS = Rule.of("M3-TRACE-YIELD", "sched_yield calls: threads that spin while they wait", EnumSet.of(INFO),
            "OpenMP, MKL and OpenBLAS workers between parallel regions, or CUDA's synchronisation under cudaDeviceScheduleYield, keep a core"
                    + " busy while they wait",
            "cap the pools (OMP_NUM_THREADS) or let idle OpenMP threads sleep (OMP_WAIT_POLICY=PASSIVE); for CUDA, cudaDeviceScheduleBlockingSync",
            Source.document("CUDA Runtime API, cudaSetDeviceFlags: cudaDeviceScheduleYield yields while waiting for the GPU; OpenMP"
                    + " specification, OMP_WAIT_POLICY"),
            Source.reasoned("1,000 calls: fewer are a pool's start and end"));

    public static final Rule SOCKETS = Rule.of("M3-TRACE-SOCKETS", "sockets' and pipes' share of the syscall time", EnumSet.of(INFO),
            "DataLoader workers hand each batch to the main process over a pipe or Unix socket (the tensors stay in shared memory; the socket"
                    + " carries their handles), or the job talks to other hosts (NCCL's socket transport, a data service)", "",
            Source.source("pytorch/pytorch torch/multiprocessing/reductions.py: a tensor in shared memory is sent as a handle (a file"
                    + " descriptor or a file name), not its bytes"), SHARES);

    public static final Rule PROCESSES = Rule.of("M3-TRACE-PROCESSES", "processes started during the trace", EnumSet.of(WARN, INFO),
            "DataLoader workers are processes, started anew for every pass over the loader unless persistent_workers=True, and each start forks"
                    + " the whole training process; a warning where they start during marked steps",
            "DataLoader(..., persistent_workers=True)",
            Source.document("PyTorch torch.utils.data.DataLoader documentation, persistent_workers: if True, the data loader will not shut"
                    + " down the worker processes after a dataset has been consumed once"));

    public static final Rule EVEN = Rule.of("M3-TRACE-EVEN", "no group of calls stands out", EnumSet.of(INFO),
            "the syscalls are spread over their groups: none of the patterns above explains where the time goes", "", SHARES);

    /** Module 3's rules on a syscall profile, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(FUTEX, NVIDIA_IOCTL, MMAP_CHURN, READS, FILE_LOOKUPS, POLLING, YIELDS, SOCKETS, PROCESSES, EVEN);
    }
}
