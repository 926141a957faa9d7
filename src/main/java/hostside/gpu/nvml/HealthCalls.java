package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.NVML_SUCCESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The NVML calls of one GPU's health read, as health.md section 9 says to treat their codes:
 * each failure is one {@link Unread} for the field it cost, and the first GPU_IS_LOST or
 * RESET_REQUIRED ends the read of the GPU (every later call is not made and says nothing, the
 * one Unread with that code speaks for them). Codes that {@link Nvml#isNormalState} would throw
 * for are Unreads here too: a health read names what it could not read and goes on.
 */
final class HealthCalls {
    final Nvml nvml;
    final MemorySegment dev;
    private final List<Unread> unread = new ArrayList<>();
    private boolean stopped;

    HealthCalls(Nvml nvml, MemorySegment dev) {
        this.nvml = nvml;
        this.dev = dev;
    }

    boolean stopped() {
        return stopped;
    }

    List<Unread> unread() {
        return unread;
    }

    void record(Unread u) {
        unread.add(u);
        if (u.stopsTheGpu()) stopped = true;
    }

    /** NVML answered, with a value hostside cannot take (code 0, the value in {@code why}). */
    void unknownValue(String field, String why) {
        record(new Unread(field, NVML_SUCCESS, why));
    }

    /** f(args...) unless the read has stopped: true on NVML_SUCCESS, else false with the field's Unread. */
    boolean call(String field, NvmlFunction f, Object... args) {
        if (stopped) return false;
        return check(field, f, nvml.call(f, args));
    }

    /** A code already in hand: true on success, else the field's Unread. */
    boolean check(String field, NvmlFunction f, int rc) {
        if (rc == NVML_SUCCESS) return true;
        record(new Unread(field, rc, nvml.failure(f, rc).getMessage()));
        return false;
    }

    /** f(dev, leading..., unsigned int *out) or an int or enum out; null with an Unread on failure. */
    Integer int32(String field, NvmlFunction f, Object... leading) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            return call(field, f, args(leading, out)) ? out.get(JAVA_INT, 0) : null;
        }
    }

    /** f(dev, leading..., unsigned int *out) widened without sign, for counters. */
    Long uint32(String field, NvmlFunction f, Object... leading) {
        Integer v = int32(field, f, leading);
        return v == null ? null : Integer.toUnsignedLong(v);
    }

    /** f(dev, leading..., unsigned long long *out). */
    Long uint64(String field, NvmlFunction f, Object... leading) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            return call(field, f, args(leading, out)) ? out.get(JAVA_LONG, 0) : null;
        }
    }

    /** f(dev, unsigned int *a, unsigned int *b, ...): {@code count} outs; null with one Unread on failure. */
    int[] int32s(String field, NvmlFunction f, int count) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] outs = new MemorySegment[count];
            for (int i = 0; i < count; i++) outs[i] = arena.allocate(JAVA_INT);
            if (!call(field, f, args(outs))) return null;
            return Arrays.stream(outs).mapToInt(o -> o.get(JAVA_INT, 0)).toArray();
        }
    }

    /**
     * One of the binding's own readers (name, bus id, fabric), whose normal-state answers come back
     * Unknown and whose other codes are thrown: both become the field's Unread.
     */
    <T> T result(String field, Supplier<NvmlResult<T>> read) {
        if (stopped) return null;
        try {
            NvmlResult<T> r = read.get();
            if (r instanceof NvmlResult.Unknown<T>(int code, String why)) record(new Unread(field, code, why));
            return r.orNull();
        } catch (NvmlException e) {
            record(new Unread(field, e.code(), e.getMessage()));
            return null;
        }
    }

    /** dev first, then {@code rest}. */
    Object[] args(Object... rest) {
        Object[] a = new Object[rest.length + 1];
        a[0] = dev;
        System.arraycopy(rest, 0, a, 1, rest.length);
        return a;
    }

    private Object[] args(Object[] leading, MemorySegment out) {
        Object[] a = Arrays.copyOf(leading, leading.length + 1);
        a[leading.length] = out;
        return args(a);
    }
}
