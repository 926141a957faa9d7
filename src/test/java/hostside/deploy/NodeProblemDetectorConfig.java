package hostside.deploy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A node-problem-detector custom plugin monitor configuration, checked offline as NPD checks it
 * when it starts, so that a config NPD would refuse (it exits: glog.Fatalf) is caught here rather
 * than on a cluster's nodes. Read from kubernetes/node-problem-detector at commit
 * 01a6793b0ddac8d51bdc191ff553745283d4b3e5:
 * <ul>
 *   <li>{@code pkg/custompluginmonitor/custom_plugin_monitor.go}: json.Unmarshal of the file, then
 *       ApplyConfiguration, then Validate; any error is fatal.</li>
 *   <li>{@code pkg/custompluginmonitor/types/config.go}: the defaults (timeout 5s, invoke_interval
 *       30s, max_output_length 80, concurrency 3, enable_message_change_based_condition_update
 *       false, skip_initial_status false, metricsReporting true), the durations parsed with Go's
 *       time.ParseDuration, and Validate's checks: plugin is "custom"; no rule timeout above the
 *       global one; every rule's path exists (os.Stat); a permanent rule's condition is one of the
 *       conditions.</li>
 *   <li>{@code pkg/custompluginmonitor/types/types.go} and {@code pkg/types/types.go}: the field
 *       names, rule types "temporary" and "permanent".</li>
 * </ul>
 * A later config_test.go of the same repository (in the search index without its commit) also
 * expects the global invoke_interval and a rule's own invoke_interval to be parsed and positive:
 * checked here too, so the config passes both versions.
 *
 * <p>Stricter than NPD, and named so: NPD's json.Unmarshal ignores a key it does not know (and
 * matches keys case-insensitively), so {@code "max_ouput_length"} would silently leave the default;
 * here an unknown or miscased key is refused. And three values NPD takes without a word but
 * cannot run with: concurrency below 1 (plugin.go sends on a channel of that capacity before
 * starting each rule: 0 blocks forever, below 0 panics), a timeout of 0 or less (every run is
 * killed at once), and a rule type other than the two (plugin results are then taken as
 * permanent without metrics).
 *
 * <p>Whether the path exists needs the node: {@link #check} takes the folder that stands for the
 * node's (or NPD container's) root, and with null leaves that check out and says so.
 */
final class NodeProblemDetectorConfig {
    private NodeProblemDetectorConfig() {}

    /** One refusal: which check, and why. */
    record Problem(Check check, String why) {}

    /** The checks, NPD's and hostside's own. */
    enum Check {
        /** A key NPD does not read, or a value of the wrong JSON type (Unmarshal fails on the latter). */
        UNMARSHAL,
        /** ApplyConfiguration: a duration time.ParseDuration refuses. */
        DURATION,
        /** Validate: plugin must be "custom". */
        PLUGIN,
        /** Validate: a rule's timeout above the global timeout. */
        RULE_TIMEOUT,
        /** Validate: a rule's path does not exist (needs the node). */
        PATH,
        /** Validate: a permanent rule's condition is not among the conditions. */
        CONDITION,
        /** Later Validate: the global or a rule's invoke interval is not positive. */
        INVOKE_INTERVAL,
        /** hostside's own: concurrency, timeout or rule type NPD accepts but cannot run with. */
        RUNNABLE
    }

    /** The configuration after ApplyConfiguration: every default filled in. */
    record Applied(String plugin, Duration invokeInterval, Duration timeout, int maxOutputLength, int concurrency,
                   boolean messageChangeBasedConditionUpdate, boolean skipInitialStatus, boolean metricsReporting,
                   String source, List<Condition> conditions, List<Rule> rules) {}

    record Condition(String type, String reason, String message) {}

    record Rule(String type, String condition, String reason, String path, List<String> args, Duration timeout, Duration invokeInterval) {}

    /** The result: the applied configuration (null when it could not be read that far) and every problem found. */
    record Result(Applied applied, List<Problem> problems) {
        boolean fires(Check c) {
            return problems.stream().anyMatch(p -> p.check() == c);
        }
    }

    static final Map<String, Set<String>> KEYS = Map.of(
            "", Set.of("plugin", "pluginConfig", "source", "conditions", "rules", "metricsReporting"),
            "pluginConfig", Set.of("invoke_interval", "timeout", "max_output_length", "concurrency",
                    "enable_message_change_based_condition_update", "skip_initial_status"),
            // pkg/types Condition: status, transition and the taint fields are read too (NPD sets status itself)
            "conditions[]", Set.of("type", "status", "transition", "reason", "message", "taintEnabled", "taintKey", "taintValue", "taintEffect"),
            "rules[]", Set.of("type", "condition", "reason", "path", "args", "timeout", "invoke_interval"));

