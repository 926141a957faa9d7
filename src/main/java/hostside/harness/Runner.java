package hostside.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs test cases in order, each guarded: one that does not apply says why, one that throws is a
 * failed row with the message; neither stops the others.
 */
public final class Runner {
    private Runner() {}

    public static <C> List<Result> run(List<? extends TestCase<C>> tests, C target, Consumer<String> progress) {
        List<Result> results = new ArrayList<>();
        for (TestCase<C> t : tests) {
            try {
                Optional<String> skip = t.notApplicable(target);
                if (skip.isPresent()) {
                    results.add(Result.notRun(t, skip.get()));
                    continue;
                }
                progress.accept(t.key());
                results.add(t.run(target));
            } catch (RuntimeException e) {
                results.add(Result.failed(t, e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        }
        return results;
    }

    /** The tests whose keys are selected (all when {@code keys} is empty); an unknown key is bad input. */
    public static <T extends TestCase<?>> List<T> select(List<T> all, List<String> keys) {
        if (keys.isEmpty()) return all;
        List<T> chosen = new ArrayList<>();
        for (String k : keys) {
            T t = all.stream().filter(x -> x.key().equals(k)).findFirst()
                    .orElseThrow(() -> new hostside.fs.BadInputException("no test case \"" + k + "\"; see --list"));
            chosen.add(t);
        }
        return chosen;
    }
}
