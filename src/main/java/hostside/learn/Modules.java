package hostside.learn;

import java.util.List;

/** The course's six modules, as the index lists them: what each covers, in the course's words. */
public final class Modules {
    private Modules() {}

    public record Module(int number, String title, String covers) {}

    public static final List<Module> ALL = List.of(
            new Module(1, "How the box is wired", "Cores and cache lines, NUMA, PCIe topology, NVLink and NVLink-C2C, DMA and pinned memory."),
            new Module(2, "What virtual memory does to your bytes", "Page tables and TLBs, faults, THP, mmap and the page cache, copy-on-write, pinning."),
            new Module(3, "How the kernel schedules the threads that feed the GPU", "Syscalls and context switches, futexes, affinity, launch jitter, CUDA graphs."),
            new Module(4, "How I/O, networks and containers fail", "Page cache vs O_DIRECT, io_uring, cgroups and the container limits that break training."),
            new Module(5, "Coherent superchips and NVLink racks", "Coherent NVLink-C2C, ATS and page size, IMEX and fabric handles, one NVLink domain of 72 GPUs."),
            new Module(6, "Six machines on the same four axes", "This machine among the reference platforms, offload math and the day-one checklist."));

    public static Module get(int n) {
        if (n < 1 || n > ALL.size()) throw new IllegalArgumentException("no module " + n);
        return ALL.get(n - 1);
    }
}
