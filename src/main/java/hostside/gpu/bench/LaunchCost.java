package hostside.gpu.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.harness.DetailFigures;
import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.gpu.cuda.Module;
import hostside.gpu.cuda.Stream;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;
import hostside.libc.Sched;

/**
 * What one kernel launch and one pinned copy submission cost the host, from one core of each kind:
 * on a hybrid CPU (Intel P/E cores, Arm big.LITTLE, GB10's X925/A725) one CPU per kind, on a
 * uniform CPU the one-thread CPU of the memory plan. Each runs on a new platform thread pinned to
 * its CPU with the GPU's context current there, as a training loop's feeder thread would run if the
 * scheduler put it on that core.
 * <p>
 * Timed are the calls alone, with System.nanoTime around {@link #BATCH} of them: cuLaunchKernel of
 * the empty kernel, and cuMemcpyHtoDAsync of {@link #COPY_BYTES} from pinned memory (the
 * submission, not the copy). The stream is synchronized between batches, outside the timing, so
 * that the queue never fills: a stream holds about 1024 pending launches, past which the call
 * blocks until the GPU catches up and would time the GPU instead of the host.
 * <p>
 * The figure: the first core's launch cost (the big kind's, or the only one's), ns per launch, lower
 * better. Per core, two figures of their own ({@link #LAUNCH}, {@link #SUBMIT}, scope {@code cpu:<n>}).
 *
 * @param cores    the cores to launch from, the big kind's first (the drill fills them in from the
 *                 topology; empty: the case does not apply)
 * @param firstGpu whether this is the machine's first GPU: the case runs there only, since a launch's
 *                 host cost is the CPU's and the driver's, not the GPU's, and every GPU would repeat it
 */
public record LaunchCost(List<Core> cores, boolean firstGpu) implements TestCase<Target> {
    public static final String KEY = "launch_cost_by_core_kind";
    public static final String LAUNCH = "kernel_launch_cost", SUBMIT = "copy_submit_cost";
    /** The kind of the one core of a CPU whose cores are all alike. */
    public static final String UNIFORM = "uniform";
    /** Calls per sample, and per timed batch: at most a quarter of the pending-launch queue. */
    public static final int CALLS = 1024, BATCH = 256;
    public static final long COPY_BYTES = 4096;
    static final Sampling SAMPLING = new Sampling(3, 9);

    /** A core to launch from: its kind's name ("P-core", "Cortex-X925", "uniform") and the CPU standing for it. */
    public record Core(String kind, int cpu) {}

    public LaunchCost {
        cores = List.copyOf(cores);
    }

    /** The case as {@code --list} and {@code --only} name it, before the machine says its cores: the drill gives them with {@link #from}. */
    public LaunchCost() {
        this(List.of(), true);
    }

    /** This case for one GPU of this machine. */
    public LaunchCost from(List<Core> cores, boolean firstGpu) {
        return new LaunchCost(cores, firstGpu);
    }

    public String key() {
        return KEY;
    }

    public String description() {
        return "host time of one kernel launch and one 4 KiB pinned copy submission from one core of each kind, first GPU only"
                + " (figure: the big or only kind's launch)";
    }

    @Override
    public Better better() {
        return Better.LOWER;
    }

    @Override
    public Class<LaunchDetail> detailType() {
        return LaunchDetail.class;
    }

    @Override
    public Optional<String> notApplicable(Target t) {
        if (!firstGpu) return Optional.of("measured from the first GPU only: a launch's host cost is the CPU's and the driver's, not the GPU's");
        return cores.isEmpty() ? Optional.of("no CPU is known to launch from") : Optional.empty();
    }

    /**
     * One core's costs, ns of host time per call (median, min, max of the samples).
     *
     * @param launchNs one cuLaunchKernel of the empty kernel
     * @param submitNs one cuMemcpyHtoDAsync of {@link #COPY_BYTES} from pinned memory
     */
    public record Row(String kind, int cpu, Stats launchNs, Stats submitNs) {}

