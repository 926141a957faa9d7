package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.DEVICE_GET_FIELD_VALUES;
import static hostside.gpu.nvml.NvmlStructs.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Every field id of one GPU's health read in ONE nvmlDeviceGetFieldValues call (health.md: 18 ids
 * took 10 ms on the H100, one call per id would cost that each). Fields are asked first and taken
 * after the call; a field's failure becomes its Unread only when it is taken, so a field asked as a
 * fallback (301/302 when nvmlDeviceGetRemappedRows_v2 answers) says nothing when it is not needed.
 * A GPU_IS_LOST or RESET_REQUIRED anywhere in the answer stops the GPU at once.
 */
final class FieldBatch {
    /** Any whole-number value type. */
    static final int ANY_WHOLE = -1;

    /** One field asked: its path in the JSON, nvml.h's id, the scope (a link for per-link fields) and the value type expected. */
    static final class Ask {
        final String field;
        final int id;
        final int scope;
        final int expectedType;
        private Long value;
        private Unread unread;

        private Ask(String field, int id, int scope, int expectedType) {
            this.field = field;
            this.id = id;
            this.scope = scope;
            this.expectedType = expectedType;
        }
    }

    private final HealthCalls calls;
    private final List<Ask> asks = new ArrayList<>();

    FieldBatch(HealthCalls calls) {
        this.calls = calls;
    }

    /**
     * Asks field {@code id}. {@code expectedType} is the nvmlValueType_t the id has in the 13.1+
     * header (ids 251 and up were renumbered between headers, health.md: a value of another type
     * is another field and is not read), or {@link #ANY_WHOLE}.
     */
    Ask ask(String field, int id, int scope, int expectedType) {
        Ask a = new Ask(field, id, scope, expectedType);
        asks.add(a);
        return a;
    }

    /** The one call. Nothing is asked of a GPU whose read has stopped, or when nothing was asked. */
    void read() {
        if (asks.isEmpty() || calls.stopped()) return;
        try (Arena arena = Arena.ofConfined()) {
            long size = nvmlFieldValue_t.byteSize();
            MemorySegment values = arena.allocate(nvmlFieldValue_t, asks.size());
            for (int i = 0; i < asks.size(); i++) {
                MemorySegment v = values.asSlice(i * size, nvmlFieldValue_t);
                v.set(JAVA_INT, offset(nvmlFieldValue_t, "fieldId"), asks.get(i).id);
                v.set(JAVA_INT, offset(nvmlFieldValue_t, "scopeId"), asks.get(i).scope);
            }
            int rc = calls.nvml.call(DEVICE_GET_FIELD_VALUES, calls.dev, asks.size(), values);
            if (rc != NVML_SUCCESS) {
                Unread whole = new Unread("fieldValues", rc, calls.nvml.failure(DEVICE_GET_FIELD_VALUES, rc).getMessage());
                if (whole.stopsTheGpu()) {
                    calls.record(whole);
                    return;
                }
                for (Ask a : asks) a.unread = new Unread(a.field, rc, whole.why());
                return;
            }
            for (int i = 0; i < asks.size(); i++) decode(asks.get(i), values.asSlice(i * size, nvmlFieldValue_t));
        }
        for (Ask a : asks) {
            if (a.unread != null && a.unread.stopsTheGpu()) {
                calls.record(a.unread);
                return;
            }
        }
    }

    private void decode(Ask a, MemorySegment v) {
        int ret = v.get(JAVA_INT, offset(nvmlFieldValue_t, "nvmlReturn"));
        String name = "nvmlDeviceGetFieldValues field " + a.id + (a.scope == 0 ? "" : " scope " + a.scope);
        if (ret != NVML_SUCCESS) {
            a.unread = new Unread(a.field, ret, name + ": " + calls.nvml.failure(DEVICE_GET_FIELD_VALUES, ret).reason());
            return;
        }
        int type = v.get(JAVA_INT, offset(nvmlFieldValue_t, "valueType"));
        long at = offset(nvmlFieldValue_t, "value");
        if (a.expectedType != ANY_WHOLE && type != a.expectedType) {
            a.unread = new Unread(a.field, NVML_SUCCESS, name + " came as value type " + type + ", not " + a.expectedType
                    + " as in the header hostside follows: another field under this id (renumbered between headers), not read");
            return;
        }
        // the union's members all start at its first byte (little-endian: the low half for the 32-bit ones)
        switch (type) {
            case NVML_VALUE_TYPE_UNSIGNED_INT -> a.value = Integer.toUnsignedLong(v.get(JAVA_INT, at));
            case NVML_VALUE_TYPE_SIGNED_INT -> a.value = (long) v.get(JAVA_INT, at);
            case NVML_VALUE_TYPE_UNSIGNED_LONG, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG, NVML_VALUE_TYPE_SIGNED_LONG_LONG ->
                    a.value = v.get(JAVA_LONG, at);
            default -> a.unread = new Unread(a.field, NVML_SUCCESS, name + " came as value type " + type + ", not a whole number");
        }
    }

    /** The field's value, or null with its Unread recorded (once). */
    Long take(Ask a) {
        if (a.unread != null && !a.unread.stopsTheGpu()) {
            calls.record(a.unread);
            a.unread = null;
        }
        return a.value;
    }

    /** As {@link #take} for a 32-bit value (temperatures, milliwatts). */
    Integer takeInt(Ask a) {
        Long v = take(a);
        if (v == null) return null;
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            calls.unknownValue(a.field, "nvmlDeviceGetFieldValues field " + a.id + " gave " + v + ", beyond a 32-bit value");
            return null;
        }
        return v.intValue();
    }
}
