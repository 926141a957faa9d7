package hostside.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The one JSON mapper: pretty, nulls kept (CONTRACT.md gives null a meaning), fields in record order. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {}

    /**
     * A drill's JSON document (CONTRACT.md): the schema and the kind, then the run's own fields,
     * then its flat list of typed figures. The run reads back from it, skipping the three it adds.
     */
    public static com.fasterxml.jackson.databind.node.ObjectNode document(String kind, Object run, java.util.List<Figure> figures) {
        var n = MAPPER.createObjectNode();
        n.put("schema", Schema.CURRENT);
        n.put("kind", kind);
        n.setAll((com.fasterxml.jackson.databind.node.ObjectNode) MAPPER.valueToTree(run));
        n.set("figures", MAPPER.valueToTree(figures));
        return n;
    }

    public static String write(Object o) {
        try {
            return MAPPER.writeValueAsString(o) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }
}
