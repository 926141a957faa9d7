package hostside.vm;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.core.Findings;
import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.fs.FsRoot;
import hostside.gpu.bench.PinCost;
import hostside.gpu.cuda.CudaFacts;
import hostside.harness.Cut;
import hostside.harness.Detail;
import hostside.harness.DetailTypes;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.machine.Host;
import hostside.vm.facts.VmVerdicts;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.FileRead;
import hostside.vm.measure.ManagedMigration;
import hostside.vm.measure.TlbReach;

/**
 * Module 2 runs built by hand for the tests: every case measured, with the figures the H200 gave
 * on 2026-12-03 (testdata/reports), one case failed and one not run beside them where asked.
 */
final class Runs {
    static final long KiB = 1L << 10, MiB = 1L << 20, GiB = 1L << 30;
    static final String PCI = "0000:00:06.0";
    static final String DIR = "/var/tmp";

    private Runs() {}

    /** Every case of the drill, host and GPU, so that their details read back as their records. */
    static void registerDetails() {
        List<TestCase<?>> all = new ArrayList<>(VmDrill.hostTests());
        all.addAll(VmDrill.gpuTests());
        DetailTypes.register(all);
    }

    static Result file(boolean mmap, boolean cold, double median, double min, double max, double faultsPerMiB) {
        FileRead t = new FileRead(mmap, cold);
        long faults = Math.round(faultsPerMiB * 1024);
        var d = new FileRead.FileDetail(GiB, DIR + "/hostside-vm-459.tmp", faults, 0, faultsPerMiB, cold ? 0.0 : null, cold ? 256L << 20 : GiB);
        return Result.ok(t, Unit.GB_PER_S, new Stats(median, min, max, cold ? 3 : 5), "read by hand", "fio --rw=read --size=1g", d);
    }

    static Result touchBase(Cut cut) {
        var d = new AnonTouch.TouchDetail(256 * MiB, 4096, 65536, 256.0, 1.65, null, 0, null, null, null, cut);
        return Result.ok(new AnonTouch(false), Unit.MS_PER_GIB, new Stats(433.0, 419.0, 555.9, 5), "touched by hand", d);
    }

    static Result touchThp() {
        var d = new AnonTouch.TouchDetail(256 * MiB, 4096, 128, 0.5, 274.5, 2 * MiB, 128, 0L, 256 * MiB, 100.0, null);
        return Result.ok(new AnonTouch(true), Unit.MS_PER_GIB, new Stats(140.6, 140.0, 143.6, 5), "touched by hand", d);
    }

    /** The TLB curve from 64 KiB by fours: each point's median, with min and max 5% either side. */
    static Result tlb(boolean huge, double... ns) {
        List<Sweep.Point> points = new ArrayList<>();
        long size = 64 * KiB;
        for (double n : ns) {
            points.add(new Sweep.Point(size, new Stats(n, n * 0.95, n * 1.05, 3)));
            size *= 4;
        }
        var d = new TlbReach.TlbDetail(4096, huge ? 2 * MiB : null, huge ? 100.0 : null, 1 << 20, new Sweep(Unit.NS, points), null, "");
        return Result.ok(new TlbReach(huge), Unit.NS, points.getLast().value(), "walked by hand", d);
    }

    static Result managed(ManagedMigration.Kind kind, double median) {
        ManagedMigration t = new ManagedMigration(kind);
        var d = new ManagedMigration.MigrationDetail("NVIDIA H200 (" + PCI + ")", 512 * MiB, kind == ManagedMigration.Kind.CPU_FAULTS_TO_HOST ? 0L : null);
        return Result.ok(t, Unit.GB_PER_S, new Stats(median, median * 0.9, median * 1.1, 5), "migrated by hand", d);
    }

