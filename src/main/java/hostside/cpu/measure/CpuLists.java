package hostside.cpu.measure;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

import hostside.core.CpuSet;

/**
 * Reads a detail's CPUs as a {@link CpuSet} from either spelling: the cpulist string a CpuSet is
 * written as ("0-1"), or the array of CPU numbers that reports of schema hostside/1 hold
 * ([0, 1]), so that an old report still reads into the typed records.
 */
public final class CpuLists extends StdDeserializer<CpuSet> {
    public CpuLists() {
        super(CpuSet.class);
    }

    @Override
    public CpuSet deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonNode n = p.readValueAsTree();
        // the cpulist string reads as every CpuSet in JSON does, through its @JsonCreator (this
        // deserializer is on the detail's field, not on the type, so this does not come back here)
        if (n.isTextual()) return ctxt.readTreeAsValue(n, CpuSet.class);
        if (n.isArray()) {
            int[] cpus = new int[n.size()];
            for (int i = 0; i < cpus.length; i++) {
                if (!n.get(i).isIntegralNumber() || n.get(i).asInt() < 0) return mismatch(ctxt, n);
                cpus[i] = n.get(i).asInt();
            }
            return CpuSet.of(cpus);
        }
        return mismatch(ctxt, n);
    }

    private static CpuSet mismatch(DeserializationContext ctxt, JsonNode n) throws IOException {
        return ctxt.reportInputMismatch(CpuSet.class, "CPUs as a cpulist (\"0-3\") or an array of CPU numbers, not %s", n);
    }
}
