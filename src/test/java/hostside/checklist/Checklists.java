package hostside.checklist;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checklists the tests build: the training job of {@link SamplerTest} over a window, and the same with every section filled. */
final class Checklists {
    private Checklists() {}

    /** The job over two seconds of a recorded /proc that {@link SamplerTest} rewrites tick by tick; no kernel log, no GPUs. */
    static Checklist job(Path dir) throws InterruptedException {
        SamplerTest job = new SamplerTest();
        job.dir = dir;
        job.job();
        return ChecklistRun.run(job.box.fs(), SamplerTest.PID, 2, true, new FakeTicker(job::advance),
                GpuFeed.none("no NVIDIA driver (libnvidia-ml.so.1 not found)"), i -> {});
    }

    /** {@code c} with other kernel, GPU and unknowns sections (its verdicts stay the window's). */
    static Checklist with(Checklist c, KernelSection kernel, GpuSection gpus, List<String> unknowns) {
        return new Checklist(c.schema(), c.kind(), c.pid(), c.comm(), c.window(), c.verdict(), c.verdicts(), c.notes(), c.load(), kernel,
                c.cpus(), c.process(), c.io(), gpus, unknowns);
    }

    /** An OOM kill of the job's worker by its cgroup, a GPU that fell off the bus twice, a hung task of the job. */
    static KernelSection kernel() {
        return KernelSectionTest.section(Set.of(SamplerTest.PID, SamplerTest.WORKER),
                KernelSectionTest.record(1, 1800, "Memory cgroup out of memory: Killed process 200 (pt_data_worker) total-vm:1kB, anon-rss:1kB"),
                KernelSectionTest.record(2, 600, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                KernelSectionTest.record(3, 240, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                KernelSectionTest.record(4, 30, "INFO: task python3:100 blocked for more than 122 seconds."));
    }

    /** A GPU of the job sampled five times (util 20 to 60, mean 35.2, median 30), held by the power cap in 80% of them. */
    static GpuSection.GpuUse gpu(int index, String pci, Double mean, Integer min, Integer max, Double median, int samples) {
        return new GpuSection.GpuUse(index, "NVIDIA H200", pci, mean, min, max, median, samples, 12.0, 70L << 30, 141L << 30, 699.5, 700.0,
                1410.0, 1980, Map.of("power cap", 0.8), 1234.0, 15728640.0, List.of(SamplerTest.PID), true);
    }

    /** The job with the kernel log above, one GPU and four unknowns: every step has something to show. */
    static Checklist full(Path dir) throws InterruptedException {
        return with(job(dir), kernel(), new GpuSection(null, List.of(gpu(0, "0000:3b:00.0", 35.2, 20, 60, 30.0, 5))), List.of("a", "b", "c", "d"));
    }
}
