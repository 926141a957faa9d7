package hostside.cli;

import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import hostside.container.ContainerDrill;
import hostside.container.DataLoaderPlan;
import hostside.core.BadInputException;
import hostside.core.Bounds;
import hostside.core.Units;

@Command(name = "container", mixinStandardHelpOptions = true,
        header = "The container limits that break training, and how to fix them.",
        description = {"Module 4: the limits a container puts on this process, and the ones that break training: cgroup memory, the CPU quota and pids against what a DataLoader starts, /dev/shm, memlock, open files, capabilities, GPU device nodes, namespaces and PID 1.",
                "Each finding gives its symptom and the flag that fixes it. It says whether this runs in a container, and on what evidence."})
public final class ContainerCommand implements Callable<Integer> {
    static final int MAX_THREADS = 65536;

    @Mixin
    MachineOptions options;

    @Option(names = "--workers", paramLabel = "N", converter = Counts.Workers.class,
            description = "DataLoader num_workers to weigh the limits against, " + Counts.MIN_WORKERS + " to " + Counts.MAX_WORKERS + " (default " + DataLoaderPlan.DEFAULT_WORKERS + ").")
    Integer workers;

    @Option(names = "--threads", paramLabel = "N", description = "Threads each process may start (default: OMP_NUM_THREADS, else the CPUs this process sees).")
    Integer threads;

    @Option(names = "--batch-bytes", paramLabel = "BYTES", converter = ByteSize.class,
            description = "One collated batch, e.g. 150M (default: 256 images of 3x224x224 float32, 147 MiB).")
    Long batchBytes;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (threads != null && (threads < 1 || threads > MAX_THREADS)) throw new BadInputException("--threads " + threads + ": choose 1 to " + MAX_THREADS);
        // the plan multiplies the batch by the workers and the prefetch factor: a size near 2^63 wrapped to "-16 bytes"
        if (batchBytes != null && batchBytes > Bounds.MEMORY_BYTES) {
            // in bytes, both: rounded to PiB, 4097T and the bound both read "4 PiB", and the refusal would not say why
            throw new BadInputException(String.format(Locale.ROOT, "--batch-bytes %d bytes: at most %d bytes (%s; a batch is collated in memory, and no machine addresses more)",
                    batchBytes, Bounds.MEMORY_BYTES, Units.bytes(Bounds.MEMORY_BYTES)));
        }
        return DrillCommand.run(spec, options, null, ContainerDrill.DRILL, new ContainerDrill.Options(workers, threads, batchBytes));
    }
}
