package hostside.harness;

import java.util.ArrayList;
import java.util.List;

import hostside.core.BadInputException;

/**
 * Which of a drill's cases run: all, none (facts only), those named (--only), or a subset the
 * caller decides (the report's --quick keeps a few and skips the rest with their reason). A drill
 * picks each of its groups of cases through it, so the rule is the same for every drill.
 */
public interface Selection {
    /** The cases of {@code group} to run, in the group's order; a case left out may be kept as a not-run row (the quick report's). */
    <C> List<TestCase<C>> pick(List<TestCase<C>> group);

    /** The cases of {@code group} that run only when asked for by name (self-checks that would spend minutes on every run). */
    default <C> List<TestCase<C>> pickNamed(List<TestCase<C>> group) {
        return List.of();
    }

    /** Whether any of {@code cases} would run or keep a row. */
    default boolean picksAny(List<? extends TestCase<?>> cases) {
        for (TestCase<?> t : cases) if (!pickOne(this, t).isEmpty()) return true;
        return false;
    }

    private static <C> List<TestCase<C>> pickOne(Selection s, TestCase<C> t) {
        return s.pick(List.of(t));
    }

    /** Every case. */
    static Selection all() {
        return new Selection() {
            @Override
            public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
                return group;
            }
        };
    }

    /** No case: the facts only (--no-measure). */
    static Selection none() {
        return new Selection() {
            @Override
            public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
                return List.of();
            }
        };
    }

    /** Every case kept as a not-run row with {@code why} (a drill that could not start: its disk filled up after the check). */
    static Selection skipped(String why) {
        return new Selection() {
            @Override
            public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
                return group.stream().map(t -> (TestCase<C>) new Skipped<>(t, why)).toList();
            }
        };
    }

    /**
     * The cases named by {@code keys} (all when empty), in the order the keys are given; a key that no
     * case of {@code everything} has is bad input, said before anything runs.
     */
    static Selection named(List<String> keys, List<? extends TestCase<?>> everything) {
        if (keys.isEmpty()) return all();
        for (String k : keys) {
            if (everything.stream().noneMatch(t -> t.key().equals(k))) throw new BadInputException("no test case \"" + k + "\"; see --list");
        }
        List<String> asked = List.copyOf(keys);
        return new Selection() {
            @Override
            public <C> List<TestCase<C>> pick(List<TestCase<C>> group) {
                List<TestCase<C>> chosen = new ArrayList<>();
                for (String k : asked) group.stream().filter(t -> t.key().equals(k)).findFirst().ifPresent(chosen::add);
                return chosen;
            }

            @Override
            public <C> List<TestCase<C>> pickNamed(List<TestCase<C>> group) {
                return pick(group);
            }
        };
    }
}
