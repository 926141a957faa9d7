package hostside.harness;

import java.util.Optional;

/**
 * One measurement, nvbandwidth's way: a key to select it by, a description, a filter that says
 * why it does not apply to this machine, and a run. {@code C} is what it runs against.
 */
public interface TestCase<C> {
    String key();

    String description();

    /** Empty when the test applies; else the reason, shown as "not run: reason". */
    default Optional<String> notApplicable(C target) {
        return Optional.empty();
    }

    Result run(C target);
}
