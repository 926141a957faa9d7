package hostside.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.checklist.Checklist;
import hostside.checklist.ChecklistDocument;
import hostside.checklist.ChecklistRun;
import hostside.checklist.GpuFeed;
import hostside.checklist.Ticker;
import hostside.checklist.Xid;
import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.Nvml;

@Command(name = "checklist", mixinStandardHelpOptions = true,
        header = "The 60-second checklist for one running training process.",
        description = {"Module 4's 60-second checklist for one running process (a training job) and the machine under it: load and pressure, the kernel log (OOM kills, Xid errors, hung tasks, crashes, MCE/EDAC), per-CPU use, the process's threads, memory, faults, I/O and workers, disks and network, and each GPU, with a verdict on top.",
                "A recorded machine (--root) gives one snapshot: no rates, GPUs or kernel log."})
public final class ChecklistCommand implements Callable<Integer> {
    /** Longer windows belong to a monitoring system, not to a checklist someone waits for. */
    /** Windows longer than this say on stderr that sampling is under way. */
    static final int QUIET_SECONDS = 2;

    @Mixin
    MachineOptions options;

    @Parameters(index = "0", paramLabel = "PID", converter = Counts.Pid.class, description = "The process to look at.")
    long pid;

    @Option(names = "--seconds", paramLabel = "N", converter = Counts.Seconds.class,
            description = "Sampling window, sampled twice a second, " + Counts.MIN_SECONDS + " to " + Counts.MAX_SECONDS + " (default ${DEFAULT-VALUE}).")
    int seconds = 10;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        FsRoot fs = options.open();
        ChecklistRun.existing(fs, pid);
        Checklist c;
        try (GpuFeed gpus = fs.isLive() ? GpuFeed.nvml(Nvml.defaultLibrary()) : GpuFeed.none("a recorded machine")) {
            String what = "sampling PID " + pid + " for " + seconds + " s";
            c = seconds > QUIET_SECONDS && fs.isLive()
                    ? Progress.during(what, seconds * 1_000_000_000L, () -> gather(fs, gpus))
                    : gather(fs, gpus);
        }
        var out = spec.commandLine().getOut();
        out.print(options.json ? Json.write(c) : new TextRenderer(Style.forTerminal()).render(ChecklistDocument.of(c)));
        out.flush();
        return 0;
    }

    private Checklist gather(FsRoot fs, GpuFeed gpus) {
        try {
            return ChecklistRun.run(fs, pid, seconds, Ticker.system(), gpus, i -> {});
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sampling", e);
        }
    }
}
