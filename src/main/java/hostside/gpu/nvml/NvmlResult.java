package hostside.gpu.nvml;

import java.util.function.Function;

/**
 * A value NVML gave, or "unknown" and why. Unknown is a normal state of a GPU machine (a
 * driver older than the function, a feature the GPU lacks, a query that needs root), so it
 * is a value to report, not an exception to catch.
 */
public sealed interface NvmlResult<T> {
    /** NVML answered. */
    record Known<T>(T value) implements NvmlResult<T> {}

    /**
     * NVML could not say. {@code code} is the nvmlReturn_t (NVML_ERROR_FUNCTION_NOT_FOUND as
     * well when the library does not export the function); {@code why} reads as a reason.
     */
    record Unknown<T>(int code, String why) implements NvmlResult<T> {}

    static <T> NvmlResult<T> of(T value) {
        return new Known<>(value);
    }

    static <T> NvmlResult<T> unknown(int code, String why) {
        return new Unknown<>(code, why);
    }

    default boolean isKnown() {
        return this instanceof Known;
    }

    /** The value, or null when unknown. */
    default T orNull() {
        return this instanceof Known<T> k ? k.value() : null;
    }

    /** The reason, or null when known. */
    default String why() {
        return this instanceof Unknown<T> u ? u.why() : null;
    }

    default <U> NvmlResult<U> map(Function<? super T, ? extends U> f) {
        return switch (this) {
            case Known<T> k -> new Known<>(f.apply(k.value()));
            case Unknown<T> u -> new Unknown<>(u.code(), u.why());
        };
    }
}
