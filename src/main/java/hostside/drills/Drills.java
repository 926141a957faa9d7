package hostside.drills;

import java.util.List;
import java.util.Optional;

import hostside.container.ContainerDrill;
import hostside.cpu.CpuDrill;
import hostside.harness.Drill;
import hostside.health.HealthDrill;
import hostside.io.IoDrill;
import hostside.machine.MachineDrill;
import hostside.rack.Rack;
import hostside.vm.VmDrill;

/**
 * Every drill, in the order a report runs them: the one list the command line, {@code --list},
 * {@code report}, the rulebook and the readers of a report's JSON iterate. A drill added here runs
 * in the report, lists its cases, has its rules in the rulebook and its results' details read back.
 */
public final class Drills {
    private Drills() {}

    /**
     * Module 1 first: its facts are read once and handed to every drill after it; the rack after the
     * five, judging what they read; node health last, reading the machine's PCI devices from Module 1.
     */
    private static final List<Drill<?, ?>> ALL = List.of(MachineDrill.DRILL, VmDrill.DRILL, CpuDrill.DRILL, IoDrill.DRILL, ContainerDrill.DRILL,
            Rack.DRILL, HealthDrill.DRILL);

    public static List<Drill<?, ?>> all() {
        return ALL;
    }

    /** The drill the command {@code key} runs. */
    public static Optional<Drill<?, ?>> find(String key) {
        return ALL.stream().filter(d -> d.key().equals(key)).findFirst();
    }
}