    /**
     * Reads, applies the defaults and validates {@code config} as NPD would; {@code nodeRoot} is
     * where a rule's absolute path is looked up (null: the path check needs the node and is not made).
     */
    static Result check(JsonNode config, Path nodeRoot) {
        List<Problem> problems = new ArrayList<>();
        if (!config.isObject()) return new Result(null, List.of(new Problem(Check.UNMARSHAL, "not a JSON object")));
        unknownKeys(config, "", problems);
        JsonNode pc = config.path("pluginConfig");
        if (!pc.isMissingNode() && !pc.isNull()) unknownKeys(pc, "pluginConfig", problems);

        String plugin = string(config, "plugin", "", problems);
        Duration timeout = duration(pc, "timeout", "pluginConfig.timeout", Duration.ofSeconds(5), problems);
        Duration interval = duration(pc, "invoke_interval", "pluginConfig.invoke_interval", Duration.ofSeconds(30), problems);
        int maxOutput = integer(pc, "max_output_length", 80, problems);
        int concurrency = integer(pc, "concurrency", 3, problems);
        boolean messageChange = bool(pc, "enable_message_change_based_condition_update", false, problems);
        boolean skipInitial = bool(pc, "skip_initial_status", false, problems);
        boolean metrics = bool(config, "metricsReporting", true, problems);
        String source = string(config, "source", "", problems);

        List<Condition> conditions = new ArrayList<>();
        for (JsonNode c : array(config, "conditions", problems)) {
            unknownKeys(c, "conditions[]", problems);
            conditions.add(new Condition(string(c, "type", "", problems), string(c, "reason", "", problems), string(c, "message", "", problems)));
        }
        List<Rule> rules = new ArrayList<>();
        for (JsonNode r : array(config, "rules", problems)) {
            unknownKeys(r, "rules[]", problems);
            List<String> args = new ArrayList<>();
            for (JsonNode a : array(r, "args", problems)) {
                if (a.isTextual()) args.add(a.asText());
                else problems.add(new Problem(Check.UNMARSHAL, "rules[].args: " + a + " is not a string"));
            }
            rules.add(new Rule(string(r, "type", "", problems), string(r, "condition", "", problems), string(r, "reason", "", problems),
                    string(r, "path", "", problems), args, duration(r, "timeout", "rules[].timeout", null, problems),
                    duration(r, "invoke_interval", "rules[].invoke_interval", null, problems)));
        }
        Applied applied = new Applied(plugin, interval, timeout, maxOutput, concurrency, messageChange, skipInitial, metrics, source,
                List.copyOf(conditions), List.copyOf(rules));
        validate(applied, nodeRoot, problems);
        return new Result(applied, List.copyOf(problems));
    }

    private static void validate(Applied a, Path nodeRoot, List<Problem> problems) {
        if (!"custom".equals(a.plugin())) problems.add(new Problem(Check.PLUGIN, "plugin \"" + a.plugin() + "\": NPD supports only \"custom\""));
        for (Rule r : a.rules()) {
            if (a.timeout() != null && r.timeout() != null && r.timeout().compareTo(a.timeout()) > 0) {
                problems.add(new Problem(Check.RULE_TIMEOUT, "rule " + r.reason() + ": timeout " + r.timeout() + " is greater than the global " + a.timeout()));
            }
        }
        if (nodeRoot != null) {
            for (Rule r : a.rules()) {
                // os.Stat of a relative path is relative to NPD's working folder: only an absolute path says where on the node
                if (!r.path().startsWith("/") || !Files.exists(nodeRoot.resolve(r.path().substring(1)))) {
                    problems.add(new Problem(Check.PATH, "rule " + r.reason() + ": path \"" + r.path() + "\" does not exist on the node"));
                }
            }
        }
        for (Rule r : a.rules()) {
            if (!"permanent".equals(r.type())) continue;
            if (a.conditions().stream().noneMatch(c -> c.type().equals(r.condition()))) {
                problems.add(new Problem(Check.CONDITION, "permanent rule " + r.reason() + ": condition \"" + r.condition() + "\" is not among the conditions"));
            }
        }
        if (a.invokeInterval() != null && !a.invokeInterval().isPositive()) {
            problems.add(new Problem(Check.INVOKE_INTERVAL, "global invoke interval " + a.invokeInterval() + " is not positive"));
        }
        for (Rule r : a.rules()) {
            if (r.invokeInterval() != null && !r.invokeInterval().isPositive()) {
                problems.add(new Problem(Check.INVOKE_INTERVAL, "rule " + r.reason() + ": invoke interval " + r.invokeInterval() + " is not positive"));
            }
        }
        if (a.concurrency() < 1) problems.add(new Problem(Check.RUNNABLE, "concurrency " + a.concurrency() + ": no rule would ever run"));
        if (a.timeout() != null && !a.timeout().isPositive()) problems.add(new Problem(Check.RUNNABLE, "timeout " + a.timeout() + ": every run is killed at once"));
        for (Rule r : a.rules()) {
            if (!r.type().equals("permanent") && !r.type().equals("temporary")) {
                problems.add(new Problem(Check.RUNNABLE, "rule " + r.reason() + ": type \"" + r.type() + "\" is neither temporary nor permanent"));
            }
            if (r.timeout() != null && !r.timeout().isPositive()) {
                problems.add(new Problem(Check.RUNNABLE, "rule " + r.reason() + ": timeout " + r.timeout() + ": every run is killed at once"));
            }
        }
    }