    /** Pinning's detail is the GPU drill's record, not this one's: none here, so these stay right whatever it becomes. */
    static Result pin(boolean register, double median) {
        return Result.ok(new PinCost(register), Unit.MS_PER_GIB, new Stats(median, median * 0.99, median * 1.1, 3), "pinned by hand",
                (Detail) null);
    }

    static List<Result> hostResults(Cut cut) {
        return List.of(file(false, true, 1.594, 1.567, 1.607, 0.0996), file(true, true, 1.654, 1.602, 1.753, 0.8945),
                file(false, false, 7.506, 5.520, 7.804, 0.0840), file(true, false, 9.758, 9.427, 10.341, 0.8945),
                touchBase(cut), touchThp(),
                tlb(false, 2.44, 2.73, 4.93, 8.77, 19.4, 22.2, 62.1, 196.6, 276.9),
                tlb(true, 2.31, 2.42, 2.32, 6.39, 6.56, 7.42, 44.8, 129.6, 130.7));
    }

    static List<Result> gpuResults() {
        return List.of(pin(false, 476.8), pin(true, 34.8),
                managed(ManagedMigration.Kind.GPU_FAULTS_TO_DEVICE, 9.04), managed(ManagedMigration.Kind.CPU_FAULTS_TO_HOST, 4.04),
                managed(ManagedMigration.Kind.PREFETCH_TO_DEVICE, 48.2), managed(ManagedMigration.Kind.PREFETCH_TO_HOST, 10.5));
    }

    static VmGpu.GpuView h200View() {
        return new VmGpu.GpuView(0, "NVIDIA H200", PCI, "none", List.of(
                new CudaFacts.Attribute("pageableMemoryAccess", 88, 0, "reads and writes pageable host memory without registering it"),
                new CudaFacts.Attribute("concurrentManagedAccess", 89, 1, "managed memory usable by CPU and GPU at the same time"),
                new CudaFacts.Attribute("directManagedMemAccessFromHost", 101, null, "the CPU reads managed memory on the GPU without migrating it")),
                2 * MiB, 2 * MiB, "");
    }

    /** A second GPU whose granularity the driver would not give. */
    static VmGpu.GpuView refusingView() {
        return new VmGpu.GpuView(1, "NVIDIA H100 80GB HBM3", "0000:00:07.0", "none", List.of(), null, null, "cuMemGetAllocationGranularity: CUDA_ERROR_NOT_SUPPORTED (801)");
    }

    /** The H200 recording's facts, a VM host, every case measured (the first touch cut when {@code cut} is given), verdicts from them. */
    static VmRun measured(Cut cut) {
        FsRoot h200 = FsRoot.open(hostside.Fixtures.h200().toString());
        Host host = new Host("vm", "6.18.44-fc-v1147-gpu", "x86_64", "VM", "580.159.04", null, "live");
        List<Result> hostResults = hostResults(cut);
        VmGpu gpu = new VmGpu("", List.of(h200View(), refusingView()), gpuResults(), "GPU0: NVIDIA H200 (" + PCI + ")", PCI);
        var facts = VmDrill.DRILL.facts(h200);
        List<Finding> findings = new ArrayList<>(VmVerdicts.of(facts));
        findings.add(Findings.warn("test", "a warning made by hand"));
        return new VmRun(host, facts, findings, hostResults, gpu, MeasuredVerdicts.of(host, hostResults, gpu.results(), null));
    }

    static VmRun measured() {
        return measured(null);
    }

    /** As {@link #measured()}, with the THP walk failed and the mmap cold read not run. */
    static VmRun someNotMeasured() {
        VmRun all = measured();
        List<Result> host = new ArrayList<>(all.host());
        host.set(1, Result.notRun(new FileRead(true, true), "/tmp is on tmpfs: its files live in memory"));
        host.set(7, Result.failed(new TlbReach(true), "mmap: ENOMEM"));
        return new VmRun(all.machine(), all.facts(), all.findings(), host, all.gpu(), MeasuredVerdicts.of(all.machine(), host, all.gpu().results(), null));
    }
}
