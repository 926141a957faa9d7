package hostside.io;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

import hostside.harness.Result;

/**
 * An I/O result as a report of schema hostside/1 wrote it, in today's shape, so that an old report
 * reads into the typed records (docs/contract.md, Reports: {@code report --from OLD.json} still renders). The one
 * place that knows the old shapes:
 * <ul>
 * <li>the fio job's options were the detail's {@code "fio"}: now the result's anchor, {@code "fio <options>"};
 * <li>a read's other unit was a number, {@code "iops"} or {@code "gbPerS"}: now derived from the figure
 *     and the block size, exactly, so it is dropped;
 * <li>{@code "latencyUs"} held p50, p99 and max only: now a Distribution, whose count is 0 (not kept)
 *     and whose p99.9 is the max, its upper bound;
 * <li>{@code "fsyncMs"} was the median alone: now Stats, of that one value.
 * </ul>
 * A result already in today's shape passes unchanged.
 */
final class Hostside1 {
    private Hostside1() {}

    /** {@code result}, upgraded in place. */
    static ObjectNode upgrade(ObjectNode result) {
        if (!(result.get("detail") instanceof ObjectNode d)) return result;
        if (d.path("fio").isTextual()) {
            if (!result.path("anchor").isTextual()) result.put("anchor", "fio " + d.get("fio").asText());
            d.remove("fio");
        }
        if (d.path("iops").isNumber()) d.remove("iops");
        if (d.path("gbPerS").isNumber()) d.remove("gbPerS");
        if (d.get("latencyUs") instanceof ObjectNode lat && !lat.has("unit")) {
            ObjectNode dist = d.objectNode();
            dist.put("unit", "us");
            dist.put("count", 0);
            dist.set("p50", lat.get("p50"));
            dist.set("p99", lat.get("p99"));
            dist.set("p999", lat.get("max"));
            dist.set("max", lat.get("max"));
            dist.putArray("histogram");
            d.set("latencyUs", dist);
        }
        if (d.path("fsyncMs").isNumber()) {
            JsonNode ms = d.get("fsyncMs");
            ObjectNode stats = d.objectNode();
            stats.set("median", ms);
            stats.set("min", ms);
            stats.set("max", ms);
            stats.put("samples", 1);
            d.set("fsyncMs", stats);
        }
        return result;
    }

    /** Reads each of an {@link IoRun}'s results through {@link #upgrade}, then as every result is read. */
    static final class ResultReader extends StdDeserializer<Result> {
        ResultReader() {
            super(Result.class);
        }

        @Override
        public Result deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode n = p.readValueAsTree();
            return ctxt.readTreeAsValue(n instanceof ObjectNode o ? upgrade(o) : n, Result.class);
        }
    }
}