    /**
     * What the calls ran with and each core's costs.
     *
     * @param gpu            the GPU's name and PCI address
     * @param callsPerSample calls timed per sample
     * @param batch          calls per timed batch, the stream synchronized between batches
     * @param copyBytes      each copy's size
     * @param rows           one per core, in the order measured (the big or only kind's first)
     */
    public record LaunchDetail(String gpu, int callsPerSample, int batch, long copyBytes, List<Row> rows) implements DetailFigures {
        public LaunchDetail {
            rows = List.copyOf(rows);
        }

        /** Two figures per core, about that CPU; none where {@code scope} is not a GPU's (the case runs for a GPU). */
        @Override
        public List<Figure> figures(Result r, Scope scope) {
            if (scope.kind() != Scope.Kind.GPU) return List.of();
            List<Figure> f = new ArrayList<>();
            for (Row x : rows) {
                Scope s = Scope.cpus(CpuSet.of(x.cpu()));
                f.add(figure(LAUNCH, s, x.launchNs(), launchMethod(batch, callsPerSample)));
                f.add(figure(SUBMIT, s, x.submitNs(), submitMethod(copyBytes, batch, callsPerSample)));
            }
            return f;
        }

        private static Figure figure(String key, Scope scope, Stats s, String method) {
            return new Figure(key, scope, s.median(), Unit.NS, Better.LOWER, s.min(), s.max(), s.samples(), method, null);
        }
    }

    static String launchMethod(int batch, int calls) {
        return "System.nanoTime around " + batch + " cuLaunchKernel calls of an empty kernel (1 block, 1 thread) on a thread pinned to the CPU, "
                + calls + " a sample, the stream synchronized between batches outside the timing; ns per launch";
    }

    static String submitMethod(long bytes, int batch, int calls) {
        return "System.nanoTime around " + batch + " cuMemcpyHtoDAsync calls of " + bytes / 1024 + " KiB from pinned memory on a thread pinned to the CPU, "
                + calls + " a sample, the stream synchronized between batches outside the timing; ns per submission";
    }

    public Result run(Target t) {
        GpuBench b = t.bench();
        List<Row> rows = new ArrayList<>();
        try (HostBuffer host = HostBuffer.pinned(b.cuda, COPY_BYTES);
             DeviceBuffer dev = b.gpu.alloc(COPY_BYTES);
             Module.Prepared launch = b.empty.prepare(b.stream, 1, 1)) {
            Stream.Submission copy = b.stream.prepareHostToDevice(dev, host, COPY_BYTES);
            for (int i = 0; i < cores.size(); i++) {
                Core c = cores.get(i);
                boolean first = i == 0;
                rows.add(NodeCopies.onThread("hostside-launch-cpu" + c.cpu(), () -> {
                    Sched.pin(c.cpu());
                    b.gpu.makeCurrent();
                    if (first) {
                        // a pass thrown away: the first core would otherwise time the interpreter's
                        // and C1's calls that the later cores, JIT-compiled, never see
                        perCall(b.stream, launch::launch);
                        perCall(b.stream, copy::submit);
                    }
                    return new Row(c.kind(), c.cpu(), perCall(b.stream, launch::launch), perCall(b.stream, copy::submit));
                }));
            }
        }
        LaunchDetail d = new LaunchDetail(Copies.gpuName(b), CALLS, BATCH, COPY_BYTES, rows);
        Row first = rows.getFirst();
        return Result.ok(this, Unit.NS, first.launchNs(), "the host time of one kernel launch from CPU " + first.cpu() + " (" + first.kind() + "): "
                + launchMethod(BATCH, CALLS), d);
    }

    /**
     * ns per call of {@code call}: {@link #SAMPLING}'s samples of {@link #CALLS} calls, timed
     * {@link #BATCH} at a time, the stream synchronized after each batch outside the timing.
     */
    static Stats perCall(Stream s, Runnable call) {
        return SAMPLING.stats(i -> {
            long ns = 0;
            for (int done = 0; done < CALLS; done += BATCH) {
                long t0 = System.nanoTime();
                for (int k = 0; k < BATCH; k++) call.run();
                ns += System.nanoTime() - t0;
                s.synchronize();
            }
            return ns / (double) CALLS;
        });
    }
}
