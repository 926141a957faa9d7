package hostside.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Style;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.fs.OutputFile;
import hostside.fs.OutputFolder;
import hostside.harness.DrillContext;
import hostside.harness.Selection;
import hostside.health.HealthDrill;
import hostside.health.HealthMetrics;
import hostside.health.HealthRun;

@Command(name = "health", mixinStandardHelpOptions = true,
        header = "Node health: GPU memory and state, NVLink, PCIe, networks, Xids.",
        description = {"Module 6: what a platform team checks on every node before a job lands on it, as DCGM's health watches, gpud and"
                + " the NHC suites check it: ECC and row remapping, the driver's recovery action, clocks held down by the hardware,"
                + " temperature, power limit, persistence, compute and MIG modes, PCIe links and replays, NVLink, and the kernel's Xids.",
                "Exit codes: 0 no finding at or above --fail-on; 1 at least one; 2 bad input; 3 the GPUs could not be judged at all"
                        + " (NVIDIA GPUs on the bus that NVML will not read). Under --root it reads a snapshot, NVML's answers included."})
public final class HealthCommand implements Callable<Integer> {
    /** Exit code when the node's GPUs could not be judged at all (node-problem-detector's "unknown" is any code but 0 and 1). */
    public static final int NOT_JUDGED = 3;
    /** Exit code when a finding at or above --fail-on was made. */
    public static final int UNHEALTHY = 1;

    enum Format { text, json, prometheus, line }

    enum FailOn { bad, warn }

    @Mixin
    MachineOptions options;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "text (default), json (as --json), prometheus (node_exporter's textfile format) or line (one line of at most 80"
                    + " characters, for a Slurm drain reason or a node-problem-detector message).")
    Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write to FILE (through a temporary file beside it, then renamed: node_exporter never reads half a file)"
                    + " instead of standard output.")
    Path output;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", description = "Exit 1 on a finding of this severity or worse: bad (default) or warn.")
    FailOn failOn = FailOn.bad;

    @Option(names = "--no-load", description = "Do not read a GPU's link again under a short load where it sat below its maximum at rest.")
    boolean noLoad;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Format f = format != null ? format : options.json ? Format.json : Format.text;
        if (format != null && options.json && format != Format.json) throw new BadInputException("--json and --format " + format + ": choose one");
        if (output != null) {
            OutputFolder.of(output, "-o");
            OutputFile.checkTarget(output.toAbsolutePath(), "-o");
        }
        FsRoot fs = options.open();
        HealthRun run;
        try (Progress progress = Progress.forStderr(spec.commandLine().getErr())) {
            run = HealthDrill.DRILL.run(DrillContext.alone(fs, Selection.all(), progress, null), new HealthDrill.Options(!noLoad));
        }
        String text = switch (f) {
            case json -> Json.write(run.json());
            case prometheus -> HealthMetrics.of(run).render();
            case line -> run.verdict() + "\n";
            case text -> new TextRenderer(Style.forTerminal()).render(run.document());
        };
        if (output != null) {
            try {
                OutputFile.writeString(output.toAbsolutePath(), text);
            } catch (IOException e) {
                throw new BadInputException(output + ": cannot write (" + OutputFile.reason(e) + ")");
            }
        } else {
            PrintWriter out = spec.commandLine().getOut();
            out.print(text);
            out.flush();
        }
        return exitCode(run, failOn == FailOn.warn ? Severity.WARN : Severity.BAD);
    }

    /** 1 when a finding is at least {@code threshold}, else 3 when the GPUs could not be judged, else 0. */
    static int exitCode(HealthRun run, Severity threshold) {
        if (run.worst().compareTo(threshold) <= 0) return UNHEALTHY;
        return run.gpusNotJudged() ? NOT_JUDGED : 0;
    }
}
