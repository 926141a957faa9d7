package hostside.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.cpu.CpuDrill;
import hostside.cpu.CpuTrace;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.cpu.measure.CpuTarget;

@Command(name = "cpu", mixinStandardHelpOptions = true,
        header = "The CPU that feeds the GPU: its scheduling, IRQs and jitter.",
        description = {"Module 3: the scheduler, isolation, the frequency governor and the IRQs of each GPU and NIC with the CPUs they land on.",
                "Then what a syscall, a context switch, a wake-up and a migration cost, timer jitter quiet and under CPU hogs (refs timer's loop), and on a GPU launch jitter quiet, noisy, pinned and as a CUDA graph; with --trace, the syscall profile of a training step."})
public final class CpuCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Mixin
    MeasureOptions measure;

    @Option(names = "--launches", paramLabel = "N", description = "Launches (or timer ticks) per jitter condition (default ${DEFAULT-VALUE}).")
    int launches = CpuTarget.DEFAULT_LAUNCHES;

    @Option(names = "--period-us", paramLabel = "US", description = "Cadence of the launches in microseconds (default ${DEFAULT-VALUE}).")
    long periodUs = CpuTarget.DEFAULT_PERIOD_NS / 1000;

    @Option(names = "--dataset-size", paramLabel = "BYTES", converter = ByteSize.class,
            description = "Dataset of the DataLoader copy-on-write measurement (default 256M; at most a quarter of available memory over the workers and main: a cut is said in the output, detail.cut in --json).")
    long datasetBytes = DataLoaderTarget.DEFAULT_DATASET_BYTES;

    @Option(names = "--workers", paramLabel = "N", converter = Counts.Workers.class,
            description = "DataLoader workers to fork, " + Counts.MIN_WORKERS + " to " + Counts.MAX_WORKERS + " (default ${DEFAULT-VALUE}).")
    int workers = DataLoaderTarget.DEFAULT_WORKERS;

    @Option(names = "--trace", description = "The syscall profile of a training step under strace: of the command after --, of --pid, or of the built-in PyTorch step. "
            + "The command's exit status is reported (text and --json commandExit); a command that fails is information, not a failure of "
            + "hostside, which exits 0 unless the trace itself failed.")
    boolean trace;

    @Option(names = "--pid", paramLabel = "PID", converter = Counts.Pid.class, description = "With --trace: attach to this running process.")
    Long pid;

    @Option(names = "--seconds", paramLabel = "N", converter = Counts.Seconds.class,
            description = "With --trace: how long to trace, " + Counts.MIN_SECONDS + " to " + Counts.MAX_SECONDS + " (default ${DEFAULT-VALUE}).")
    int seconds = 20;

    @picocli.CommandLine.Parameters(paramLabel = "CMD", arity = "0..*", description = "With --trace: the command to run under strace (after --).")
    List<String> command = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        if (trace) {
            try (Progress progress = Progress.forStderr()) {
                return CpuTrace.run(command, pid, seconds, options.json, out, progress, Main.class.getName());
            }
        }
        if (!command.isEmpty() || pid != null) throw new BadInputException("a command or --pid needs --trace");
        if (launches < 100 || launches > 10_000_000) throw new BadInputException("--launches " + launches + ": choose 100 to 10000000");
        if (periodUs < 10 || periodUs > 1_000_000) throw new BadInputException("--period-us " + periodUs + ": choose 10 to 1000000");
        return DrillCommand.run(spec, options, measure, CpuDrill.DRILL, new CpuDrill.Options(launches, periodUs * 1000, datasetBytes, workers));
    }

}
