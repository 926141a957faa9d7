package hostside.report;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import hostside.container.ContainerRun;
import hostside.core.BadInputException;
import hostside.core.Printable;
import hostside.cpu.CpuDrill;
import hostside.cpu.CpuRun;
import hostside.cpu.dataloader.ForkVsSpawn;
import hostside.drills.Drills;
import hostside.fs.FsRoot;
import hostside.gpu.bench.NodeCopies;
import hostside.harness.Cut;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.DrillOptions;
import hostside.harness.DrillRun;
import hostside.harness.Earlier;
import hostside.harness.MemoryCap;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.harness.Skipped;
import hostside.harness.TestCase;
import hostside.harness.TestFiles;
import hostside.io.IoDrill;
import hostside.io.IoRun;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;
import hostside.machine.MemoryDrill;
import hostside.memory.MemoryDetails;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;
import hostside.rack.Rack;
import hostside.vm.VmDrill;
import hostside.vm.VmRun;
import hostside.vm.measure.TlbReach;

/**
 * The report's measuring: every drill of the registry ({@link Drills}) in turn on one machine, each
 * reported to the progress as drill i of n, each handed what the drills before it made (Module 1's
 * facts are read once). The machine's load ({@link MachineLoad}) over each measuring drill's facts,
 * before it measures ({@link LoadWindow}).
 */
public final class Profile {
    private Profile() {}

    /** How much a report measures: every case, or the headline figures for a sweep over a fleet ({@link Quick}). */
    public enum Mode {
        FULL("full"), QUICK("quick");

        public final String word;

        Mode(String word) {
            this.word = word;
        }

