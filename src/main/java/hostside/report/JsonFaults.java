package hostside.report;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import hostside.core.Json;

/**
 * What went wrong reading a report's JSON, in a report's words: where (the field's path as the
 * JSON names it: "modules[0].data.gpu.runs[0].results[0].status"), what was expected and what was
 * found, never Jackson's words (a Java type, a token's name, "[Source: REDACTED ...]"). A report
 * comes from another machine, and the line about it is read by whoever runs hostside there. Jackson
 * 2.23's messages are matched here alone, each to words; one it does not know reads as "not JSON"
 * or "a value this field cannot hold", never as itself.
 */
final class JsonFaults {
    private JsonFaults() {}

    /** The kinds of JSON value, as a message names them. */
    enum Kind {
        OBJECT("an object"), LIST("a list"), STRING("a string"), NUMBER("a number"), WHOLE("a whole number"), BOOLEAN("true or false"), NULL("null");

        final String words;

        Kind(String words) {
            this.words = words;
        }

        /** A whole number is a number: 5 found where a number is expected is no mismatch of kinds. */
        boolean takes(Kind found) {
            return this == found || this == NUMBER && found == WHOLE;
        }

        boolean numeric() {
            return this == NUMBER || this == WHOLE;
        }
    }

    /** Why a text is no JSON document a report can be, and where: "nested deeper than 64 levels (line 3, column 70)". */
    static String syntax(JsonProcessingException e) {
        String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        String why;
        if (e instanceof StreamConstraintsException) why = limit(m);
        else if (e instanceof JsonEOFException) why = "cut off before its JSON ends";
        else if (m.startsWith("Duplicate field ") && e.getProcessor() instanceof JsonParser p) why = duplicate(p);
        else why = SYNTAX.stream().filter(s -> m.startsWith(s[0])).map(s -> "not JSON: " + s[1]).findFirst().orElse("not JSON");
        var at = e.getLocation();
        return at == null || at.getLineNr() < 1 ? why : String.format(Locale.ROOT, "%s (line %d, column %d)", why, at.getLineNr(), at.getColumnNr());
    }

    /** Jackson 2.23's words for text that is not JSON, by how they begin, and ours; any other is "not JSON" alone. */
    private static final List<String[]> SYNTAX = List.of(
            new String[] {"Non-standard token", "NaN or Infinity, which JSON has no number for"},
            new String[] {"Illegal unquoted character", "a control character in a string, unescaped"},
            new String[] {"Unrecognized character escape", "a backslash escape JSON does not have"},
            new String[] {"Invalid UTF-8", "bytes that are not UTF-8"},
            new String[] {"Leading zeroes not allowed", "a number with leading zeros"},
            new String[] {"Invalid numeric value", "a malformed number"},
            new String[] {"Unexpected close marker", "a bracket closed that was never opened"});

    /** A document beyond {@link Json#LIMITS}: which limit, in its own figure. */
    private static String limit(String m) {
        var l = Json.LIMITS;
        if (m.startsWith("Document nesting depth")) return "nested deeper than " + l.getMaxNestingDepth() + " levels";
        if (m.startsWith("Number value length")) return "a number longer than " + l.getMaxNumberLength() + " characters";
        if (m.startsWith("String value length")) return "a string longer than " + l.getMaxStringLength() + " characters";
        if (m.startsWith("Name length")) return "a key longer than " + l.getMaxNameLength() + " characters";
        return "larger than any report";
    }

    /** The key a parser met twice in one object, and where: "the key "figures" twice in one object". */
    private static String duplicate(JsonParser p) {
        JsonStreamContext object = p.getParsingContext(); // the object the key was met twice in, its name the key
        if (object == null) return "a key twice in one object";
        String where = path(object);
        return "the key " + Quoted.quoted(String.valueOf(object.getCurrentName())) + " twice in one object" + (where.isEmpty() ? "" : " (in " + where + ")");
    }

    /** "figures[3]", a parser's place as a path ("" at the top). */
    private static String path(JsonStreamContext c) {
        StringBuilder b = new StringBuilder();
        for (; c != null && !c.inRoot(); c = c.getParent()) {
            JsonStreamContext up = c.getParent();
            if (up != null && up.inArray()) b.insert(0, "[" + up.getCurrentIndex() + "]");
            else if (up != null && up.inObject() && up.getCurrentName() != null) b.insert(0, (up.getParent() != null && !up.getParent().inRoot() ? "." : "") + up.getCurrentName());
        }
        return Quoted.visible(b.toString());
    }

    /**
     * Why {@code json} does not read as a report's records, and where: "modules: a list expected,
     * an object found", "figures[0].unit: "furlongs" is not a unit hostside writes".
     */
    static String binding(JsonMappingException e, JsonNode json) {
        String at = path(e.getPath());
        JsonNode found = node(json, e.getPath());
        String why = reason(e, found);
        return at.isEmpty() ? why : at + ": " + why;
    }

