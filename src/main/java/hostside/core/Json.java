package hostside.core;

import java.io.IOException;
import java.util.Locale;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The one JSON mapper: pretty, nulls kept (docs/contract.md gives null a meaning), fields in record order,
 * reading within {@link #LIMITS} (what it reads are reports that any machine of a fleet wrote), an
 * object with a key twice refused (JSON leaves it to the reader, and Jackson's default keeps the
 * last: a report with two "figures" would mean what one reader or another made of it), and
 * every character {@link Printable} hides written as a JSON &#92;u escape, so that --json on a
 * terminal (or a report's .json read with cat) shows a planted escape sequence instead of running
 * it, while the string reads back exactly as it was.
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

    public static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
            .enable(SerializationFeature.INDENT_OUTPUT);

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
     * A drill's JSON document (docs/schema): the schema and the kind, then the run's own fields,
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

    /** What a hand-written reader reads in one field ({@link #at}). */
    @FunctionalInterface
    public interface FieldRead<T> {
        T read() throws IOException;
    }

    /**
     * What {@code read} reads in the field {@code field} of {@code from} (a JSON object): a
     * failure carries the field in its path, as it does where Jackson reads a record's field
     * itself. A reader that reads a tree by hand otherwise drops it, and a report's "cannot read"
     * line names the wrong place ("results[0]" for "results[0].status"). A value's own refusal (an
     * IllegalArgumentException: "\"bogus\" is not ok, not run or failed") is such a failure.
     */
    public static <T> T at(Object from, String field, FieldRead<T> read) throws IOException {
        try {
            return read.read();
        } catch (JacksonException | IllegalArgumentException e) {
            throw JsonMappingException.wrapWithPath(e, from, field);
        }
    }

    public static String write(Object o) {
        try {
            return MAPPER.writeValueAsString(o) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }
}
