package hostside.cpu;

import java.util.ArrayList;
import java.util.List;

import hostside.cpu.measure.CpuTarget;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.SchedCosts;
import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;
import hostside.libc.Libc;
import hostside.libc.Sched;
import hostside.machine.MachineFacts;
import hostside.machine.PciDevice;

/**
 * Module 3's measurements: what the scheduler charges (syscall, context switches, wake-up,
 * migration) and launch jitter in four conditions, on the first GPU when there is one.
 */
public final class CpuDrill {
    private CpuDrill() {}

    public static List<TestCase<CpuTarget>> measurements() {
        List<TestCase<CpuTarget>> t = new ArrayList<>(SchedCosts.all());
        t.addAll(LaunchJitter.all());
        return t;
    }

    /** The sizes a user may set: jitter cadence and count, the DataLoader's dataset and workers. */
    public record Settings(int launches, long periodNs, long datasetBytes, int workers) {
        public static Settings defaults() {
            return new Settings(CpuTarget.DEFAULT_LAUNCHES, CpuTarget.DEFAULT_PERIOD_NS,
                    hostside.cpu.dataloader.DataLoaderTarget.DEFAULT_DATASET_BYTES, hostside.cpu.dataloader.DataLoaderTarget.DEFAULT_WORKERS);
        }
    }

    /** The DataLoader measurements: forked Python workers over a list and over a numpy array, and fork vs spawn with CUDA. */
    public static List<Result> dataloader(FsRoot fs, List<TestCase<hostside.cpu.dataloader.DataLoaderTarget>> tests, Settings s,
                                          hostside.harness.ProgressSink progress) {
        if (tests.isEmpty()) return List.of();
        if (!fs.isLive()) return tests.stream().map(x -> Result.notRun(x, hostside.harness.Runner.RECORDED)).toList();
        var target = hostside.cpu.dataloader.DataLoaderTarget.onThisMachine(s.datasetBytes(), s.workers(),
                hostside.cpu.dataloader.DataLoaderTarget.DEFAULT_TIMEOUT);
        var cut = hostside.cpu.dataloader.DataLoaderTarget.cut(fs, s.datasetBytes(), s.workers());
        List<Result> results = Runner.run(tests, target, progress);
        return cut.map(c -> withCut(results, c, "dataloader_cow_")).orElse(results);
    }

    /** Results whose key starts with {@code prefix}, with {@code cut} in their detail ({@link hostside.harness.Cut#KEY}). */
    static List<Result> withCut(List<Result> results, hostside.harness.Cut cut, String prefix) {
        return results.stream().map(r -> {
            if (!r.isOk() || !r.key().startsWith(prefix)) return r;
            java.util.Map<String, Object> d = new java.util.LinkedHashMap<>(hostside.harness.MapDetail.of(r));
            d.put(hostside.harness.Cut.KEY, cut);
            return r.withDetail(new hostside.harness.MapDetail(d));
        }).toList();
    }

    /** What the launch measurements ran on: the GPU, or why there was none. */
    public record Measured(List<Result> results, String gpu, String noGpu) {}

    public static Measured measure(FsRoot fs, MachineFacts machine, List<TestCase<CpuTarget>> tests, int launches, long periodNs,
                                   hostside.harness.ProgressSink progress) {
        if (!fs.isLive()) {
            return new Measured(tests.stream().map(x -> Result.notRun(x, hostside.harness.Runner.RECORDED)).toList(), "", "");
        }
        if (!Libc.available()) {
            return new Measured(tests.stream().map(x -> Result.notRun(x, "libc could not be called on this system")).toList(), "", "");
        }
        if (tests.isEmpty()) return new Measured(List.of(), "", "");
        List<Integer> cpus = Sched.affinity();
        boolean needsGpu = tests.stream().anyMatch(x -> x instanceof LaunchJitter);
        String noGpu = "";
        Cuda cuda = null;
        if (needsGpu) {
            Cuda.Open open = Cuda.open();
            if (open instanceof Cuda.Open.Ready r) cuda = r.cuda();
            else noGpu = ((Cuda.Open.NotRun) open).why();
        }
        if (cuda == null) return new Measured(Runner.run(tests, new CpuTarget(cpus, cpus, null, launches, periodNs), progress), "", noGpu);
        try (GpuBench bench = new GpuBench(cuda, 0)) {
            List<Integer> local = feederCpus(machine, bench.pciAddress, cpus);
            CpuTarget t = new CpuTarget(cpus, local, bench, launches, periodNs);
            return new Measured(Runner.run(tests, t, progress.on("GPU0")), "GPU0: " + bench.name + " (" + bench.pciAddress + ")", "");
        } catch (CudaException e) {
            String why = "GPU0 could not be used: " + e.getMessage();
            return new Measured(Runner.run(tests, new CpuTarget(cpus, cpus, null, launches, periodNs), progress), "", why);
        }
    }

    /** The GPU's local CPUs that this process may use; all of {@code allowed} when the kernel does not say. */
    static List<Integer> feederCpus(MachineFacts machine, String pciAddress, List<Integer> allowed) {
        for (PciDevice d : machine.pci()) {
            if (!d.address().equals(pciAddress) || d.localCpus() == null || d.localCpus().isEmpty()) continue;
            List<Integer> local = CpuSet.parseList(d.localCpus()).stream().boxed().filter(allowed::contains).toList();
            if (!local.isEmpty()) return local;
        }
        return allowed;
    }

    /** Facts, then the measurements and the DataLoader cases, each reported to {@code progress}. */
    public static CpuRun run(hostside.fs.FsRoot fs, List<TestCase<CpuTarget>> tests,
                             List<TestCase<hostside.cpu.dataloader.DataLoaderTarget>> loader, CpuDrill.Settings settings, hostside.harness.ProgressSink progress) {
        hostside.machine.MachineFacts machine = hostside.machine.MachineReader.read(fs);
        CpuDrill.Measured m = CpuDrill.measure(fs, machine, tests, settings.launches(), settings.periodNs(), progress);
        List<hostside.harness.Result> dl = CpuDrill.dataloader(fs, loader, settings, progress);
        hostside.cpu.facts.CpuFacts facts = hostside.cpu.facts.CpuFactsReader.read(fs, machine);
        List<String> verdicts = new java.util.ArrayList<>(MeasuredVerdicts.of(machine.host(), m.results(), !m.gpu().isEmpty()));
        verdicts.addAll(hostside.cpu.dataloader.DataLoaderVerdicts.of(dl));
        return new CpuRun(machine.host(), facts, hostside.cpu.facts.CpuVerdicts.of(facts), m, dl, verdicts);
    }

}
