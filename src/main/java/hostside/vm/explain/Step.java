package hostside.vm.explain;

import java.util.List;
import java.util.Map;

/**
 * One step of a stepper: what the terminal prints, --json writes and the course draws.
 *
 * @param number    1-based position in its stepper's list
 * @param title     one line
 * @param narration 1-4 sentences, plain English
 * @param state     what the step shows, typed: its kind says which stepper made it
 */
public record Step(int number, String title, String narration, StepState state) {
    public Step {
        if (number < 1) throw new IllegalArgumentException("step numbers start at 1, got " + number);
    }

    /** The step as terminal lines: heading, wrapped narration, then a table or diagram of the state. */
    public List<String> lines(int total) {
        return StepText.lines(this, total);
    }

    /** The state as ordered names and plain values, as --json writes it. */
    public Map<String, Object> plainState() {
        return state.plain();
    }

    /** The JSON form: the record's fields in order. */
    public Map<String, Object> json() {
        return Maps.of("number", number, "title", title, "narration", narration, "state", state);
    }
}
