package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlStructs.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import hostside.gpu.nvml.NvmlReader.Unknowns;

/**
 * A GPU's place in an NVLink rack, as NVML tells it: its fabric registration (state, cluster,
 * clique, health mask), its rack position (nvmlDeviceGetPlatformInfo, the chassis serial only
 * hashed) and its C2C link to a Grace (mode, then links through nvmlDeviceGetFieldValues).
 * {@link NvmlReader} calls it for each GPU.
 */
final class NvmlRackReader {
    private NvmlRackReader() {}

    /**
     * The fabric state through the newest struct the driver takes: nvmlGpuFabricInfo_v3_t, then
     * v2 (drivers that answer ARGUMENT_VERSION_MISMATCH to v3), then the unversioned call.
     * NOT_SUPPORTED from the call is nvml.h's way to say the GPU has no fabric: the same answer
     * as the state NVML_GPU_FABRIC_STATE_NOT_SUPPORTED, so it is reported as that state.
     */
    static NvmlResult<NvmlGpu.Fabric> fabric(Nvml nvml, MemorySegment dev, Unknowns u) {
        try (Arena arena = Arena.ofConfined()) {
            if (nvml.has(DEVICE_GET_GPU_FABRIC_INFO_V)) {
                // one buffer the size of v3 serves v2 too: v2 is v3 without its last field
                MemorySegment s = arena.allocate(nvmlGpuFabricInfo_v3_t);
                s.set(JAVA_INT, offset(nvmlGpuFabricInfo_v3_t, "version"), structVersion(nvmlGpuFabricInfo_v3_t, 3));
                int rc = nvml.call(DEVICE_GET_GPU_FABRIC_INFO_V, dev, s);
                if (rc != NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
                    return fabricResult(nvml, DEVICE_GET_GPU_FABRIC_INFO_V, rc, s, nvmlGpuFabricInfo_v3_t, u);
                }
                s.fill((byte) 0);
                s.set(JAVA_INT, offset(nvmlGpuFabricInfo_v2_t, "version"), structVersion(nvmlGpuFabricInfo_v2_t, 2));
                rc = nvml.call(DEVICE_GET_GPU_FABRIC_INFO_V, dev, s);
                if (rc != NVML_ERROR_ARGUMENT_VERSION_MISMATCH || !nvml.has(DEVICE_GET_GPU_FABRIC_INFO)) {
                    return fabricResult(nvml, DEVICE_GET_GPU_FABRIC_INFO_V, rc, s, nvmlGpuFabricInfo_v2_t, u);
                }
            }
            MemorySegment s = arena.allocate(nvmlGpuFabricInfo_t);
            int rc = nvml.call(DEVICE_GET_GPU_FABRIC_INFO, dev, s);
            return fabricResult(nvml, DEVICE_GET_GPU_FABRIC_INFO, rc, s, nvmlGpuFabricInfo_t, u);
        }
    }

    private static NvmlResult<NvmlGpu.Fabric> fabricResult(Nvml nvml, NvmlFunction f, int rc, MemorySegment s, StructLayout layout,
                                                           Unknowns u) {
        if (rc == NVML_ERROR_NOT_SUPPORTED) return NvmlResult.of(NvmlGpu.Fabric.NOT_SUPPORTED);
        return nvml.result(f, rc, () -> fabric(nvml, s, layout, u));
    }

