package hostside.container;

import java.util.List;

import hostside.core.Rule;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.TestCase;

/**
 * Module 4's container drill: the limits a container puts on this process, weighed against the
 * DataLoader it would start. Facts only: nothing is measured, so no load is read before it.
 */
public final class ContainerDrill implements Drill<ContainerDrill.Options, ContainerRun> {
    /** The drill, as the registry and the commands drive it. */
    public static final ContainerDrill DRILL = new ContainerDrill();

    private ContainerDrill() {}

    /** The DataLoader to weigh the limits against; null fields take the defaults ({@link DataLoaderPlan}). */
    public record Options(Integer workers, Integer threads, Long batchBytes) {}

    @Override
    public String key() {
        return "container";
    }

    @Override
    public int module() {
        return 4;
    }

    @Override
    public String title() {
        return "The container limits that break training";
    }

    @Override
    public List<TestCase<?>> cases() {
        return List.of();
    }

    /** The limits of the process the machine's /proc/self is (on a recording, the process it recorded). */
    @Override
    public ContainerFacts facts(FsRoot fs) {
        return ContainerReader.read(fs, LiveProcess.recorded());
    }

    @Override
    public Options defaults() {
        return new Options(null, null, null);
    }

    @Override
    public List<Rule> rules() {
        return ContainerRules.all();
    }

    @Override
    public Class<ContainerRun> runType() {
        return ContainerRun.class;
    }

    /** This process's limits on a live machine; on a recording, those of the process it recorded. */
    @Override
    public ContainerRun run(DrillContext c, Options o) {
        LiveProcess process = c.fs().isLive() ? LiveProcess.current() : LiveProcess.recorded();
        return ContainerRun.read(c.fs(), process, o.workers(), o.threads(), o.batchBytes());
    }
}
