package hostside.harness;

import java.util.IdentityHashMap;
import java.util.Map;

/** Each drill's options where a caller set them, each other drill's defaults: what a run of several drills (the report) hands each one. */
public final class DrillOptions {
    private final Map<Drill<?, ?>, Object> given;

    private DrillOptions(Map<Drill<?, ?>, Object> given) {
        this.given = given;
    }

    /** Every drill with its defaults. */
    public static DrillOptions defaults() {
        return new DrillOptions(new IdentityHashMap<>());
    }

    /** These, with {@code drill} taking {@code options}. */
    public <O> DrillOptions with(Drill<O, ?> drill, O options) {
        Map<Drill<?, ?>, Object> more = new IdentityHashMap<>(given);
        more.put(drill, options);
        return new DrillOptions(more);
    }

    /** {@code drill}'s options: as set, else its defaults. */
    @SuppressWarnings("unchecked") // put only by with(), which ties each value's type to its drill's
    public <O> O of(Drill<O, ?> drill) {
        Object o = given.get(drill);
        return o == null ? drill.defaults() : (O) o;
    }

    /** {@code drill} run in {@code context} with its options from here. */
    public <O, R extends DrillRun> R run(Drill<O, R> drill, DrillContext context) {
        return drill.run(context, of(drill));
    }
}