    private static void unknownKeys(JsonNode o, String where, List<Problem> problems) {
        if (!o.isObject()) {
            problems.add(new Problem(Check.UNMARSHAL, (where.isEmpty() ? "the document" : where) + ": not a JSON object"));
            return;
        }
        Set<String> known = KEYS.get(where);
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                problems.add(new Problem(Check.UNMARSHAL, (where.isEmpty() ? "" : where + ".") + k
                        + ": NPD does not read this key (json.Unmarshal would ignore it in silence)"));
            }
        }
    }

    // Go's encoding/json: a null leaves the field as it was (nil, so the default applies); any other
    // JSON type than the field's is an Unmarshal error.
    private static String string(JsonNode o, String key, String none, List<Problem> problems) {
        JsonNode v = o.path(key);
        if (v.isMissingNode() || v.isNull()) return none;
        if (!v.isTextual()) {
            problems.add(new Problem(Check.UNMARSHAL, key + ": " + v + " is not a string"));
            return none;
        }
        return v.asText();
    }

    private static int integer(JsonNode o, String key, int dflt, List<Problem> problems) {
        JsonNode v = o.path(key);
        if (v.isMissingNode() || v.isNull()) return dflt;
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            problems.add(new Problem(Check.UNMARSHAL, key + ": " + v + " is not an int"));
            return dflt;
        }
        return v.asInt();
    }

    private static boolean bool(JsonNode o, String key, boolean dflt, List<Problem> problems) {
        JsonNode v = o.path(key);
        if (v.isMissingNode() || v.isNull()) return dflt;
        if (!v.isBoolean()) {
            problems.add(new Problem(Check.UNMARSHAL, key + ": " + v + " is not a bool"));
            return dflt;
        }
        return v.asBoolean();
    }

    private static List<JsonNode> array(JsonNode o, String key, List<Problem> problems) {
        JsonNode v = o.path(key);
        if (v.isMissingNode() || v.isNull()) return List.of();
        if (!v.isArray()) {
            problems.add(new Problem(Check.UNMARSHAL, key + ": not an array"));
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>();
        v.forEach(out::add);
        return out;
    }

    private static Duration duration(JsonNode o, String key, String where, Duration dflt, List<Problem> problems) {
        String s = string(o, key, null, problems);
        if (s == null) return dflt;
        try {
            return parseDuration(s);
        } catch (IllegalArgumentException e) {
            problems.add(new Problem(Check.DURATION, where + ": " + e.getMessage()));
            return dflt;
        }
    }

    /** Nanoseconds per unit, as Go's time package names them. */
    private static final Map<String, Long> UNITS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L, "ms", 1_000_000L,
            "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    /**
     * Go's time.ParseDuration: an optional sign, then one or more decimal numbers each with a unit
     * ("300ms", "-1.5h", "2h45m", ".5s"); "0" alone needs no unit; the total must fit in int64
     * nanoseconds.
     */
    static Duration parseDuration(String s) {
        String orig = s;
        if (s.equals("0") || s.equals("+0") || s.equals("-0")) return Duration.ZERO;
        boolean neg = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            neg = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.isEmpty()) throw new IllegalArgumentException("time: invalid duration \"" + orig + "\"");
        BigDecimal total = BigDecimal.ZERO;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) i++;
            String number = s.substring(start, i);
            if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
                throw new IllegalArgumentException("time: invalid duration \"" + orig + "\"");
            }
            int u = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') i++;
            String unit = s.substring(u, i);
            if (unit.isEmpty()) throw new IllegalArgumentException("time: missing unit in duration \"" + orig + "\"");
            Long nanos = UNITS.get(unit);
            if (nanos == null) throw new IllegalArgumentException("time: unknown unit \"" + unit + "\" in duration \"" + orig + "\"");
            total = total.add(new BigDecimal(number.endsWith(".") ? number + "0" : number).multiply(BigDecimal.valueOf(nanos)));
        }
        if (neg) total = total.negate();
        if (total.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) throw new IllegalArgumentException("time: invalid duration \"" + orig + "\"");
        return Duration.ofNanos(total.longValue());
    }

    /**
     * What NPD makes of one run (plugin.go's run and custom_plugin_monitor.go's toConditionStatus):
     * stdout read up to 4 KiB, trimmed of white space, cut to max_output_length bytes; exit 0 is OK
     * (the condition False), 1 is NonOK (True), any other exit or a kill is Unknown.
     */
    record Outcome(String conditionStatus, String message) {
        static Outcome of(int exitCode, byte[] stdout, int maxOutputLength) {
            byte[] head = stdout.length > 4096 ? Arrays.copyOf(stdout, 4096) : stdout;
            String out = new String(head, StandardCharsets.UTF_8).strip();
            byte[] bytes = out.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > maxOutputLength) out = new String(Arrays.copyOf(bytes, maxOutputLength), StandardCharsets.UTF_8);
            String status = switch (exitCode) {
                case 0 -> "False";
                case 1 -> "True";
                default -> "Unknown";
            };
            return new Outcome(status, out);
        }
    }
}