    private static NvmlGpu.Fabric fabric(Nvml nvml, MemorySegment s, StructLayout layout, Unknowns u) {
        int stateByte = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(layout, "state")));
        NvmlGpu.Fabric.State state = NvmlGpu.Fabric.State.of(stateByte);
        if (state == NvmlGpu.Fabric.State.UNDEFINED) u.add("fabric.state", stateByte + " is newer than this nvml.h's NVML_GPU_FABRIC_STATE_*");
        NvmlGpu.Fabric.HealthSummary health = null;
        if (layout == nvmlGpuFabricInfo_v3_t) {
            int h = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(layout, "healthSummary")));
            health = NvmlGpu.Fabric.HealthSummary.of(h);
            if (health == NvmlGpu.Fabric.HealthSummary.UNDEFINED) {
                u.add("fabric.health", h + " is newer than this nvml.h's NVML_GPU_FABRIC_HEALTH_SUMMARY_*");
            }
        }
        // v2 added the mask; it describes the fabric whatever the registration's state
        Long mask = null;
        FabricHealth detail = null;
        if (layout != nvmlGpuFabricInfo_t) {
            int m = s.get(JAVA_INT, offset(layout, "healthMask"));
            mask = Integer.toUnsignedLong(m);
            detail = FabricHealth.decode(m);
        }
        // nvml.h: status, cluster and clique mean something only once the probe has completed
        if (state != NvmlGpu.Fabric.State.COMPLETED) return new NvmlGpu.Fabric(state, null, null, null, health, null, mask, detail);
        int status = s.get(JAVA_INT, offset(layout, "status"));
        String error = status == NVML_SUCCESS ? null : nvml.errorString(status) + " (" + status + ")";
        byte[] uuid = s.asSlice(offset(layout, "clusterUuid"), NVML_GPU_FABRIC_UUID_LEN).toArray(JAVA_BYTE);
        long clique = Integer.toUnsignedLong(s.get(JAVA_INT, offset(layout, "cliqueId")));
        return new NvmlGpu.Fabric(state, error, uuidText(uuid), clique, health, status, mask, detail);
    }

    /** Fixed and hostside's own, so a chassis hashes the same on every run and unlike any other tool's hash of it. */
    static final String CHASSIS_PREFIX = "hostside chassis serial\0";
    /** Hex digits kept, as many as hostside.machine.MachineIdentity keeps of a machine's hash: 64 bits. */
    static final int CHASSIS_HASH_DIGITS = 16;

    /**
     * Where the GPU sits in its rack: nvmlPlatformInfo_v2_t, then v1 for drivers that answer
     * ARGUMENT_VERSION_MISMATCH to v2 (the two are the same size; v1 names the fields after the
     * rack, v2 after the chassis). NOT_SUPPORTED (every GPU before Blackwell) is an answer, not a
     * failure: {@link NvmlGpu.Platform#NOT_SUPPORTED}.
     */
    static NvmlResult<NvmlGpu.Platform> platform(Nvml nvml, MemorySegment dev) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlPlatformInfo_v2_t);
            s.set(JAVA_INT, offset(nvmlPlatformInfo_v2_t, "version"), structVersion(nvmlPlatformInfo_v2_t, 2));
            StructLayout layout = nvmlPlatformInfo_v2_t;
            int rc = nvml.call(DEVICE_GET_PLATFORM_INFO, dev, s);
            if (rc == NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
                s.fill((byte) 0);
                s.set(JAVA_INT, offset(nvmlPlatformInfo_v1_t, "version"), structVersion(nvmlPlatformInfo_v1_t, 1));
                layout = nvmlPlatformInfo_v1_t;
                rc = nvml.call(DEVICE_GET_PLATFORM_INFO, dev, s);
            }
            if (rc == NVML_ERROR_NOT_SUPPORTED) return NvmlResult.of(NvmlGpu.Platform.NOT_SUPPORTED);
            boolean v2 = layout == nvmlPlatformInfo_v2_t;
            StructLayout l = layout;
            return nvml.result(DEVICE_GET_PLATFORM_INFO, rc, () -> new NvmlGpu.Platform(true, v2 ? 2 : 1,
                    chassisSerialHash(s.asSlice(offset(l, v2 ? "chassisSerialNumber" : "rackGuid"), 16).toArray(JAVA_BYTE)),
                    unsignedByte(s, l, v2 ? "slotNumber" : "chassisPhysicalSlotNumber"),
                    unsignedByte(s, l, v2 ? "trayIndex" : "computeSlotIndex"),
                    unsignedByte(s, l, v2 ? "hostId" : "nodeIndex"),
                    unsignedByte(s, l, "peerType"),
                    unsignedByte(s, l, "moduleId")));
        }
    }

    private static int unsignedByte(MemorySegment s, StructLayout layout, String field) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(layout, field)));
    }

    /**
     * A stable stand-in for the chassis serial: SHA-256 over {@link #CHASSIS_PREFIX} and the serial's
     * bytes up to the first NUL (nvml.h: 13 bytes on Blackwell, the rest zero), its first
     * {@link #CHASSIS_HASH_DIGITS} hex digits. The serial itself is never returned or kept. Null for
     * an empty serial, which names no chassis (two GPUs with none are not in the same one).
     */
    static String chassisSerialHash(byte[] serial) {
        int n = 0;
        while (n < serial.length && serial[n] != 0) n++;
        if (n == 0) return null;
        try {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            d.update(CHASSIS_PREFIX.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            d.update(serial, 0, n);
            return java.util.HexFormat.of().formatHex(d.digest()).substring(0, CHASSIS_HASH_DIGITS);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** More C2C links than any Grace part has (one on GH200); a count above it is not believed. */
    static final int C2C_LINK_GUARD = 64;

    /**
     * The C2C link: the mode, then, only when it is enabled, the link count and each link's status
     * and bandwidth through nvmlDeviceGetFieldValues (a GPU without C2C has nothing to count, and
     * NCCL and UCX ask in the same order). Each field NVML will not give is a line in {@code u}.
     */
    static NvmlResult<NvmlGpu.C2c> c2c(Nvml nvml, MemorySegment dev, Unknowns u) {
        NvmlResult<NvmlGpu.C2c.Mode> mode;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(nvmlC2cModeInfo_v1_t);
            int rc = nvml.call(DEVICE_GET_C2C_MODE_INFO_V, dev, s);
            mode = rc == NVML_ERROR_NOT_SUPPORTED ? NvmlResult.of(NvmlGpu.C2c.Mode.NOT_SUPPORTED)
                    : nvml.result(DEVICE_GET_C2C_MODE_INFO_V, rc, () -> s.get(JAVA_INT, offset(nvmlC2cModeInfo_v1_t, "isC2cEnabled")) != 0
                            ? NvmlGpu.C2c.Mode.ENABLED : NvmlGpu.C2c.Mode.DISABLED);
        }
        if (!(mode instanceof NvmlResult.Known<NvmlGpu.C2c.Mode>(NvmlGpu.C2c.Mode m)) || m != NvmlGpu.C2c.Mode.ENABLED) {
            return mode.map(x -> new NvmlGpu.C2c(x, null, null));
        }
        Long count = u.get("c2c.linkCount", () -> fieldValues(nvml, dev, new int[][] {{NVML_FI_DEV_C2C_LINK_COUNT, 0}}).getFirst());
        if (count == null) return NvmlResult.of(new NvmlGpu.C2c(m, null, null));
        if (count > C2C_LINK_GUARD) {
            u.add("c2c.linkCount", "NVML counts " + count + " C2C links, more than " + C2C_LINK_GUARD + ": not believed");
            return NvmlResult.of(new NvmlGpu.C2c(m, null, null));
        }
        List<NvmlGpu.C2cLink> links = new ArrayList<>();
        for (int link = 0; link < count; link++) {
            String at = "c2c.links[" + link + "]";
            List<NvmlResult<Long>> r;
            try {
                r = fieldValues(nvml, dev, new int[][] {{NVML_FI_DEV_C2C_LINK_GET_STATUS, link}, {NVML_FI_DEV_C2C_LINK_GET_MAX_BW, link}});
            } catch (NvmlException e) {
                u.add(at, e.getMessage());
                links.add(new NvmlGpu.C2cLink(link, null, null));
                continue;
            }
            Boolean active = u.get(at + ".active", () -> r.get(0).map(v -> v == 1));
            // nvml.h gives the bandwidth "for active links": an inactive link's answer is not asked after
            Long bw = Boolean.TRUE.equals(active) ? u.get(at + ".maxBandwidthMBps", () -> r.get(1)) : null;
            links.add(new NvmlGpu.C2cLink(link, active, bw));
        }
        return NvmlResult.of(new NvmlGpu.C2c(m, count.intValue(), links));
    }

    /**
     * nvmlDeviceGetFieldValues for {fieldId, scopeId} pairs, one result per pair: each entry has its
     * own nvmlReturn. The call's own failure is every entry's (a normal state), or thrown (any other).
     */
    static List<NvmlResult<Long>> fieldValues(Nvml nvml, MemorySegment dev, int[][] fields) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(nvmlFieldValue_t, fields.length);
            for (int i = 0; i < fields.length; i++) {
                MemorySegment v = values.asSlice(i * nvmlFieldValue_t.byteSize(), nvmlFieldValue_t);
                v.set(JAVA_INT, offset(nvmlFieldValue_t, "fieldId"), fields[i][0]);
                v.set(JAVA_INT, offset(nvmlFieldValue_t, "scopeId"), fields[i][1]);
            }
            int rc = nvml.call(DEVICE_GET_FIELD_VALUES, dev, fields.length, values);
            NvmlResult<Void> call = nvml.result(DEVICE_GET_FIELD_VALUES, rc, () -> null);
            List<NvmlResult<Long>> out = new ArrayList<>();
            for (int i = 0; i < fields.length; i++) {
                if (call instanceof NvmlResult.Unknown<Void> no) {
                    out.add(NvmlResult.unknown(no.code(), no.why()));
                    continue;
                }
                MemorySegment v = values.asSlice(i * nvmlFieldValue_t.byteSize(), nvmlFieldValue_t);
                out.add(fieldValue(nvml, v, fieldName(fields[i][0])));
            }
            return out;
        }
    }

    /** One answered nvmlFieldValue_t as a whole number; its own failure, or a type that is not one, is unknown. */
    private static NvmlResult<Long> fieldValue(Nvml nvml, MemorySegment v, String name) {
        int ret = v.get(JAVA_INT, offset(nvmlFieldValue_t, "nvmlReturn"));
        if (ret != NVML_SUCCESS) return NvmlResult.unknown(ret, name + ": " + nvml.failure(DEVICE_GET_FIELD_VALUES, ret).getMessage());
        long at = offset(nvmlFieldValue_t, "value");
        int type = v.get(JAVA_INT, offset(nvmlFieldValue_t, "valueType"));
        return switch (type) {
            // the union's members all start at its first byte (little-endian: the low half for uiVal)
            case NVML_VALUE_TYPE_UNSIGNED_INT -> NvmlResult.of(Integer.toUnsignedLong(v.get(JAVA_INT, at)));
            case NVML_VALUE_TYPE_UNSIGNED_LONG, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG, NVML_VALUE_TYPE_SIGNED_LONG_LONG ->
                    NvmlResult.of(v.get(JAVA_LONG, at));
            default -> NvmlResult.unknown(NVML_ERROR_UNKNOWN, name + ": nvmlDeviceGetFieldValues gave value type " + type
                    + (type == NVML_VALUE_TYPE_DOUBLE ? " (double)" : "") + ", not a whole number");
        };
    }

    /** nvml.h's name of a field id hostside asks for, for the unknowns. */
    static String fieldName(int id) {
        return switch (id) {
            case NVML_FI_DEV_C2C_LINK_COUNT -> "NVML_FI_DEV_C2C_LINK_COUNT";
            case NVML_FI_DEV_C2C_LINK_GET_STATUS -> "NVML_FI_DEV_C2C_LINK_GET_STATUS";
            case NVML_FI_DEV_C2C_LINK_GET_MAX_BW -> "NVML_FI_DEV_C2C_LINK_GET_MAX_BW";
            default -> "field " + id;
        };
    }

    /** 16 bytes as 8-4-4-4-12 hex. */
    static String uuidText(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b.length; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) sb.append('-');
            sb.append(String.format(Locale.ROOT, "%02x", b[i] & 0xff));
        }
        return sb.toString();
    }

}
