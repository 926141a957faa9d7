package hostside.report;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import hostside.container.ContainerRun;
import hostside.core.BadInputException;
import hostside.core.Printable;
import hostside.cpu.CpuRun;
import hostside.drills.Drills;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.DrillOptions;
import hostside.harness.DrillRun;
import hostside.harness.Earlier;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.harness.TestCase;
import hostside.harness.TestFiles;
import hostside.io.IoDrill;
import hostside.io.IoRun;
import hostside.machine.MachineRun;
import hostside.process.MachineLoad;
import hostside.rack.Rack;
import hostside.vm.VmDrill;
import hostside.vm.VmRun;
import hostside.vm.measure.TlbReach;

/**
 * The report's measuring: every drill of the registry ({@link Drills}) in turn on one machine, each
 * reported to the progress as drill i of n, each handed what the drills before it made (Module 1's
 * facts are read once). Before each drill that measures, the machine's load ({@link MachineLoad}).
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
            if (this == FULL) return Selection.all();
            boolean gpu = earlier.run(MachineRun.class).map(m -> !m.facts().gpus().isEmpty()).orElse(false);
            return new Selection() {
                @Override
                public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
                    return Quick.of(group, gpu);
                }
            };
        }
    }

    public static Report measure(FsRoot fs, Report.Machine machine, IoDrill.Options io, ProgressSink progress) {
        return measure(fs, machine, io, Mode.FULL, progress, line -> System.err.println("hostside: " + Printable.of(line)));
    }

    public static Report measure(FsRoot fs, Report.Machine machine, IoDrill.Options io, Mode mode, ProgressSink progress) {
        return measure(fs, machine, io, mode, progress, line -> System.err.println("hostside: " + Printable.of(line)));
    }

    /**
     * ... saying on {@code warn}, as each drill begins, that the machine is busy when it is: the
     * load is read before each drill that measures (the container drill reads files only, the rack
     * judges what Module 1 measured), and goes into the report's confounders.
     */
    public static Report measure(FsRoot fs, Report.Machine machine, IoDrill.Options io, Mode mode, ProgressSink progress,
                                 Consumer<String> warn) {
        Double load = Fleet.loadAverage(fs); // before anything of ours runs: a busy machine's figures are not its best
        Loads loads = new Loads(fs, warn);
        DrillOptions options = options(io, mode);
        List<Drill<?, ?>> drills = Drills.all();
        Earlier earlier = Earlier.NONE;
        List<ReportBuilder.Other> others = new ArrayList<>();
        // Module 2's and Module 4's reads share one test file, written once, removed however the report ends
        try (TestFiles files = TestFiles.shared()) {
            for (int i = 0; i < drills.size(); i++) {
                Drill<?, ?> d = drills.get(i);
                progress.drill(d.key(), i + 1, drills.size());
                DrillContext c = new DrillContext(fs, mode.cases(earlier), progress, null, earlier, files);
                if (d.measures(c)) c = new DrillContext(fs, c.cases(), progress, loads.before(d.key()), earlier, files);
                DrillRun r = run(d, c, options);
                earlier = earlier.with(r);
                if (!ReportBuilder.PAGED.contains(r.getClass())) others.add(new ReportBuilder.Other(d, r));
            }
        }
        Report.Rack rack = earlier.run(Rack.RackRun.class).map(Report.Rack::of).orElse(null);
        ReportBuilder.Drills runs = new ReportBuilder.Drills(earlier.run(MachineRun.class).orElseThrow(), earlier.run(VmRun.class).orElse(null),
                earlier.run(CpuRun.class).orElse(null), earlier.run(IoRun.class).orElse(null), earlier.run(ContainerRun.class).orElse(null), rack,
                others);
        return ReportBuilder.build(runs, new ReportBuilder.Circumstances(machine, load, loads.read, mode), ZonedDateTime.now());
    }

    /**
     * The report's options for each drill: Module 2's TLB curve shorter (its memory budget), and
     * Module 4's test file smaller in a quick run unless --size or --file says otherwise.
     */
    static DrillOptions options(IoDrill.Options io, Mode mode) {
        IoDrill.Options quickIo = mode == Mode.QUICK && io.size() == null && io.file() == null
                ? new IoDrill.Options(io.dir(), Quick.IO_FILE, null, io.sampleMs()) : io;
        return DrillOptions.defaults()
                .with(VmDrill.DRILL, new VmDrill.Options(null, null, null, TlbReach.REPORT_MAX))
                .with(IoDrill.DRILL, quickIo);
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

    /** The loads read so far, one per drill; none on a recording, where nothing is measured. */
    private static final class Loads {
        final FsRoot fs;
        final Consumer<String> warn;
        final List<Fleet.DrillLoad> read = new ArrayList<>();

        Loads(FsRoot fs, Consumer<String> warn) {
            this.fs = fs;
            this.warn = warn;
        }

        /** The load as {@code drill} begins, kept for the report's conditions; null on a recording. */
        MachineLoad before(String drill) {
            MachineLoad l = MachineLoad.before(drill, fs, warn);
            if (l != null) read.add(new Fleet.DrillLoad(drill, l));
            return l;
        }
    }
}
