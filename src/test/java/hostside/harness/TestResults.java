package hostside.harness;

import hostside.core.Stats;
import hostside.core.Unit;

/** Results for tests, written as the JSON reads: the status and unit as words; no detail. */
public final class TestResults {
    private TestResults() {}

    public static Result of(String key, String description, String status, String why, String unit, Stats value, String method) {
        Unit u = unit == null || unit.isEmpty() ? null : Unit.of(unit);
        return new Result(key, description, Status.parse(status), why, u, value, u == null || value == null ? null : u.usually, method, null, null);
    }
}