        /** The cases a drill runs after those {@code earlier}: on a GPU machine a quick run keeps a different jitter case. */
        Selection cases(Earlier earlier) {
            if (this == FULL) return FULL_CASES;
            boolean gpu = earlier.run(MachineRun.class).map(m -> !m.facts().gpus().isEmpty()).orElse(false);
            return new Selection() {
                @Override
                public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
                    return Quick.of(group, gpu);
                }
            };
        }
    }

    /**
     * What the full report measures: every case, but the copies from each NUMA node only where
     * there are several ({@link NodeCopies#acrossNodesOnly}): on one node they measure
     * {@code host_to_device_ce_pinned} again from registered memory, which {@code hostside machine} still does;
     * and not {@code fork_vs_spawn_cuda} ({@link #LEFT_TO_CPU}).
     */
    static final Selection FULL_CASES = new Selection() {
        @Override
        @SuppressWarnings("unchecked")
        public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
            return group.stream().map(t -> t instanceof NodeCopies n ? (TestCase<C>) (TestCase<?>) n.acrossNodesOnly()
                    : t.key().equals(ForkVsSpawn.KEY) ? (TestCase<C>) new Skipped<>(t, LEFT_TO_CPU) : t).toList();
        }
    };

    /**
     * Why the report leaves fork vs spawn to {@code hostside cpu}: three fresh interpreters each
     * importing torch took 11-15 s of an H100 VM's 100-110 s report, the largest case of all
     * (docs/measurements/2026-12-07-h100-night.md), for a finding that is CUDA's rule on every node
     * (a forked child cannot re-initialise CUDA: torch raises it) and a start-up cost that is
     * Python's and torch's, not the node's wiring.
     */
    static final String LEFT_TO_CPU = "the report leaves this to hostside cpu (three fresh Python interpreters importing torch, "
            + "11-15 s on an H100 VM; a forked worker failing on CUDA is CUDA's rule on every node)";

    public static Report measure(FsRoot fs, Report.Machine machine, IoDrill.Options io, ProgressSink progress) {
        return measure(fs, machine, io, Mode.FULL, progress, line -> System.err.println("hostside: " + Printable.of(line)));
    }

    public static Report measure(FsRoot fs, Report.Machine machine, IoDrill.Options io, Mode mode, ProgressSink progress) {
        return measure(fs, machine, io, mode, progress, line -> System.err.println("hostside: " + Printable.of(line)));
    }

    /**
     * ... saying on {@code warn}, as each drill begins to measure, that the machine is busy when it
     * is: the load is read over the facts of each drill that measures, which closes its window
     * before its first case (the container drill reads files only, the rack judges what Module 1
     * measured), and goes into the report's confounders.
     */
    public static Report measure(FsRoot fs, Report.Machine machine, IoDrill.Options io, Mode mode, ProgressSink progress,
                                 Consumer<String> warn) {
        long began = System.nanoTime();
        Double load = Fleet.loadAverage(fs); // before anything of ours runs: a busy machine's figures are not its best
        Loads loads = new Loads(fs, warn);
        DrillOptions options = options(io, mode);
        List<Drill<?, ?>> drills = Drills.all();
        Earlier earlier = Earlier.NONE;
        List<ReportBuilder.Other> others = new ArrayList<>();
        List<RunCost.Spent> spent = new ArrayList<>();
        // Module 2's and Module 4's reads share one test file, written once, removed however the report ends
        try (TestFiles files = TestFiles.shared()) {
            for (int i = 0; i < drills.size(); i++) {
                Drill<?, ?> d = drills.get(i);
                progress.drill(d.key(), i + 1, drills.size());
                long drillFrom = System.nanoTime();
                long[] inCases = {0};
                ProgressSink counted = countingCases(progress, inCases);
                DrillContext c = new DrillContext(fs, mode.cases(earlier), counted, null, earlier, files);
                if (d.measures(c)) c = new DrillContext(fs, c.cases(), counted, loads.opening(d.key()), earlier, files);
                DrillRun r = run(d, c, options);
                c.load().close(); // a drill that stopped before it read its facts still records its window
                earlier = earlier.with(r);
                options = after(options, r);
                if (!ReportBuilder.PAGED.contains(r.getClass())) others.add(new ReportBuilder.Other(d, r));
                double took = (System.nanoTime() - drillFrom) / 1e9;
                if (took >= SPENT_AT_LEAST_S) spent.add(new RunCost.Spent(d.key(), took, inCases[0] / 1e9));
            }
        }
        Report.Rack rack = earlier.run(Rack.RackRun.class).map(Report.Rack::of).orElse(null);
        ReportBuilder.Drills runs = new ReportBuilder.Drills(earlier.run(MachineRun.class).orElseThrow(), earlier.run(VmRun.class).orElse(null),
                earlier.run(CpuRun.class).orElse(null), earlier.run(IoRun.class).orElse(null), earlier.run(ContainerRun.class).orElse(null), rack,
                others);
        return ReportBuilder.build(runs, new ReportBuilder.Circumstances(machine, load, loads.read, mode, RunCost.since(began, spent)), ZonedDateTime.now());
    }

    /** {@code progress}, adding each case's time as it ends to {@code nanos[0]}. */
    static ProgressSink countingCases(ProgressSink progress, long[] nanos) {
        return e -> {
            if (e instanceof ProgressSink.CaseEnded ended) nanos[0] += ended.nanos();
            progress.accept(e);
        };
    }

    /** A drill's time is stated from a tenth of a second: the ones that read a few files only would be noise in the line. */
    static final double SPENT_AT_LEAST_S = 0.1;

    /**
     * What a report may hold beyond STREAM's arrays: 512 MiB (the bound on its peak). STREAM's
     * arrays are Module 1's to size ({@code MemorySizes}: four times the caches); everything else
     * fits here.
     */
    public static final long BEYOND_STREAM = 512L << 20;

    /**
     * The most any one measurement other than STREAM's may hold at once inside a report: half of
     * {@link #BEYOND_STREAM}. The other half is the JVM's own (heap, code, metaspace: 78 MiB as a
     * report starts, 140 MiB into a quick one on the dev VM, docs/measurements/2026-12-07-memsize.md),
     * and the measurements run one at a time.
     */
    public static final MemoryCap MEASUREMENT = new MemoryCap(BEYOND_STREAM / 2,
            "the report's share for any one measurement (" + Cut.size(BEYOND_STREAM / 2) + ": a report holds STREAM's arrays and at most "
                    + Cut.size(BEYOND_STREAM) + " besides, half of it the JVM's own)");

    /**
     * The cap of Module 2's measurements, which run after Module 1's: {@link #MEASUREMENT}, or
     * STREAM's three arrays where they were larger, up to {@link #MODULE_TWO_FIGURES}. The arrays
     * are freed once STREAM has run and the measurements run one at a time, so a later one as large
     * as they were does not raise the report's peak past them (STREAM's arrays and
     * {@link #BEYOND_STREAM} besides); it then takes the size its figure is measured at when its
     * drill runs alone, and its figure is the same figure: the TLB walk's at 1 GiB (at 256 MiB the
     * lines it touches fit the H200 VM's cache and base pages cost 51 ns there against 173 ns at
     * 1 GiB, testdata/reports/h200-hostside2.json), the mapped test file and managed memory at their
     * own sizes.
     */
    static MemoryCap afterStream(long streamBytes) {
        if (streamBytes <= MEASUREMENT.bytes()) return MEASUREMENT;
        long cap = Math.min(streamBytes, MODULE_TWO_FIGURES);
        return new MemoryCap(cap, "the report's share for any one measurement after STREAM's (" + Cut.size(cap)
                + (cap < streamBytes ? ": the size Module 2's figures are measured at, the TLB walk's and the test file's"
                        : ": STREAM's three arrays, freed before it")
                + "; a report holds STREAM's arrays and at most " + Cut.size(BEYOND_STREAM) + " besides)");
    }

    /**
     * The most Module 2's figures need: the TLB walk's figure is at {@link TlbReach#FIGURE_AT} (1 GiB)
     * and the report's test file is 1 GiB ({@code IoDrill.DEFAULT_FILE}). The walk alone goes on to
     * 4 GiB for its curve; inside a report its curve ends at its figure, which its detail says: on the
     * H100 VM the walk to 2 GiB took 4.7 s (base pages) and 2.1 s (huge) of a 141 s report
     * (docs/measurements/2026-12-07-minute-h100.md), the 2 GiB point a second and more of it.
     */
    static final long MODULE_TWO_FIGURES = TlbReach.FIGURE_AT;

    /** The options of the drills still to run once {@code r} has run: after Module 1, Module 2's cap is {@link #afterStream}. */
    static DrillOptions after(DrillOptions options, DrillRun r) {
        return r instanceof MachineRun m ? options.with(VmDrill.DRILL, new VmDrill.Options(null, null, null, afterStream(streamBytes(m)))) : options;
    }

    /** STREAM's three arrays as Module 1 allocated them: the largest of its STREAM runs that ran; 0 where none did. */
    static long streamBytes(MachineRun m) {
        if (m.memory() == null) return 0;
        return m.memory().results().stream().map(MemoryDrill.Measured::result)
                .filter(x -> x.isOk() && x.detail() instanceof MemoryDetails.Stream)
                .mapToLong(x -> 3 * ((MemoryDetails.Stream) x.detail()).arrayBytes()).max().orElse(0);
    }

    /**
     * The report's options for each drill: every measurement's memory within {@link #MEASUREMENT}
     * (Module 1's GPU buffers, Module 2's mapped test file, first-touch region, TLB walk and GPU
     * buffers, Module 3's DataLoader dataset with a copy in each worker; Module 2's raised by
     * {@link #after} once STREAM has run), and Module 4's test file
     * smaller in a quick run unless --size or --file says otherwise (it is read, never mapped: the
     * page cache holds it, not the report).
     */
    static DrillOptions options(IoDrill.Options io, Mode mode) {
        IoDrill.Options quickIo = mode == Mode.QUICK && io.size() == null && io.file() == null
                ? new IoDrill.Options(io.dir(), Quick.IO_FILE, null, io.sampleMs()) : io;
        CpuDrill.Options cpu = CpuDrill.Options.defaults();
        return DrillOptions.defaults()
                .with(MachineDrill.DRILL, new MachineDrill.Options(null, MEASUREMENT))
                .with(VmDrill.DRILL, new VmDrill.Options(null, null, null, MEASUREMENT))
                .with(CpuDrill.DRILL, new CpuDrill.Options(JITTER_TICKS, cpu.periodNs(), datasetBytes(cpu.workers()), cpu.workers()))
                .with(IoDrill.DRILL, quickIo);
    }

    /**
     * Ticks of each jitter condition in a report: 10,000 at the drill's 100 us cadence, a second of
     * recording, half of what {@code hostside cpu} records. The report's six conditions recorded for
     * 12 s of an H100 VM's 100 s report (docs/measurements/2026-12-07-h100-night.md); at 10,000 a
     * condition's p99 still stands on 100 ticks (20 in each of its five segments) and its p99.9 on
     * 10. What the shorter window gives up is the rarer stall: one that comes less often than once
     * a second may miss it, which the drill's longer window, or {@code --launches}, is for. The
     * peer (refs timer, cyclictest's loop) is run with the ticks the report records.
     */
    public static final int JITTER_TICKS = 10_000;

    /**
     * The DataLoader dataset inside a report: main's list and a copy of it in each worker (the
     * copy-on-write the case measures) within {@link #MEASUREMENT}, in whole MiB. The figure is
     * a share of the dataset copied, which a smaller list measures as well.
     */
    static long datasetBytes(int workers) {
        return MEASUREMENT.bytes() / (workers + 1) >> 20 << 20;
    }

    /**
     * {@code d} in {@code c}; a drill whose cases could not start (no room for Module 4's test file:
     * checked before, but a disk fills up) keeps its facts with every case not run and the reason,
     * and the report goes on.
     */
    static DrillRun run(Drill<?, ?> d, DrillContext c, DrillOptions options) {
        try {
            return options.run(d, c);
        } catch (BadInputException e) {
            return options.run(d, new DrillContext(c.fs(), Selection.skipped(e.getMessage()), c.progress(), c.load(), c.earlier(), c.files()));
        }
    }

    /** The loads read so far, one per drill, as their windows closed; none on a recording, where nothing is measured. */
    private static final class Loads {
        final FsRoot fs;
        final Consumer<String> warn;
        final List<Fleet.DrillLoad> read = new ArrayList<>();

        Loads(FsRoot fs, Consumer<String> warn) {
            this.fs = fs;
            this.warn = warn;
        }

        /**
         * The window of {@code drill}'s load, opened as it begins and closed by the drill once its facts
         * are read: said on {@code warn} at once when busy, and kept for the report's conditions;
         * {@link LoadWindow#NONE} on a recording.
         */
        LoadWindow opening(String drill) {
            return LoadWindow.open(fs, l -> {
                MachineLoad.said(drill, l, warn);
                read.add(new Fleet.DrillLoad(drill, l));
            });
        }
    }
}
