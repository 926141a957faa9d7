import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import hostside.cpu.CpuDrill;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.Earlier;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Selection;
import hostside.harness.TestCase;
import hostside.io.IoDrill;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;
import hostside.process.LoadWindow;
import hostside.report.Profile;
import hostside.vm.VmDrill;

/**
 * The experiment on the warm reads that came 0.6-0.9 of `io` alone inside `report`: the
 * report's drills in one JVM, as Profile runs them, with `io`'s two warm-read cases (500 ms
 * samples, as the report's) between them, and the JVM's garbage collections during each io step.
 * It drives the drills through their contract (hostside.harness.Drill), as the report does.
 * Not part of hostside; compiled against its jar:
 *   javac -cp target/hostside.jar -d target/bench-classes bench/java/ReportProbe.java
 *   java --enable-native-access=ALL-UNNAMED -cp target/hostside.jar:target/bench-classes ReportProbe DIR io machine io vm io cpu io
 */
public class ReportProbe {
    /** The machine's load is not read: the probe times the drills, it does not judge their figures. */
    static final LoadWindow NOT_READ = LoadWindow.NONE;

    public static void main(String[] args) {
        FsRoot fs = FsRoot.live();
        IoDrill.Options o = new IoDrill.Options(Path.of(args[0]), 2L << 30, null, 500L);
        // the report's order: Module 1 first, its facts handed to the drills after it
        MachineRun machine = MachineDrill.DRILL.run(context(fs, Selection.none(), Earlier.NONE), MachineDrill.DRILL.defaults());
        Earlier earlier = Earlier.NONE.with(machine);
        long t0 = System.nanoTime();
        for (int i = 1; i < args.length; i++) {
            long s = System.nanoTime();
            long[] gc0 = gc();
            String what = switch (args[i]) {
                case "io" -> {
                    StringBuilder b = new StringBuilder();
                    Selection warm = keys(IoDrill.DRILL, k -> k.endsWith("_warm_qd1"));
                    for (Result r : IoDrill.DRILL.run(context(fs, warm, earlier), o).results()) {
                        if (r.value() != null) b.append(String.format(Locale.ROOT, " %s %.2f (%.2f-%.2f)", r.key(), r.value().median(), r.value().min(), r.value().max()));
                    }
                    yield b.toString();
                }
                case "machine" -> {
                    MachineDrill.DRILL.run(context(fs, Selection.all(), Earlier.NONE), MachineDrill.DRILL.defaults());
                    yield "";
                }
                case "vm" -> {
                    VmDrill.DRILL.run(context(fs, Selection.all(), earlier), new VmDrill.Options(null, null, null, Profile.MEASUREMENT));
                    yield "";
                }
                case "cpu" -> {
                    CpuDrill.DRILL.run(context(fs, Selection.all(), earlier), CpuDrill.Options.defaults());
                    yield "";
                }
                case "sched" -> { // the cpu drill without its jitter and DataLoader cases
                    CpuDrill.DRILL.run(context(fs, keys(CpuDrill.DRILL, k -> !k.contains("jitter") && CpuDrill.measurements().stream().anyMatch(t -> t.key().equals(k))), earlier),
                            CpuDrill.Options.defaults());
                    yield "";
                }
                case "jitter" -> {
                    CpuDrill.DRILL.run(context(fs, keys(CpuDrill.DRILL, k -> k.contains("jitter")), earlier), CpuDrill.Options.defaults());
                    yield "";
                }
                case "loader" -> {
                    CpuDrill.DRILL.run(context(fs, keys(CpuDrill.DRILL, k -> DataLoaderTarget.tests().stream().anyMatch(t -> t.key().equals(k))), earlier),
                            CpuDrill.Options.defaults());
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

    /** A drill's context in this probe: no progress, the load not read. */
    static DrillContext context(FsRoot fs, Selection cases, Earlier earlier) {
        return new DrillContext(fs, cases, ProgressSink.NONE, NOT_READ, earlier);
    }

    /** The drill's cases whose keys {@code keep} accepts, as --only would name them. */
    static Selection keys(Drill<?, ?> drill, Predicate<String> keep) {
        List<String> keys = drill.cases().stream().map(TestCase::key).filter(keep).toList();
        return keys.isEmpty() ? Selection.none() : Selection.named(keys, drill.cases());
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
