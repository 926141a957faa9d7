package hostside.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import picocli.CommandLine.Option;

import hostside.core.Table;
import hostside.harness.Drill;
import hostside.harness.Selection;
import hostside.harness.TestCase;

/** The options of every drill that measures: which measurements there are, and which to run. */
public final class MeasureOptions {
    @Option(names = "--list", description = "List the measurements (key and what it measures) and exit.")
    public boolean list;

    @Option(names = "--only", split = ",", paramLabel = "KEY", description = "Run only these measurements (keys from --list).")
    public List<String> only = new ArrayList<>();

    @Option(names = "--no-measure", description = "Facts only: measure nothing.")
    public boolean noMeasure;

    /** The cases to run of a drill whose cases are {@code everything}: all, none with --no-measure, else those --only names (an unknown key is bad input). */
    public Selection selection(List<? extends TestCase<?>> everything) {
        if (noMeasure) return Selection.none();
        return Selection.named(only, everything);
    }

    /** --list: each measurement's key and what it measures, as an aligned table; a case that needs a GPU says so. */
    public static void printList(PrintWriter out, Drill<?, ?> drill) {
        Table t = new Table("key", "what it measures");
        Set<String> gpu = drill.gpuCases().stream().map(TestCase::key).collect(Collectors.toSet());
        for (TestCase<?> c : drill.cases()) t.row(c.key(), c.description() + (gpu.contains(c.key()) ? " (GPU)" : ""));
        out.print(t.render(""));
        out.flush();
    }
}
