package hostside.harness;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;

/**
 * What one test case gave: a figure with its unit, or why there is none.
 *
 * @param status  ok, not run (it does not apply here, with why) or failed (with why)
 * @param unit    the figure's unit; null when nothing was measured
 * @param value   the median, min and max of the samples; null when nothing was measured
 * @param better  which way the figure is better; null when nothing was measured
 * @param method  how it was measured, in a line, for people comparing with other tools
 * @param anchor  the established tool's test that measures the same (the fio job, the nvbandwidth case); null when none
 * @param detail  the conditions and further figures, the case's own record ({@link TestCase#detailType()}); null when none
 * @param settling how its adaptive sample loops ended: samples taken, and whether the median settled ({@link Sampling#untilSettled});
 *                 null for a case of fixed loops, or one that did not run
 */
@JsonDeserialize(using = Result.Reader.class)
public record Result(String key, String description, Status status, String why, Unit unit, Stats value, Better better,
                     String method, String anchor, Detail detail, Settling settling) {

    /** A result without adaptive loops: {@link Runner} adds their {@link Settling} after the case. */
    public Result(String key, String description, Status status, String why, Unit unit, Stats value, Better better, String method,
                  String anchor, Detail detail) {
        this(key, description, status, why, unit, value, better, method, anchor, detail, null);
    }

    public static Result ok(TestCase<?> t, Unit unit, Stats value, String method, Detail detail) {
        return ok(t, unit, value, method, t.anchor(), detail);
    }

    /** ... with a peer that depends on the target (the fio job for this file's size). */
    public static Result ok(TestCase<?> t, Unit unit, Stats value, String method, String anchor, Detail detail) {
        if (detail != null && t.detailType() != null && !t.detailType().isInstance(detail)) {
            throw new IllegalArgumentException(t.key() + ": a " + detail.getClass().getSimpleName() + " where its cases keep a " + t.detailType().getSimpleName());
        }
        return new Result(t.key(), t.description(), Status.OK, "", unit, value, t.better() != null ? t.better() : unit.usually, method, anchor, detail);
    }

    public static Result notRun(TestCase<?> t, String why) {
        return new Result(t.key(), t.description(), Status.NOT_RUN, why, null, null, null, "", null, null);
    }

    public static Result failed(TestCase<?> t, String why) {
        return failed(t, why, null);
    }

    /** A failure with what was learnt before it (the detail of the attempts). */
    public static Result failed(TestCase<?> t, String why, Detail detail) {
        return new Result(t.key(), t.description(), Status.FAILED, why, null, null, null, "", null, detail);
    }

    /** The same result with another detail (a drill that adds what it learnt around the case). */
    public Result withDetail(Detail d) {
        return new Result(key, description, status, why, unit, value, better, method, anchor, d, settling);
    }

    /** The same result with how its adaptive loops ended. */
    public Result withSettling(Settling s) {
        return new Result(key, description, status, why, unit, value, better, method, anchor, detail, s);
    }

    /** Whether it ran adaptive loops and one of them stopped before its median was known to the case's precision. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean unsettled() {
        return settling != null && !settling.settled();
    }

    @com.fasterxml.jackson.annotation.JsonIgnore // "status" says it; a getter's name is no property of the JSON
    public boolean isOk() {
        return status == Status.OK;
    }

    /** The typed figure of this result about {@code scope}; empty when nothing was measured. */
    public Optional<Figure> figure(Scope scope) {
        if (!isOk() || value == null) return Optional.empty();
        return Optional.of(new Figure(key, scope, value.median(), unit, better, value.min(), value.max(), value.samples(), method, anchor));
    }

    /** The figures of the results that ran, all about {@code scope}, in order. */
    public static List<Figure> figures(List<Result> results, Scope scope) {
        return results.stream().flatMap(r -> r.figure(scope).stream()).toList();
    }

    /** The median of the measured result with this key, if it is among {@code results} and ran. */
    public static Optional<Double> median(List<Result> results, String key) {
        return results.stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst().map(r -> r.value().median());
    }

    /**
     * Reads a result back with its detail as the record its case declares ({@link DetailTypes}).
     */
    static final class Reader extends StdDeserializer<Result> {
        Reader() {
            super(Result.class);
        }

        @Override
        public Result deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode n = p.readValueAsTree();
            String key = n.path("key").asText("");
            // each field read through Json.at, so that a failure names the field ("results[0].status"), not the result alone
            Status status = Json.at(n, "status", () -> Status.parse(n.path("status").asText("failed")));
            String unitText = n.path("unit").asText("");
            Unit unit = unitText.isEmpty() ? null : Json.at(n, "unit", () -> Unit.of(unitText));
            Stats value = n.path("value").isObject() ? Json.at(n, "value", () -> ctxt.readTreeAsValue(n.get("value"), Stats.class)) : null;
            Better better = n.path("better").isTextual() ? Json.at(n, "better", () -> Better.parse(n.get("better").asText())) : null;
            Detail detail = null;
            JsonNode d = n.path("detail");
            if (d.isObject() && !d.isEmpty()) {
                // a case this version does not know (a newer report's) keeps no detail: its figure still reads
                Class<? extends Detail> type = DetailTypes.of(key);
                if (type != null) detail = Json.at(n, "detail", () -> ctxt.readTreeAsValue(d, type));
            }
            // a report older than the adaptive loops has no settling
            Settling settling = n.path("settling").isObject() ? Json.at(n, "settling", () -> ctxt.readTreeAsValue(n.get("settling"), Settling.class)) : null;
            return new Result(key, n.path("description").asText(""), status, n.path("why").asText(""), unit, value, better,
                    n.path("method").asText(""), n.path("anchor").isTextual() ? n.get("anchor").asText() : null, detail, settling);
        }
    }
}
