package hostside.memory;

import java.util.List;
import java.util.Locale;

import hostside.core.CpuSet;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;

/**
 * Module 1's memory measurements as test cases: STREAM's kernels with every CPU of a target and
 * with one thread, read bandwidth and idle latency per (CPU node, memory node) pair. Each runs
 * against a {@link MemoryTarget}; the drill decides which targets each case gets.
 */
public final class MemoryCases {
    public static final String TRIAD = "memory_bandwidth_triad", TRIAD_ONE_THREAD = "memory_bandwidth_triad_one_thread",
            READ = "memory_bandwidth_read", LATENCY = "memory_latency";
    /** STREAM's NTIMES is 10 and it skips the first: one warm-up, nine samples. */
    static final Sampling STREAM_SAMPLING = new Sampling(1, 9);
    /**
     * One thread moves a tenth of what every CPU moves through the same arrays, and runs Triad alone
     * ({@link StreamRun.Round#TRIAD_ALONE}): five samples of it took 3.3 s of an H100 VM's report, where
     * four samples of the four kernels had taken 6.7 (the H100 and H200 VMs' 300 MiB L3 makes each
     * array 1.2 GiB).
     */
    static final Sampling ONE_THREAD_SAMPLING = new Sampling(1, 5);
    static final Sampling READ_SAMPLING = new Sampling(1, 9);
    static final Sampling CHASE_SAMPLING = new Sampling(1, 5);
    /**
     * Dependent loads per chase sample, 2^20: 0.13 s at the H100 VM's 127 ns a load, a million timer
     * ticks, and a twentieth of the 1.2 GiB set's cycle. At 2^21 the chase took 3.7 s of that VM's
     * report; on the dev VM 2^20 took 0.9-1.5 s less a run than 2^21, its medians (206-277 ns) inside
     * 2^21's range (221-241) over three interleaved rounds, the VM drifting more from round to round
     * than between them (docs/measurements/2026-12-08-fewer-loads-devvm.md). A large matrix takes
     * fewer ({@link MemoryTarget#chaseLoads}); the peer (memref chase) is run with the report's.
     */
    public static final int CHASE_LOADS = 1 << 20;

    private MemoryCases() {}

    public static List<TestCase<MemoryTarget>> all() {
        return List.of(new Triad(false), new Triad(true), new Read(), new Latency());
    }

    /**
     * STREAM's four kernels with every CPU, the figure Triad's and the other three in the detail; one
     * thread runs Triad alone (what a feeding thread can move is the figure, and the three others
     * cost it three times the time: {@link #ONE_THREAD_SAMPLING}).
     */
    static final class Triad implements TestCase<MemoryTarget> {
        final boolean oneThread;

        Triad(boolean oneThread) {
            this.oneThread = oneThread;
        }

        public String key() {
            return oneThread ? TRIAD_ONE_THREAD : TRIAD;
        }

        public String description() {
            return oneThread ? "memory bandwidth of one thread, STREAM's Triad (a = b + 3c) alone: GB/s"
                    : "memory bandwidth with a thread on every CPU, STREAM's Triad (a = b + 3c), with Copy, Scale and Add beside it: GB/s";
        }

        @Override
        public String anchor() {
            return oneThread ? "STREAM 5.10 Triad, OMP_NUM_THREADS=1" : "STREAM 5.10 Triad, one OpenMP thread per CPU";
        }

        @Override
        public Class<MemoryDetails.Stream> detailType() {
            return MemoryDetails.Stream.class;
        }

        public Result run(MemoryTarget t) {
            CpuSet cpus = oneThread ? CpuSet.of(t.oneCpu()) : t.cpus();
            Sampling sampling = oneThread ? ONE_THREAD_SAMPLING : STREAM_SAMPLING;
            // one thread's arrays are touched first by its node's CPUs together: the same pages on the
            // same node as its own touch, in a fraction of the time
            CpuSet touch = oneThread ? t.nodeMates() : cpus;
            StreamRun.Outcome o = StreamRun.run(cpus, touch, t.node(), t.arrayBytes(), sampling, t.pageSize(), oneThread ? StreamRun.Round.TRIAD_ALONE : StreamRun.Round.ALL);
            if (!o.validated()) return Result.failed(this, "the arrays do not hold what STREAM's check expects after the run: a kernel did not run over every element");
            String method = String.format(Locale.ROOT, "%s on three arrays of %s (%s), %d thread%s pinned (%s), %s; each kernel timed over all threads; "
                            + "%d samples after %d warm-up rounds (until the JIT was quiet), median (STREAM reports the max); bytes as STREAM counts them",
                    oneThread ? "STREAM's Triad alone" : "STREAM's kernels", Units.bytes(t.arrayBytes()), sizedBy(t.sizing()), cpus.size(), cpus.size() == 1 ? "" : "s", cpus,
                    placedBy(t, cpus, touch),
                    sampling.samples(), o.warmups());
            return Result.ok(this, Unit.GB_PER_S, o.of(StreamRun.Kernel.TRIAD), method,
                    new MemoryDetails.Stream(o.of(StreamRun.Kernel.COPY), o.of(StreamRun.Kernel.SCALE), o.of(StreamRun.Kernel.ADD), t.arrayBytes(), cpus,
                            o.placement(), t.sizeNote(), t.sizing()));
        }
    }

