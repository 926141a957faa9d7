package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import hostside.container.AvailableMemory;
import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.fs.FsRoot;
import hostside.harness.DetailFigures;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;
import hostside.libc.Libc;
import hostside.memory.CacheKnee;
import hostside.memory.MemoryCases;
import hostside.memory.MemorySizes;
import hostside.memory.MemoryTarget;

/**
 * The CPU memory half of Module 1: STREAM's bandwidth with every CPU and with one thread, per NUMA
 * node, the (CPU node, memory node) matrices of read bandwidth and idle latency, and one thread on
 * each kind of core of a hybrid CPU. Where each runs is the {@link MemoryPlan}'s; how much memory,
 * STREAM's rule bounded by what the machine can spare ({@link MemorySizes}), on the caches sysfs
 * names or, where it names no size, on those a pointer chase finds ({@link CacheKnee}).
 */
public final class MemoryDrill {
    private MemoryDrill() {}

    /** One result and what it is about. */
    public record Measured(Scope scope, String label, Result result) {}

    /**
     * @param notRun  why nothing was measured ("" when it ran): a recording, or no memory to spare
     * @param plan    where each measurement runs, from the topology (also on a recording)
     * @param results in the order they ran
     */
    public record MemorySection(String notRun, MemoryPlan plan, List<Measured> results) {
        public MemorySection {
            results = List.copyOf(results);
        }

        /** Every figure, the detail's too (STREAM's other kernels), each with its scope. */
        public List<Figure> figures() {
            List<Figure> f = new ArrayList<>();
            for (Measured m : results) f.addAll(DetailFigures.of(m.result(), m.scope()));
            return f;
        }
    }

    public static List<TestCase<MemoryTarget>> tests() {
        return MemoryCases.all();
    }

    public static MemorySection run(FsRoot fs, Topology topology, List<TestCase<MemoryTarget>> tests, ProgressSink progress) {
        return run(fs, topology, tests, null, progress);
    }

    /** ... with STREAM's arrays of {@code arrayBytes} each (the size of the STREAM build it is compared with); null for STREAM's rule. */
    public static MemorySection run(FsRoot fs, Topology topology, List<TestCase<MemoryTarget>> tests, Long arrayBytes, ProgressSink progress) {
        MemoryPlan plan = MemoryPlan.of(topology);
        if (tests.isEmpty()) return new MemorySection("", plan, List.of());
        if (!fs.isLive()) return new MemorySection(Runner.RECORDED, plan, List.of());
        long available = AvailableMemory.read(fs).orElse(4L << 30);
        boolean huge = thpAllows(fs.text("/sys/kernel/mm/transparent_hugepage/enabled").orElse(null));
        long pageSize = Libc.pageSize();
        CacheKnee.Knee knee = null;
        // the probe sizes the arrays: a run that skips every case (a quick report) sizes nothing, and spent
        // 0.5-0.6 s of a 2-CPU VM's quick report on it (its machine drill 1.0-1.1 -> 0.5 s, docs/measurements/2026-12-08-minute-cuts)
        if (plan.llcBytes() <= 0 && !plan.cpus().isEmpty() && !Runner.noneRuns(tests)) {
            progress.step("measuring the caches' size: sysfs names none");
            knee = CacheKnee.measure(plan.cpus(), kneeMax(available), huge);
        }
        MemorySizes sizes = MemorySizes.of(plan.llcBytes(), knee, available, pageSize, arrayBytes);
        List<Measured> out = new ArrayList<>();
        int loads = chaseLoads(plan.pairs().size());
        for (Run r : schedule(plan, tests)) {
            MemoryTarget target = new MemoryTarget(fs, r.scope, r.label, r.cpus, r.node, sizes.array(), sizes.read(), sizes.chase(), loads, huge, pageSize, sizes.note(), sizes.sizing(),
                    plan.nodeMates(MemoryTarget.oneCpu(r.cpus)));
            for (Result x : Runner.run(r.cases, target, progress.on(r.label))) out.add(new Measured(r.scope, r.label, x));
        }
        return new MemorySection("", plan, out);
    }

    /** Which cases run against which CPUs and memory, in order. */
    record Run(Scope scope, String label, CpuSet cpus, Integer node, List<TestCase<MemoryTarget>> cases) {}

    static List<Run> schedule(MemoryPlan plan, List<TestCase<MemoryTarget>> tests) {
        List<Run> runs = new ArrayList<>();
        add(runs, Scope.MACHINE, "all CPUs", plan.cpus(), null, tests, Set.of(MemoryCases.TRIAD));
        add(runs, Scope.MACHINE, "one thread", CpuSet.of(plan.oneThreadCpu()), null, tests, Set.of(MemoryCases.TRIAD_ONE_THREAD));
        for (MemoryPlan.Node n : plan.nodes()) {
            add(runs, Scope.node(n.id()), "node " + n.id(), n.cpus(), n.id(), tests, Set.of(MemoryCases.TRIAD));
        }
        boolean oneNode = plan.pairs().size() == 1;
        for (MemoryPlan.Pair p : plan.pairs()) {
            String label = oneNode ? "node " + p.cpuNode() : String.format(Locale.ROOT, "CPUs of node %d, memory of node %d", p.cpuNode(), p.memoryNode());
            add(runs, Scope.nodes(p.cpuNode(), p.memoryNode()), label, p.cpus(), p.memoryNode(), tests, Set.of(MemoryCases.READ, MemoryCases.LATENCY));
        }
        for (MemoryPlan.Kind k : plan.kinds()) {
            add(runs, Scope.cpus(CpuSet.of(k.cpu())), k.name() + " (CPU " + k.cpu() + ")", CpuSet.of(k.cpu()), null, tests,
                    Set.of(MemoryCases.TRIAD_ONE_THREAD, MemoryCases.LATENCY));
        }
        return runs;
    }

    private static void add(List<Run> runs, Scope scope, String label, CpuSet cpus, Integer node, List<TestCase<MemoryTarget>> tests, Set<String> keys) {
        List<TestCase<MemoryTarget>> picked = tests.stream().filter(t -> keys.contains(t.key())).toList();
        if (!picked.isEmpty() && !cpus.isEmpty()) runs.add(new Run(scope, label, cpus, node, picked));
    }

    /** Pairs a matrix may have before its chases take fewer loads a sample. */
    static final int FULL_CHASE_PAIRS = 4;
    static final int MIN_CHASE_LOADS = 1 << 19;

    /**
     * Dependent loads per chase sample: {@link MemoryCases#CHASE_LOADS} (some 0.3 s at 140 ns a load)
     * up to four pairs, then fewer in proportion, so that an 8-node machine's 64 cells take about
     * what 16 would, never below 2^19 loads (50 ms at 100 ns: still thousands of timer ticks).
     */
    static int chaseLoads(int pairs) {
        if (pairs <= FULL_CHASE_PAIRS) return MemoryCases.CHASE_LOADS;
        return Math.max(MIN_CHASE_LOADS, (int) ((long) MemoryCases.CHASE_LOADS * FULL_CHASE_PAIRS / pairs));
    }

    /** THP's mode allows madvise(MADV_HUGEPAGE) unless it is "never" (or unreadable: then asking costs nothing). */
    static boolean thpAllows(String enabled) {
        return enabled == null || !enabled.contains("[never]");
    }

    /**
     * The largest set the cache probe chases: {@link CacheKnee#MAX_BYTES}, within the quarter of
     * available memory that STREAM's arrays may take too.
     */
    static long kneeMax(long available) {
        return Math.min(CacheKnee.MAX_BYTES, available / 4);
    }
}