    private static String reason(JsonMappingException e, JsonNode found) {
        Throwable cause = e.getCause();
        // a record's constructor that met a null: the record at the path lacks a field it needs
        if (cause instanceof NullPointerException) return "a field it needs is missing or null";
        if (cause instanceof InputCoercionException c && found != null) return mismatch(Json.MAPPER.constructType(c.getTargetType()), found);
        // a value's own refusal, in hostside's words ("\"furlongs\" is not a unit hostside writes")
        if (cause instanceof RuntimeException && own(cause.getMessage())) return firstLine(cause.getMessage());
        if (e instanceof MismatchedInputException mi && mi.getTargetType() != null && found != null) {
            return mismatch(Json.MAPPER.constructType(mi.getTargetType()), found);
        }
        return "a value this field cannot hold" + (found == null ? "" : " (" + shown(found) + " found)");
    }

    /** "a list expected, an object found", or, where the kinds agree, the value itself: "a whole number from ... expected, 1e+30 found". */
    private static String mismatch(JavaType type, JsonNode found) {
        Kind want = expected(type), got = kind(found);
        String wanted = want.words + range(type.getRawClass());
        // a value of the kind expected, or a number where a whole one is (1e30 for a count), is shown as itself
        return wanted + " expected, " + (want.takes(got) || want.numeric() && got.numeric() ? shown(found) : found(found)) + " found";
    }

    /** The range of a whole number of a Java type, where it has one beyond JSON's. */
    private static String range(Class<?> c) {
        if (c == int.class || c == Integer.class) return " from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        if (c == long.class || c == Long.class) return " from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
        return "";
    }

    /** The kind of JSON value a field of {@code type} is written as. */
    static Kind expected(java.lang.reflect.Type type) {
        return expected(Json.MAPPER.constructType(type));
    }

    private static Kind expected(JavaType t) {
        Class<?> c = t.getRawClass();
        if (t.isMapLikeType()) return Kind.OBJECT;
        if (t.isContainerType()) return Kind.LIST; // a collection or an array
        if (c == boolean.class || c == Boolean.class) return Kind.BOOLEAN;
        if (c == int.class || c == long.class || c == Integer.class || c == Long.class) return Kind.WHOLE;
        if (c.isPrimitive() || Number.class.isAssignableFrom(c)) return Kind.NUMBER;
        if (CharSequence.class.isAssignableFrom(c) || c.isEnum() || writtenAsString(c)) return Kind.STRING;
        return Kind.OBJECT;
    }

    /** A class written as a string of its own (a scope, a CPU list): its @JsonValue gives a String, or its @JsonCreator takes one. */
    private static boolean writtenAsString(Class<?> c) {
        for (Method m : c.getDeclaredMethods()) {
            if (m.isAnnotationPresent(JsonValue.class)) return m.getReturnType() == String.class;
            if (m.isAnnotationPresent(JsonCreator.class) && m.getParameterCount() == 1 && m.getParameterTypes()[0] == String.class) return true;
        }
        return false;
    }

    /** The kind of {@code n}, a JSON value. */
    static Kind kind(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) return Kind.NULL;
        if (n.isObject()) return Kind.OBJECT;
        if (n.isArray()) return Kind.LIST;
        if (n.isTextual()) return Kind.STRING;
        if (n.isIntegralNumber()) return Kind.WHOLE;
        if (n.isNumber()) return Kind.NUMBER;
        if (n.isBoolean()) return Kind.BOOLEAN;
        return Kind.OBJECT; // no other kind comes out of a parse
    }

    /** What was found where another kind was expected: its kind ("a list"), or, for true and false, itself. */
    static String found(JsonNode n) {
        return kind(n) == Kind.BOOLEAN ? n.asText() : kind(n).words;
    }

    /** {@code n} as a message shows it: a number or a string itself (short), any other value by its kind. */
    static String shown(JsonNode n) {
        return switch (kind(n)) {
            case WHOLE, NUMBER -> Quoted.number(n.doubleValue());
            case STRING -> Quoted.quoted(n.asText());
            case BOOLEAN -> n.asText();
            default -> kind(n).words;
        };
    }

    /** "modules[0].data.gpu" from a failure's path ("" where it has none). */
    static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder b = new StringBuilder();
        for (var ref : refs) {
            if (ref.getFieldName() != null) b.append(b.isEmpty() ? "" : ".").append(ref.getFieldName());
            else if (ref.getIndex() >= 0) b.append('[').append(ref.getIndex()).append(']');
        }
        return Quoted.visible(b.toString());
    }

    /** The value at a failure's path in {@code json}, or null where the path leads nowhere in it. */
    private static JsonNode node(JsonNode json, List<JsonMappingException.Reference> refs) {
        JsonNode n = json;
        for (var ref : refs) {
            if (n == null) return null;
            n = ref.getFieldName() != null ? n.get(ref.getFieldName()) : ref.getIndex() >= 0 ? n.get(ref.getIndex()) : null;
        }
        return n;
    }

    /**
     * Whether a message is hostside's own words, safe to show as they are: none of the marks of a
     * Java or Jackson message (a class or package name, a backquoted API name, a parser's source).
     * A message that has one is shown as the words around it are, never as itself.
     */
    static boolean own(String m) {
        return m != null && !m.isBlank() && INTERNAL.stream().noneMatch(m::contains);
    }

    /** What marks a message as Java's or Jackson's. */
    static final List<String> INTERNAL = List.of("java.", "`", "Jackson", "jackson", "Token", "Source:", "hostside.");

    /** The first line of {@code m}, as a terminal may show it (a message quotes the report's own bytes). */
    static String firstLine(String m) {
        return m == null ? "no reason given" : Quoted.visible(m.lines().findFirst().orElse(""));
    }
}
