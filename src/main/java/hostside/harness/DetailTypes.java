package hostside.harness;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which detail record each test case's results hold, by the case's key: what reading a result's
 * JSON back needs to make the same record again. The drills declare it
 * ({@link TestCase#detailType()}); whoever reads documents back (the report's --from, the tests)
 * registers the drills' cases first. A key not registered reads with no detail.
 */
public final class DetailTypes {
    private static final Map<String, Class<? extends Detail>> BY_KEY = new ConcurrentHashMap<>();

    private DetailTypes() {}

    public static void register(Collection<? extends TestCase<?>> cases) {
        for (TestCase<?> t : cases) {
            if (t.detailType() == null) continue;
            Class<? extends Detail> before = BY_KEY.putIfAbsent(t.key(), t.detailType());
            if (before != null && before != t.detailType()) {
                throw new IllegalStateException(t.key() + ": two detail types, " + before.getName() + " and " + t.detailType().getName());
            }
        }
    }

    /** The record of {@code key}'s details, or null when none is registered. */
    public static Class<? extends Detail> of(String key) {
        return BY_KEY.get(key);
    }
}