    /** What the arrays' size came from, for the method line: the detail's note says the rest. */
    static String sizedBy(ArraySizing s) {
        return switch (s.from()) {
            case SYSFS_CACHES -> "STREAM's rule on the " + Units.bytes(s.cacheBytes()) + " of last-level caches sysfs names";
            case MEASURED_CACHES -> s.knee() == null ? "sysfs names no cache size, and none was measured"
                    : "STREAM's rule on " + Units.bytes(s.cacheBytes()) + ", where a pointer chase's latency left the caches: sysfs names no cache size";
            case ASKED -> "as asked";
        };
    }

    /** How the arrays' pages were placed, for the method line. */
    static String placedBy(MemoryTarget t, CpuSet cpus, CpuSet touch) {
        String by = touch.equals(cpus) ? "" : String.format(Locale.ROOT, " by the %d CPUs of its node (%s), where its own touch would place them", touch.size(), touch);
        return t.node() == null ? "pages placed by first touch" + by : "memory bound to node " + t.node() + (by.isEmpty() ? "" : ", first touched" + by);
    }

    /** Read-only bandwidth, every CPU of the target reading memory of its node. */
    static final class Read implements TestCase<MemoryTarget> {
        public String key() {
            return READ;
        }

        public String description() {
            return "read bandwidth, every CPU of one node reading memory of one node (nothing written): GB/s";
        }

        @Override
        public String anchor() {
            return "Intel MLC --bandwidth_matrix (read-only traffic)";
        }

        @Override
        public Class<MemoryDetails.Read> detailType() {
            return MemoryDetails.Read.class;
        }

        public Result run(MemoryTarget t) {
            ReadRun.Outcome o = ReadRun.run(t.cpus(), t.node(), t.readBytes(), t.huge(), READ_SAMPLING, t.pageSize());
            String method = String.format(Locale.ROOT, "%d threads pinned (%s) each summing its slice of %s, %s, %s; timed over all threads; %d samples after %d warm-up rounds (until the JIT was quiet)",
                    t.cpus().size(), t.cpus(), Units.bytes(t.readBytes()), t.huge() ? "transparent huge pages asked for" : "base pages (THP is off)",
                    t.node() == null ? "pages placed by first touch" : "memory bound to node " + t.node(), READ_SAMPLING.samples(), o.warmups());
            return Result.ok(this, Unit.GB_PER_S, o.gbs(), method, new MemoryDetails.Read(t.readBytes(), t.cpus(), o.placement()));
        }
    }

    /** Idle latency: one thread chasing pointers through memory of a node. */
    static final class Latency implements TestCase<MemoryTarget> {
        public String key() {
            return LATENCY;
        }

        public String description() {
            return "idle memory latency, one thread's dependent loads in random order over a set far beyond the caches: ns per load";
        }

        @Override
        public String anchor() {
            return "bench/c/memref.c chase (Intel MLC --idle_latency's method)";
        }

        @Override
        public Class<MemoryDetails.Chase> detailType() {
            return MemoryDetails.Chase.class;
        }

        public Result run(MemoryTarget t) {
            int cpu = t.oneCpu();
            ChaseRun.Outcome o = ChaseRun.run(t.fs(), cpu, t.node(), t.chaseBytes(), t.huge(), t.chaseLoads(), CHASE_SAMPLING, t.pageSize());
            String method = String.format(Locale.ROOT, "one thread on CPU %d, %d dependent loads a sample over %s of 64-byte lines in one random cycle, %s, %s; "
                            + "%d samples after %d warm-up rounds (until the JIT was quiet)",
                    cpu, t.chaseLoads(), Units.bytes(t.chaseBytes()),
                    t.huge() ? "transparent huge pages asked for" : "base pages (THP is off)",
                    t.node() == null ? "pages placed by first touch" : "memory bound to node " + t.node(), CHASE_SAMPLING.samples(), o.warmups());
            return Result.ok(this, Unit.NS, o.ns(), method,
                    new MemoryDetails.Chase(t.chaseBytes(), cpu, t.chaseLoads(), t.huge(), o.hugeBytes(), o.placement()));
        }
    }
}
