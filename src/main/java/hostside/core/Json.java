package hostside.core;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The one JSON mapper: pretty, nulls kept (CONTRACT.md gives null a meaning), fields in record order,
 * and reading within {@link #LIMITS}: what it reads are reports that any machine of a fleet wrote.
 */
public final class Json {
    /**
     * What a JSON document read may hold. Jackson 2.23's defaults allow 1000 levels of nesting
     * (each a frame of every recursive reader of the tree), numbers of 1000 digits and strings of
     * 20 million characters; the H200's report is 15 levels deep, its longest number 20 characters
     * and its longest string (a kernel command line) 552. These leave four times the room and more.
     */
    public static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(64)
            .maxNumberLength(100)
            .maxStringLength(1 << 20)
            .maxNameLength(1024)
            .build();

    public static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS).build())
            .enable(SerializationFeature.INDENT_OUTPUT);

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
