package hostside.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.io.IoDrill;

@Command(name = "io", mixinStandardHelpOptions = true,
        header = "How fast checkpoints and datasets read and write here.",
        description = {"Module 4: a checkpoint-sized file read sequentially (GB/s) and at random (IOPS), through the page cache cold and warm, and around it with O_DIRECT, one request at a time (pread) and 32 in flight (io_uring); and written with and without fsync.",
                "Each figure names the fio job that measures the same thing. The verdict says which path a checkpoint loader should take here."})
public final class IoCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Mixin
    MeasureOptions measure;

    /** --dir and --size, shared with hostside report. */
    @Mixin
    StorageOptions storage;

    @Option(names = "--file", paramLabel = "FILE", description = "Read this existing file instead of writing one (it is never changed or removed; writes still go to --dir or its folder).")
    Path file;

    @Option(names = "--sample-ms", paramLabel = "MS", description = "Length of each random-read sample (default ${DEFAULT-VALUE}).")
    long sampleMs = IoDrill.DEFAULT_SAMPLE_MS;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!measure.list) {
            if (sampleMs < 50 || sampleMs > 60_000) throw new BadInputException("--sample-ms " + sampleMs + ": choose 50 to 60000");
            if (file != null && storage.size != null) throw new BadInputException("--file and --size: the file has its own size");
            // --size is the test file's: the room for it is checked before anything runs, as report checks it
            if (storage.size != null) storage.check(options.root == null);
        }
        return DrillCommand.run(spec, options, measure, IoDrill.DRILL, storage.drill(file, sampleMs));
    }
}
