package hostside.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.vm.VmDrill;
import hostside.vm.explain.ExplainPlayer;
import hostside.vm.explain.PageWalk;
import hostside.vm.explain.Step;

@Command(name = "vm", mixinStandardHelpOptions = true,
        header = "What virtual memory does to your bytes, measured and explained.",
        description = {"Module 2: page size, THP, hugetlb, overcommit, swap, NUMA balancing and the memlock limit, with verdicts.",
                "Then read() against mmap of a file, cold and warm; first-touch faults with and without huge pages; TLB reach; and the GPU's view: unified-memory attributes, VMM granularity, the cost of pinning and managed-memory migration.",
                "--explain pagewalk ADDRESS and --explain cow step through the two mechanisms, one key press per step."})
public final class VmCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Mixin
    MeasureOptions measure;

    @Option(names = "--dir", paramLabel = "DIR", description = "Folder for the test file of the read/mmap measurements (default /var/tmp; use a disk, not tmpfs).")
    Path dir;

    @Option(names = "--size", paramLabel = "BYTES", converter = ByteSize.class,
            description = "Size of the test file, e.g. 512M, 2G (default: 1 GiB, at most a quarter of available memory).")
    Long size;

    @Option(names = "--anon-size", paramLabel = "BYTES", converter = ByteSize.class,
            description = "Size of the anonymous region of the first-touch measurements (default 256M; at most a quarter of available memory: a cut is said in the output, detail.cut in --json).")
    Long anonSize;

    @Mixin
    ExplainOptions explain;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (explain.requested()) return explain(spec.commandLine().getOut());
        return DrillCommand.run(spec, options, measure, VmDrill.DRILL, new VmDrill.Options(dir, size, anonSize));
    }

    /**
     * The steppers: pure state machines, played in the terminal (Enter or space advances, q quits) or printed
     * whole. The page walk's default layout is this machine's (or the recording's).
     */
    private int explain(PrintWriter out) {
        FsRoot fs = options.open();
        var facts = VmDrill.DRILL.facts(fs);
        String arch = facts.arch() == null ? null : facts.arch().name();
        long page = facts.pageSize() == null || facts.pageSize().bytes() == null ? 4096 : facts.pageSize().bytes();
        // The kernel clears la57 from cpuinfo when it runs 4-level tables on a CPU that could do 5.
        boolean la57 = fs.text("/proc/cpuinfo").map(c -> c.contains(" la57")).orElse(false);
        List<Step> steps;
        try {
            steps = explain.steps(PageWalk.Layout.forMachine(arch, la57, page));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        if (options.json) {
            out.print(Json.write(explain.json(steps)));
            out.flush();
            return 0;
        }
        // Piped or redirected input has no one to press a key: every step prints; a terminal answers with single keys.
        ExplainPlayer.play(steps, out, explain.all());
        out.flush();
        return 0;
    }
}
