package hostside.harness;

import java.util.List;

import hostside.core.Rule;
import hostside.fs.FsRoot;

/**
 * One module's drill, as nvbandwidth has its test cases and hwloc its back ends: every drill is
 * driven the same way, by the command line, the report and the tests alike.
 *
 * <p>The path of every drill (docs/ARCHITECTURE.md): {@link #run} reads the facts through the
 * context's {@link hostside.fs.FsRoot} (a live machine or a recording), runs the cases the
 * context's {@link Selection} keeps against one target that is made only when a case runs and
 * closed on every exit path ({@link Runner#run(hostside.fs.FsRoot, List, DrillTarget, ProgressSink)}),
 * judges facts and results by its {@link #rules()}, and returns one typed run: its JSON, figures,
 * conclusions and document ({@link DrillRun}).
 *
 * @param <O> the drill's options: one record, each null or absent field taking its default
 * @param <R> the drill's run
 */
public interface Drill<O, R extends DrillRun> {
    /** The command that runs it, and its name in progress lines and loads ("machine", "vm", ...). */
    String key();

    /** The course's module it belongs to, 1 to 6. */
    int module();

    /** What it answers, in a line (the report's section title). */
    String title();

    /** Every case it can run, in its order: what --list shows, --only is checked against, and a report's details are read back by. */
    List<TestCase<?>> cases();

    /** The cases among {@link #cases()} that need a GPU: --list marks them. */
    default List<TestCase<?>> gpuCases() {
        return List.of();
    }

    /**
     * Its facts alone, read through {@code fs}: no GPU opened, nothing measured. What a snapshot
     * records is what every drill's facts read ({@code hostside.snapshot.Snapshot}).
     */
    Record facts(FsRoot fs);

    /** Its options with every default. */
    O defaults();

    /** The rules it judges by (the rulebook gathers them from every drill). */
    List<Rule> rules();

    /** The type of its run, for reading a run's JSON back. */
    Class<R> runType();

    /**
     * Facts, then the selected cases, judged: one run. On a recording nothing is measured and every
     * selected case is "not run" with {@link Runner#RECORDED}.
     */
    R run(DrillContext context, O options);

    /**
     * Whether it will measure anything in {@code context}: then the machine's load is read as it
     * begins, over the window it closes ({@link DrillContext#load()}) once its facts are read and
     * before it measures or writes a test file, and a busy machine makes its measured findings
     * unknown. A drill that reuses what an earlier one measured says no.
     */
    default boolean measures(DrillContext context) {
        return context.cases().picksAny(cases());
    }
}
