package hostside.cli;

import java.util.ArrayList;
import java.util.List;

import hostside.core.BadInputException;
import hostside.core.Table;
import hostside.harness.Runner;
import hostside.harness.TestCase;
import picocli.CommandLine.Option;

/** The options of every drill that measures: which measurements there are, and which to run. */
public final class MeasureOptions {
    @Option(names = "--list", description = "List the measurements (key and what it measures) and exit.")
    public boolean list;

    @Option(names = "--only", split = ",", paramLabel = "KEY", description = "Run only these measurements (keys from --list).")
    public List<String> only = new ArrayList<>();

    @Option(names = "--no-measure", description = "Facts only: measure nothing.")
    public boolean noMeasure;

    /**
     * The tests of {@code group} to run: all without --only, none with --no-measure, else those
     * --only names. A key that no test of {@code everything} has is bad input.
     */
    public <T extends TestCase<?>> List<T> pick(List<T> group, List<? extends TestCase<?>> everything) {
        if (noMeasure) return List.of();
        if (only.isEmpty()) return group;
        for (String k : only) {
            if (everything.stream().noneMatch(t -> t.key().equals(k))) throw new BadInputException("no test case \"" + k + "\"; see --list");
        }
        List<String> mine = only.stream().filter(k -> group.stream().anyMatch(t -> t.key().equals(k))).toList();
        return mine.isEmpty() ? List.of() : Runner.select(group, mine);
    }

    /** --list: each measurement's key and what it measures, as an aligned table. */
    public static void printList(java.io.PrintWriter out, List<? extends TestCase<?>> tests) {
        Table t = new Table("key", "what it measures");
        for (TestCase<?> c : tests) t.row(c.key(), c.description());
        out.print(t.render(""));
        out.flush();
    }
}
