package hostside.core;

import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The one JSON mapper: pretty, nulls kept (CONTRACT.md gives null a meaning), fields in record
 * order, and every character {@link Printable} hides written as a JSON &#92;u escape, so that --json on a
 * terminal (or a report's .json read with cat) shows a planted escape sequence instead of running
 * it, while the string reads back exactly as it was.
 */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static {
        MAPPER.getFactory().setCharacterEscapes(new Escapes());
    }

    private Json() {}

    /** JSON's own escapes (C0, quote, backslash, which Jackson writes already) and DEL, C1, the bidi controls and U+2028/U+2029. */
    private static final class Escapes extends CharacterEscapes {
        private final int[] ascii = standardAsciiEscapesForJSON();

        Escapes() {
            ascii[0x7f] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int c) {
            return Printable.hidden(c) ? new SerializedString(String.format(Locale.ROOT, "\\u%04X", c)) : null;
        }
    }

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
