package hostside.schema;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializer;
import com.fasterxml.jackson.databind.ser.PropertyWriter;

import hostside.core.Json;

/**
 * The JSON Schema (draft 2020-12) of Java types as {@link Json#MAPPER} writes them and reads them
 * back: each record or enum once, under {@code $defs}, by its name below {@code hostside.}
 * ("machine.Topology.NumaNode"), so that a schema reads as the code is laid out.
 *
 * <p>What is written is asked of Jackson itself rather than read off the annotations again: a
 * record's properties are its serializer's (names after @JsonProperty, @JsonIgnore and
 * @JsonIgnoreProperties, getters such as a report's "findings" included, in the order they are
 * written); a class with a @JsonValue is what that accessor returns (an enum's values, each
 * serialized; a CPU list or a scope a string); a sealed interface with @JsonSubTypes any of its
 * subtypes. What is read is the readers' part: a record bound by Jackson refuses a key it does not
 * know (FAIL_ON_UNKNOWN_PROPERTIES is on in the mapper), so its object has
 * {@code additionalProperties: false}, with its @JsonAlias names and the keys its
 * @JsonIgnoreProperties passes over allowed beside its own; a class read by a hand-written
 * deserializer passes over keys it does not know, so its object allows more. A field is required
 * only where the readers need it ({@link #required}, ReportChecks' table); any other field of a
 * reference type may be null or absent, as the drills write null for "not read", and a list holds
 * no null but of numbers (a peer matrix's "not measured").
 *
 * <p>A type this cannot describe (a raw Object, a custom serializer of a class) fails the
 * generation, naming it, rather than being written as "anything": the shapes the code assembles
 * by hand are given to {@link #shape}.
 */
final class RecordSchemas {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Map<Class<?>, Set<String>> required;
    private final Map<String, ObjectNode> defs = new TreeMap<>();
    private final Map<Class<?>, String> names = new LinkedHashMap<>();
    private final Map<Class<?>, Function<RecordSchemas, ObjectNode>> shapes = new LinkedHashMap<>();
    private final Map<Class<?>, BiConsumer<RecordSchemas, ObjectNode>> refinements = new LinkedHashMap<>();
    private final Map<String, Function<RecordSchemas, ObjectNode>> properties = new LinkedHashMap<>();

    /** @param required the JSON names each record's readers need, by record (the names are its components') */
    RecordSchemas(Map<Class<?>, Set<String>> required) {
        this.required = required;
    }

    /** {@code type}'s schema is what {@code shape} makes, not derived: a shape the code assembles by hand (a drill's document). */
    void shape(Class<?> type, Function<RecordSchemas, ObjectNode> shape) {
        shapes.put(type, shape);
    }

    /** After {@code type}'s object is derived, {@code refine} changes it: what a hand-written reader reads by another field's value. */
    void refine(Class<?> type, BiConsumer<RecordSchemas, ObjectNode> refine) {
        refinements.put(type, refine);
    }

    /**
     * The property {@code name} of {@code type} is what {@code schema} makes: one written by a
     * serializer of its own, or declared as a type that says nothing (an interface, Object).
     */
    void property(Class<?> type, String name, Function<RecordSchemas, ObjectNode> schema) {
        properties.put(type.getName() + "#" + name, schema);
    }

    /** Every definition made so far, by name. */
    Map<String, ObjectNode> defs() {
        return defs;
    }

    /** A reference to the definition of {@code type}, made (with what it refers to) on first use. */
    ObjectNode ref(Class<?> type) {
        String name = names.get(type);
        if (name == null) {
            name = defName(type);
            names.put(type, name);
            defs.put(name, NODES.objectNode()); // taken before it is made: a type may refer to itself
            defs.put(name, define(type));
        }
        return NODES.objectNode().put("$ref", "#/$defs/" + name);
    }

    /** The schema of a value declared as {@code type}: scalars inline, records and enums by reference. */
    ObjectNode of(Type type) {
        return of(Json.MAPPER.constructType(type));
    }

