package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.*;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * nvmlGpuFabricInfo_v2_t/_v3_t.healthMask decoded: five fields packed in one unsigned int, each
 * read as nvml.h's NVML_GPU_FABRIC_HEALTH_GET does, {@code (mask >> SHIFT) & WIDTH}. The shifts,
 * widths and values are NvmlTypes' NVML_GPU_FABRIC_HEALTH_MASK_* (from nvml.h, checked by
 * NvmlLayoutsTest). A value the header does not define (3 in a two-bit field, 8 to 15 in the
 * configuration field) reads as {@code undefined}; the raw mask stays in {@link NvmlGpu.Fabric#healthMask}.
 *
 * <p>Why each matters on an NVLink rack: degraded bandwidth means fewer NVLinks carry the traffic;
 * route recovery and access-timeout recovery are the fabric repairing itself (jobs may stall
 * meanwhile); an unhealthy route loses peers; an incorrect configuration keeps the GPU out of its
 * NVLink partition, and says which check failed.
 *
 * @param degradedBandwidth      NVML_GPU_FABRIC_HEALTH_MASK_*_DEGRADED_BW: bandwidth degraded
 * @param routeRecovery          *_ROUTE_RECOVERY: route recovery in progress
 * @param routeUnhealthy         *_ROUTE_UNHEALTHY: the NVLink route is unhealthy
 * @param accessTimeoutRecovery  *_ACCESS_TIMEOUT_RECOVERY: access timeout recovery in progress
 * @param incorrectConfiguration *_INCORRECT_CONFIGURATION: which configuration check failed, or none
 */
public record FabricHealth(Flag degradedBandwidth, Flag routeRecovery, Flag routeUnhealthy, Flag accessTimeoutRecovery,
                           IncorrectConfiguration incorrectConfiguration) {

    /** The health mask's fields, decoded. */
    public static FabricHealth decode(int mask) {
        return new FabricHealth(
                Flag.of(field(mask, NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_DEGRADED_BW, NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_DEGRADED_BW)),
                Flag.of(field(mask, NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_RECOVERY, NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ROUTE_RECOVERY)),
                Flag.of(field(mask, NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_UNHEALTHY, NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ROUTE_UNHEALTHY)),
                Flag.of(field(mask, NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ACCESS_TIMEOUT_RECOVERY,
                        NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_ACCESS_TIMEOUT_RECOVERY)),
                IncorrectConfiguration.of(field(mask, NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_INCORRECT_CONFIGURATION,
                        NVML_GPU_FABRIC_HEALTH_MASK_WIDTH_INCORRECT_CONFIGURATION)));
    }

    /** NVML_GPU_FABRIC_HEALTH_GET: the mask is an unsigned int, so the shift is unsigned too. */
    static int field(int mask, int shift, int width) {
        return (mask >>> shift) & width;
    }

    /** Whether any field reports trouble (a yes, or a failed configuration check). */
    public boolean anyProblem() {
        return degradedBandwidth == Flag.YES || routeRecovery == Flag.YES || routeUnhealthy == Flag.YES
                || accessTimeoutRecovery == Flag.YES || incorrectConfiguration.isProblem();
    }

    /**
     * The four two-bit fields share their values in nvml.h: _NOT_SUPPORTED 0, _TRUE 1, _FALSE 2.
     * TRUE is the bad news for each ("bandwidth degraded", "recovery in progress", "route is unhealthy").
     */
    public enum Flag {
        NOT_SUPPORTED(NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_NOT_SUPPORTED, "not supported"),
        YES(NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_TRUE, "yes"),
        NO(NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW_FALSE, "no"),
        /** 3: a value this header does not define */
        UNDEFINED(-1, "undefined");

        /** the field's value in the mask (-1 for UNDEFINED, which stands for every value without a name) */
        public final int code;
        private final String word;

        Flag(int code, String word) {
            this.code = code;
            this.word = word;
        }

        static Flag of(int code) {
            for (Flag f : values()) if (f.code == code) return f;
            return UNDEFINED;
        }

        @JsonValue
        public String word() {
            return word;
        }

        @JsonCreator
        public static Flag parse(String word) {
            for (Flag f : values()) if (f.word.equals(word)) return f;
            throw new IllegalArgumentException("\"" + word + "\" is not a fabric health flag");
        }

        @Override
        public String toString() {
            return word;
        }
    }

    /** NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_*: which check kept the GPU out of its partition. */
    public enum IncorrectConfiguration {
        NOT_SUPPORTED(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NOT_SUPPORTED, "not supported"),
        /** the configuration is correct */
        NONE(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NONE, "none"),
        INCORRECT_SYSGUID(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCORRECT_SYSGUID, "incorrect sysguid"),
        INCORRECT_CHASSIS_SN(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCORRECT_CHASSIS_SN, "incorrect chassis serial number"),
        NO_PARTITION(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_NO_PARTITION, "no partition"),
        INSUFFICIENT_NVLINKS(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INSUFFICIENT_NVLINKS, "insufficient NVLinks"),
        INCOMPATIBLE_GPU_FW(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INCOMPATIBLE_GPU_FW, "incompatible GPU firmware"),
        INVALID_LOCATION(NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INVALID_LOCATION, "invalid location"),
        /** 8 to 15: values this header does not define */
        UNDEFINED(-1, "undefined");

        /** the field's value in the mask (-1 for UNDEFINED) */
        public final int code;
        private final String word;

        IncorrectConfiguration(int code, String word) {
            this.code = code;
            this.word = word;
        }

        static IncorrectConfiguration of(int code) {
            for (IncorrectConfiguration c : values()) if (c.code == code) return c;
            return UNDEFINED;
        }

        /** A failed check; not supported, none and undefined are not (undefined is said as such, not guessed at). */
        public boolean isProblem() {
            return this != NOT_SUPPORTED && this != NONE && this != UNDEFINED;
        }

        @JsonValue
        public String word() {
            return word;
        }

        @JsonCreator
        public static IncorrectConfiguration parse(String word) {
            for (IncorrectConfiguration c : values()) if (c.word.equals(word)) return c;
            throw new IllegalArgumentException("\"" + word + "\" is not a fabric configuration state");
        }

        @Override
        public String toString() {
            return word;
        }
    }
}
