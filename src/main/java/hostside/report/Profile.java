package hostside.report;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import hostside.container.ContainerRun;
import hostside.container.LiveProcess;
import hostside.core.BadInputException;
import hostside.core.Printable;
import hostside.cpu.CpuDrill;
import hostside.cpu.CpuRun;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.fs.FsRoot;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.io.IoDrill;
import hostside.io.IoRun;
import hostside.machine.GpuDrill;
import hostside.machine.MachineDrill;
import hostside.machine.MachineFacts;
import hostside.machine.MachineRun;
import hostside.machine.MemoryDrill;
import hostside.process.MachineLoad;
import hostside.rack.Rack;
import hostside.vm.VmDrill;
import hostside.vm.VmRun;
import hostside.vm.measure.TlbReach;

/**
 * The report's measuring: Modules 1 to 4 in turn on one machine, each drill reported to the
 * progress as drill i of n. Module 1's facts are read once and handed to the drills after it.
 * Before each drill that measures, the machine's load ({@link MachineLoad}).
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

        <C> List<TestCase<C>> cases(List<TestCase<C>> all) {
            return cases(all, false);
        }

        /** ... on a machine with a GPU or without: a quick run keeps different jitter cases on each. */
        <C> List<TestCase<C>> cases(List<TestCase<C>> all, boolean gpu) {
            return this == QUICK ? Quick.of(all, gpu) : all;
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
     * load is read before each drill that measures (the container drill reads files only), and goes
     * into the report's confounders.
     */
    public static Report measure(FsRoot fs, Report.Machine machine, IoDrill.Options io, Mode mode, ProgressSink progress,
                                 Consumer<String> warn) {
        int n = 6;
        Double load = Fleet.loadAverage(fs); // before anything of ours runs: a busy machine's figures are not its best
        Loads loads = new Loads(fs, warn);
        progress.drill("machine", 1, n);
        MachineLoad machineLoad = loads.before("machine");
        MachineRun run = MachineDrill.run(fs, mode.cases(MemoryDrill.tests()), null,
                mode.cases(GpuDrill.tests()), mode.cases(GpuDrill.allGpuTests()), progress, machineLoad);
        progress.drill("vm", 2, n);
        MachineLoad vmLoad = loads.before("vm");
        MachineFacts facts = run.facts();
        VmRun vm = VmDrill.run(fs, facts.host(), mode.cases(VmDrill.hostTests(TlbReach.REPORT_MAX)), mode.cases(VmDrill.gpuTests()),
                new VmDrill.FileOptions(null, null, null), progress, pinCosts(run), vmLoad);
        progress.drill("cpu", 3, n);
        MachineLoad cpuLoad = loads.before("cpu");
        CpuRun cpu = CpuDrill.run(fs, facts, mode.cases(CpuDrill.measurements(), !facts.gpus().isEmpty()),
                mode.cases(DataLoaderTarget.tests()), CpuDrill.Settings.defaults(), progress, cpuLoad);
        progress.drill("io", 4, n);
        MachineLoad ioLoad = loads.before("io");
        IoRun ioRun = ioRun(fs, facts, mode == Mode.QUICK && io.size() == null && io.file() == null
                ? new IoDrill.Options(io.dir(), Quick.IO_FILE, null, io.sampleMs()) : io, mode, progress, ioLoad);
        progress.drill("container", 5, n);
        ContainerRun container = ContainerRun.read(fs,
                fs.isLive() ? LiveProcess.current() : LiveProcess.recorded(), null, null, null);
        progress.drill("rack", 6, n);
        Report.Rack rack = Report.Rack.of(Rack.judge(fs, run, vm.facts(), cpu.facts()));
        return ReportBuilder.build(new ReportBuilder.Drills(run, vm, cpu, ioRun, container, rack),
                new ReportBuilder.Circumstances(machine, load, loads.read, mode), ZonedDateTime.now());
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

    /**
     * Module 1's pin costs per GPU, which Module 2 explains: measured once (twice, they came out
     * 13% apart on the H200 and the report carried both under one key and scope).
     */
    static VmDrill.Reused pinCosts(MachineRun run) {
        java.util.Map<String, List<Result>> byPci = new java.util.LinkedHashMap<>();
        for (GpuDrill.GpuRun g : run.gpu().runs()) {
            byPci.put(g.pciAddress(), g.results().stream().filter(r -> r.key().startsWith("pin_cost_") && r.isOk()).toList());
        }
        return new VmDrill.Reused(byPci);
    }

    static IoRun ioRun(FsRoot fs, MachineFacts facts, IoDrill.Options shorter, Mode mode, ProgressSink progress,
                                   MachineLoad load) {
        try {
            return IoDrill.run(fs, facts, mode.cases(IoDrill.tests()), shorter, progress, load);
        } catch (BadInputException e) {
            // no room for the test file (checked before, but a disk fills up): the report says so and goes on
            return new IoRun(facts.host(), IoDrill.facts(fs, shorter), List.of(), null,
                    IoDrill.notRun(IoDrill.tests(), e.getMessage()), List.of());
        }
    }
}
