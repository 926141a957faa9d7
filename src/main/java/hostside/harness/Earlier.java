package hostside.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The runs that drills before this one made in the same session: the report reads Module 1's
 * facts once and hands them to every drill after it, and Module 2 explains the pin costs Module 1
 * measured instead of measuring them again. A drill run alone finds nothing here and reads or
 * measures for itself.
 */
public final class Earlier {
    public static final Earlier NONE = new Earlier(List.of());

    private final List<DrillRun> runs;

    private Earlier(List<DrillRun> runs) {
        this.runs = List.copyOf(runs);
    }

    /** The earlier run of that type, if one ran. */
    public <R extends DrillRun> Optional<R> run(Class<R> type) {
        return runs.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /** These runs and {@code next} after them. */
    public Earlier with(DrillRun next) {
        List<DrillRun> all = new ArrayList<>(runs);
        all.add(next);
        return new Earlier(all);
    }
}
