package hostside.vm.explain;

import java.util.List;
import java.util.Map;

/**
 * One step of a stepper. The state is plain data (strings, numbers, booleans, lists and maps of them) so that the
 * same steps can be printed here, written as JSON, or drawn by a web page.
 *
 * @param number    1-based position in its stepper's list
 * @param title     one line
 * @param narration 1-4 sentences, plain English
 * @param state     a JSON-friendly snapshot; key "kind" says which stepper made it
 */
public record Step(int number, String title, String narration, Map<String, Object> state) {
    public Step {
        if (number < 1) throw new IllegalArgumentException("step numbers start at 1, got " + number);
        state = Maps.frozen(state);
    }

    /** The step as terminal lines: heading, wrapped narration, then a table or diagram of the state. */
    public List<String> lines(int total) {
        return StepText.lines(this, total);
    }

    /** The JSON form: the record's fields in order. */
    public Map<String, Object> json() {
        return Maps.of("number", number, "title", title, "narration", narration, "state", state);
    }
}