    ObjectNode of(JavaType t) {
        Class<?> c = t.getRawClass();
        if (t.isArrayType() || t.isCollectionLikeType()) {
            ObjectNode a = NODES.objectNode().put("type", "array");
            JavaType item = t.getContentType();
            a.set("items", Number.class.isAssignableFrom(item.getRawClass()) ? nullable(of(item)) : of(item));
            return a;
        }
        if (t.isMapLikeType()) {
            ObjectNode m = NODES.objectNode().put("type", "object");
            Class<?> key = t.getKeyType().getRawClass();
            if (isInteger(key)) m.set("propertyNames", NODES.objectNode().put("pattern", "^-?[0-9]+$")); // an integer key, written as its digits
            else if (key.isEnum()) m.set("propertyNames", enumKeys(key));
            else if (key != String.class) throw new IllegalStateException("a map keyed by " + key.getName() + " has no schema here");
            JavaType value = t.getContentType();
            m.set("additionalProperties", Number.class.isAssignableFrom(value.getRawClass()) ? nullable(of(value)) : of(value));
            return m;
        }
        if (isInteger(c)) return type("integer");
        if (c == double.class || c == float.class || c == Double.class || c == Float.class || c == BigDecimal.class) return type("number");
        if (c == boolean.class || c == Boolean.class) return type("boolean");
        if (c == String.class || c == char.class || c == Character.class) return type("string");
        if (JsonNode.class.isAssignableFrom(c)) return NODES.objectNode(); // a tree kept as read: any JSON
        if (c == Object.class || c.isPrimitive()) throw new IllegalStateException("no schema for a value declared as " + c.getName());
        return ref(c);
    }

    private static boolean isInteger(Class<?> c) {
        return c == int.class || c == long.class || c == short.class || c == byte.class || c == Integer.class || c == Long.class
                || c == Short.class || c == Byte.class || c == BigInteger.class;
    }

    static ObjectNode type(String type) {
        return NODES.objectNode().put("type", type);
    }

    /** {@code schema} or null. */
    static ObjectNode nullable(ObjectNode schema) {
        if (schema.isEmpty()) return schema; // anything already
        if (schema.size() == 1 && schema.path("type").isTextual()) {
            return NODES.objectNode().set("type", NODES.arrayNode().add(schema.get("type").asText()).add("null"));
        }
        ObjectNode n = NODES.objectNode();
        n.putArray("anyOf").add(schema).add(type("null"));
        return n;
    }

    private ObjectNode define(Class<?> type) {
        Function<RecordSchemas, ObjectNode> shape = shapes.get(type);
        if (shape != null) return shape.apply(this);
        if (type.isEnum()) return enumeration(type);
        JsonSubTypes sub = type.getAnnotation(JsonSubTypes.class);
        if (sub != null) {
            ObjectNode n = NODES.objectNode();
            ArrayNode any = n.putArray("anyOf");
            for (JsonSubTypes.Type s : sub.value()) any.add(ref(s.value()));
            return n;
        }
        AnnotatedMember value = Json.MAPPER.getSerializationConfig().introspect(Json.MAPPER.constructType(type)).findJsonValueAccessor();
        if (value != null) return written(type, of(value.getType()));
        return object(type);
    }

    /** {@code type}'s object as derived from its serializer and refined, inline: what a hand-made shape builds on. */
    ObjectNode object(Class<?> type) {
        JsonSerializer<Object> ser;
        try {
            ser = Json.MAPPER.getSerializerProviderInstance().findValueSerializer(type);
        } catch (JsonMappingException e) {
            throw new IllegalStateException("no serializer for " + type.getName(), e);
        }
        if (!(ser instanceof BeanSerializer bean)) throw new IllegalStateException(type.getName() + " is written by " + ser.getClass().getName() + ": give its shape");
        ObjectNode n = object(type, bean);
        BiConsumer<RecordSchemas, ObjectNode> refine = refinements.get(type);
        if (refine != null) refine.accept(this, n);
        return n;
    }

    /**
     * A class written as one value (its @JsonValue): as a string only where a @JsonCreator reads one
     * back, or the schema would promise a document its reader refuses.
     */
    private ObjectNode written(Class<?> type, ObjectNode as) {
        Method creator = stringCreator(type);
        if (as.path("type").asText().equals("string") && creator == null) {
            throw new IllegalStateException(type.getName() + " is written as a string but has no creator that reads one back");
        }
        return as;
    }

    /** An enum's constants as the mapper writes them as keys of a map (which need not be as it writes them as values). */
    private static ObjectNode enumKeys(Class<?> type) {
        ObjectNode n = NODES.objectNode();
        ArrayNode values = n.putArray("enum");
        for (Object constant : type.getEnumConstants()) {
            values.add(((ObjectNode) Json.MAPPER.valueToTree(Collections.singletonMap(constant, 0))).fieldNames().next());
        }
        return n;
    }

    /** An enum: its constants as the mapper writes them. */
    private static ObjectNode enumeration(Class<?> type) {
        ObjectNode n = NODES.objectNode();
        ArrayNode values = n.putArray("enum");
        for (Object constant : type.getEnumConstants()) values.add(Json.MAPPER.valueToTree(constant));
        return n;
    }

