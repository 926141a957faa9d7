import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import hostside.cpu.CpuDrill;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.fs.FsRoot;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.io.IoDrill;
import hostside.io.measure.IoTarget;
import hostside.machine.GpuDrill;
import hostside.machine.MachineDrill;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;
import hostside.process.MachineLoad;
import hostside.vm.VmDrill;
import hostside.vm.measure.TlbReach;

/**
 * The experiment on the warm reads that came 0.6-0.9 of `io` alone inside `report`: the
 * report's drills in one JVM, as Profile runs them, with `io`'s two warm-read cases (500 ms
 * samples, as the report's) between them, and the JVM's garbage collections during each io step.
 * Not part of hostside; compiled against its jar:
 *   javac -cp target/hostside.jar -d target/bench-classes bench/java/ReportProbe.java
 *   java --enable-native-access=ALL-UNNAMED -cp target/hostside.jar:target/bench-classes ReportProbe DIR io machine io vm io cpu io
 */
public class ReportProbe {
    /** The machine's load is not read: the probe times the drills, it does not judge their figures. */
    static final MachineLoad NOT_READ = null;

    public static void main(String[] args) {
        FsRoot fs = FsRoot.live();
        MachineFacts facts = MachineReader.read(fs);
        IoDrill.Options o = new IoDrill.Options(Path.of(args[0]), 2L << 30, null, 500L);
        List<TestCase<IoTarget>> warm = IoDrill.tests().stream().filter(t -> t.key().endsWith("_warm_qd1")).toList();
        long t0 = System.nanoTime();
        for (int i = 1; i < args.length; i++) {
            long s = System.nanoTime();
            long[] gc0 = gc();
            String what = switch (args[i]) {
                case "io" -> {
                    StringBuilder b = new StringBuilder();
                    for (Result r : IoDrill.run(fs, facts, warm, o, ProgressSink.NONE, NOT_READ).results()) {
                        if (r.value() != null) b.append(String.format(Locale.ROOT, " %s %.2f (%.2f-%.2f)", r.key(), r.value().median(), r.value().min(), r.value().max()));
                    }
                    yield b.toString();
                }
                case "machine" -> {
                    MachineDrill.run(fs, GpuDrill.tests(), GpuDrill.allGpuTests(), ProgressSink.NONE);
                    yield "";
                }
                case "vm" -> {
                    VmDrill.run(fs, facts.host(), VmDrill.hostTests(TlbReach.REPORT_MAX), VmDrill.gpuTests(),
                            new VmDrill.FileOptions(null, null, null), ProgressSink.NONE, VmDrill.Reused.NONE, NOT_READ);
                    yield "";
                }
                case "cpu" -> {
                    CpuDrill.run(fs, facts, CpuDrill.measurements(), DataLoaderTarget.tests(), CpuDrill.Settings.defaults(), ProgressSink.NONE, NOT_READ);
                    yield "";
                }
                case "sched" -> { // the cpu drill without its jitter and DataLoader cases
                    CpuDrill.run(fs, facts, CpuDrill.measurements().stream().filter(t -> !t.key().contains("jitter")).toList(),
                            List.of(), CpuDrill.Settings.defaults(), ProgressSink.NONE, NOT_READ);
                    yield "";
                }
                case "jitter" -> {
                    CpuDrill.run(fs, facts, CpuDrill.measurements().stream().filter(t -> t.key().contains("jitter")).toList(),
                            List.of(), CpuDrill.Settings.defaults(), ProgressSink.NONE, NOT_READ);
                    yield "";
                }
                case "loader" -> {
                    CpuDrill.run(fs, facts, List.of(), DataLoaderTarget.tests(), CpuDrill.Settings.defaults(), ProgressSink.NONE, NOT_READ);
                    yield "";
                }
                default -> throw new IllegalArgumentException("step " + args[i] + ": io, machine, vm, cpu, sched, jitter or loader");
            };
            long[] gc1 = gc();
            System.out.printf(Locale.ROOT, "%6.1f s  %-7s %5.1f s  gc %d, %d ms  heap used %d MiB%s%n", (System.nanoTime() - t0) / 1e9, args[i],
                    (System.nanoTime() - s) / 1e9, gc1[0] - gc0[0], gc1[1] - gc0[1],
                    (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20, what);
        }
    }

    /** Collections and their milliseconds so far, every collector together. */
    static long[] gc() {
        long n = 0, ms = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
            ms += Math.max(0, b.getCollectionTime());
        }
        return new long[] {n, ms};
    }
}
