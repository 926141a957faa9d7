package hostside.harness;

import hostside.core.Stats;

/**
 * What one test case gave: a figure with its unit, or why there is none.
 *
 * @param status  ok, not run (it does not apply here, with why) or failed (with why)
 * @param method  how it was measured, in a line, for people comparing with other tools
 * @param detail  the conditions: buffer size, copies per sample, GPU
 */
public record Result(String key, String description, String status, String why, String unit, Stats value,
                     String method, java.util.Map<String, Object> detail) {

    public static Result ok(TestCase<?> t, String unit, Stats value, String method, java.util.Map<String, Object> detail) {
        return new Result(t.key(), t.description(), "ok", "", unit, value, method, detail);
    }

    public static Result notRun(TestCase<?> t, String why) {
        return new Result(t.key(), t.description(), "not run", why, "", null, "", java.util.Map.of());
    }

    public static Result failed(TestCase<?> t, String why) {
        return new Result(t.key(), t.description(), "failed", why, "", null, "", java.util.Map.of());
    }

    public boolean isOk() {
        return status.equals("ok");
    }

    /** The median of the measured result with this key, if it is among {@code results} and ran. */
    public static java.util.Optional<Double> median(java.util.List<Result> results, String key) {
        return results.stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst().map(r -> r.value().median());
    }
}