    /**
     * A record (or any bean) as its serializer writes it, and as its reader reads it: the keys it
     * writes, the aliases and ignored keys it reads beside them, required what its readers need.
     */
    private ObjectNode object(Class<?> type, BeanSerializer bean) {
        ObjectNode n = NODES.objectNode().put("type", "object");
        ObjectNode props = NODES.objectNode();
        Set<String> need = required.getOrDefault(type, Set.of());
        List<String> req = new ArrayList<>();
        for (Iterator<PropertyWriter> it = bean.properties(); it.hasNext(); ) {
            BeanPropertyWriter w = (BeanPropertyWriter) it.next();
            Function<RecordSchemas, ObjectNode> given = properties.get(type.getName() + "#" + w.getName());
            if (given == null && ownSerializer(w)) throw new IllegalStateException(type.getName() + "." + w.getName() + " has a serializer of its own: give its schema");
            ObjectNode p = given != null ? given.apply(this) : of(w.getType());
            boolean needed = need.contains(componentName(type, w));
            if (needed) req.add(w.getName());
            else if (!w.getType().isPrimitive()) p = nullable(p);
            props.set(w.getName(), p);
            JsonAlias alias = w.getAnnotation(JsonAlias.class);
            if (alias != null) for (String a : alias.value()) props.set(a, p.deepCopy());
        }
        // what the reader takes beside what is written: a creator's parameter kept for an older layout (a sweep's "points")
        for (BeanPropertyDefinition d : Json.MAPPER.getDeserializationConfig().introspect(Json.MAPPER.constructType(type)).findProperties()) {
            if (!props.has(d.getName()) && d.hasConstructorParameter()) props.set(d.getName(), nullable(of(d.getPrimaryType())));
        }
        JsonIgnoreProperties ignored = type.getAnnotation(JsonIgnoreProperties.class);
        if (ignored != null) {
            for (String name : ignored.value()) if (!props.has(name)) props.set(name, NODES.objectNode()); // read past, whatever it holds
        }
        for (String name : need) {
            if (!req.contains(jsonName(type, name))) throw new IllegalStateException(type.getName() + "." + name + " is required but not written");
        }
        n.set("properties", props);
        if (!req.isEmpty()) {
            ArrayNode r = n.putArray("required");
            req.forEach(r::add);
        }
        // a string a DELEGATING creator reads: a line of an older report where the record is now
        if (stringCreator(type) != null) {
            ObjectNode either = NODES.objectNode();
            either.putArray("anyOf").add(n.put("additionalProperties", handRead(type))).add(type("string"));
            return either;
        }
        n.put("additionalProperties", handRead(type));
        return n;
    }

    /** Whether the property is written by a serializer it names (@JsonSerialize(using)), not the one of its type. */
    private static boolean ownSerializer(BeanPropertyWriter w) {
        JsonSerialize s = w.getAnnotation(JsonSerialize.class);
        return s != null && s.using() != JsonSerializer.None.class;
    }

    /** Whether {@code type} is read by a deserializer of its own, which passes over keys it does not know. */
    static boolean handRead(Class<?> type) {
        JsonDeserialize d = type.getAnnotation(JsonDeserialize.class);
        return d != null && d.using() != JsonDeserializer.None.class;
    }

    /** The record component a property writes, by its accessor (a getter that is no component keeps its JSON name). */
    private static String componentName(Class<?> type, BeanPropertyWriter w) {
        AnnotatedMember m = w.getMember();
        if (type.isRecord() && m.getMember() instanceof Method method) {
            for (var c : type.getRecordComponents()) if (c.getAccessor().equals(method)) return c.getName();
        }
        return w.getName();
    }

    private static String jsonName(Class<?> type, String component) {
        for (var c : type.getRecordComponents()) {
            if (!c.getName().equals(component)) continue;
            var p = c.getAccessor().getAnnotation(JsonProperty.class);
            return p != null && !p.value().isEmpty() ? p.value() : component;
        }
        throw new IllegalStateException(type.getName() + " has no component " + component);
    }

    /** The static factory or constructor marked @JsonCreator that takes one String, if any. */
    private static Method stringCreator(Class<?> type) {
        for (Method m : type.getDeclaredMethods()) {
            JsonCreator c = m.getAnnotation(JsonCreator.class);
            if (c == null || !Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 1 || m.getParameterTypes()[0] != String.class) continue;
            if (c.mode() == JsonCreator.Mode.PROPERTIES) continue;
            return m;
        }
        return null;
    }

    /** The name of {@code type}'s definition: its binary name below hostside., nested classes joined by dots. */
    static String defName(Class<?> type) {
        String n = type.getName();
        if (n.startsWith("hostside.")) n = n.substring("hostside.".length());
        return n.replace('$', '.');
    }
}
