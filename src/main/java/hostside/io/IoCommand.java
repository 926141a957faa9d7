package hostside.io;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import hostside.cli.ByteSize;
import hostside.cli.Json;
import hostside.cli.MachineOptions;
import hostside.fs.BadInputException;
import hostside.harness.TestCase;
import hostside.io.measure.IoTarget;
import hostside.report.Style;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "io", mixinStandardHelpOptions = true,
        header = "How fast checkpoints and datasets read and write here.",
        description = {"Module 4: a checkpoint-sized file read sequentially (GB/s) and at random (IOPS), through the page cache cold and warm, and around it with O_DIRECT, one request at a time (pread) and 32 in flight (io_uring); and written with and without fsync.",
                "Each figure names the fio job that measures the same thing. The verdict says which path a checkpoint loader should take here."})
public final class IoCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Mixin
    hostside.cli.MeasureOptions measure;

    @Option(names = "--dir", paramLabel = "DIR", description = "Folder for the test files: where your checkpoints or dataset live (default /var/tmp).")
    Path dir;

    @Option(names = "--size", paramLabel = "BYTES", converter = ByteSize.class,
            description = "Size of the test file, e.g. 4G (default 2 GiB, at most a quarter of available memory and half the free disk beyond 1 GiB).")
    Long size;

    @Option(names = "--file", paramLabel = "FILE", description = "Read this existing file instead of writing one (it is never changed or removed; writes still go to --dir or its folder).")
    Path file;

    @Option(names = "--sample-ms", paramLabel = "MS", description = "Length of each random-read sample (default ${DEFAULT-VALUE}).")
    long sampleMs = IoDrill.DEFAULT_SAMPLE_MS;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        if (measure.list) {
            hostside.cli.MeasureOptions.printList(out, IoDrill.tests());
            return 0;
        }
        if (sampleMs < 50 || sampleMs > 60_000) throw new BadInputException("--sample-ms " + sampleMs + ": choose 50 to 60000");
        if (file != null && size != null) throw new BadInputException("--file and --size: the file has its own size");
        List<TestCase<IoTarget>> tests = measure.pick(IoDrill.tests(), List.copyOf(IoDrill.tests()));
        IoRun run = run(options.open(), tests, new IoDrill.Options(dir, size, file, sampleMs), !options.json);
        if (options.json) out.print(Json.write(json(run)));
        else out.print(new IoView(run, Style.forTerminal()).render());
        out.flush();
        return 0;
    }

    /** The drill with progress on stderr when it is a terminal (the report runs it this way too). */
    public static IoRun run(hostside.fs.FsRoot fs, List<TestCase<IoTarget>> tests, IoDrill.Options o, boolean showProgress) {
        boolean terminal = showProgress && System.console() != null;
        try {
            return IoDrill.run(fs, tests, o, step -> {
                if (terminal) {
                    System.err.print("\r\u001b[Khostside: " + (step.startsWith("writing") ? step : "measuring " + step) + "...");
                    System.err.flush();
                }
            });
        } finally {
            if (terminal && !tests.isEmpty()) System.err.print("\r\u001b[K");
        }
    }

    /** The JSON of a run, under CONTRACT's schema name. */
    public static com.fasterxml.jackson.databind.node.ObjectNode json(IoRun run) {
        var n = Json.MAPPER.createObjectNode();
        n.put("schema", hostside.machine.MachineFacts.SCHEMA);
        n.put("kind", "io");
        n.setAll((com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.valueToTree(run));
        return n;
    }
}
