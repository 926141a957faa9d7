package hostside.gpu.nvml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The Java side of the binding against what gcc says about the real nvml.h, recorded in
 * src/test/resources/nvml/layouts.txt by src/test/c/nvml_layouts.c (the command is in that
 * file). A wrong size, offset, constant or descriptor here would not throw on a GPU machine:
 * NVML would write past a buffer or read garbage, and the JVM would die or lie.
 */
class NvmlLayoutsTest {
    static final Path LAYOUTS = Path.of("src/test/resources/nvml/layouts.txt");
    static final Path GENERATOR = Path.of("src/test/c/nvml_layouts.c");
    /** Where the H200 machine's header was copied; CI has none, so the regeneration check skips there. */
    static final Path HEADER_DIR = Path.of(System.getProperty("hostside.nvml.include", "/tmp/cudah"));

    /** C scalar types as the descriptors must pass them on LP64 Linux. */
    static final Map<String, MemoryLayout> C_TYPES = Map.ofEntries(
            Map.entry("nvmlReturn_t", JAVA_INT),
            Map.entry("nvmlEnableState_t", JAVA_INT),
            Map.entry("nvmlClockType_t", JAVA_INT),
            Map.entry("nvmlPcieUtilCounter_t", JAVA_INT),
            Map.entry("nvmlIntNvLinkDeviceType_t", JAVA_INT),
            Map.entry("nvmlGpuP2PCapsIndex_t", JAVA_INT),
            Map.entry("nvmlGpuP2PStatus_t", JAVA_INT),
            Map.entry("nvmlMemoryErrorType_t", JAVA_INT),
            Map.entry("nvmlEccCounterType_t", JAVA_INT),
            Map.entry("nvmlMemoryLocation_t", JAVA_INT),
            Map.entry("nvmlPageRetirementCause_t", JAVA_INT),
            Map.entry("nvmlTemperatureSensors_t", JAVA_INT),
            Map.entry("nvmlTemperatureThresholds_t", JAVA_INT),
            Map.entry("nvmlNvLinkErrorCounter_t", JAVA_INT),
            Map.entry("unsigned int", JAVA_INT),
            Map.entry("int", JAVA_INT),
            Map.entry("unsigned long", JAVA_LONG),
            Map.entry("unsigned long long", JAVA_LONG),
            Map.entry("nvmlDevice_t", ADDRESS));

    /** typedefs that name the same struct as one of NvmlStructs' layouts */
    static final Map<String, String> STRUCT_ALIASES = Map.of(
            "nvmlGpuFabricInfoV_t", "nvmlGpuFabricInfo_v3_t",
            "nvmlDeviceAddressingMode_t", "nvmlDeviceAddressingMode_v1_t",
            "nvmlProcessInfo_t", "nvmlProcessInfo_v2_t",
            "nvmlPlatformInfo_t", "nvmlPlatformInfo_v2_t",
            "nvmlEccSramErrorStatus_t", "nvmlEccSramErrorStatus_v1_t",
            "nvmlRepairStatus_t", "nvmlRepairStatus_v1_t",
            "nvmlTemperature_t", "nvmlTemperature_v1_t",
            "nvmlMarginTemperature_t", "nvmlMarginTemperature_v1_t");

    record Line(String kind, List<String> words) {}

    static List<Line> lines() throws IOException {
        List<Line> out = new ArrayList<>();
        for (String l : Files.readAllLines(LAYOUTS)) {
            if (l.isBlank() || l.startsWith("#")) continue;
            int sp = l.indexOf(' ');
            String kind = l.substring(0, sp), rest = l.substring(sp + 1);
            out.add(switch (kind) {
                // "sizeof unsigned long long 8": the type may have spaces, the number is last
                case "sizeof" -> new Line(kind, List.of(rest.substring(0, rest.lastIndexOf(' ')), rest.substring(rest.lastIndexOf(' ') + 1)));
                case "function" -> new Line(kind, List.of(rest.substring(0, rest.indexOf(' ')), rest.substring(rest.indexOf(' ') + 1)));
                default -> new Line(kind, List.of(rest.split(" ")));
            });
        }
        assertThat(out).as(LAYOUTS + " is empty").isNotEmpty();
        return out;
    }

    static Optional<StructLayout> struct(String cName) {
        String name = STRUCT_ALIASES.getOrDefault(cName, cName);
        return NvmlStructs.STRUCTS.stream().filter(s -> s.name().orElseThrow().equals(name)).findFirst();
    }

    @Test
    void structSizesAndOffsetsAreGccs() throws IOException {
        int checked = 0;
        for (Line l : lines()) {
            if (l.kind().equals("sizeof")) {
                String type = l.words().get(0);
                long size = Long.parseLong(l.words().get(1));
                if (C_TYPES.containsKey(type)) {
                    assertThat(C_TYPES.get(type).byteSize()).as("sizeof(%s)", type).isEqualTo(size);
                } else {
                    StructLayout s = struct(type).orElseThrow(() -> new AssertionError("no layout for " + type));
                    assertThat(s.byteSize()).as("sizeof(%s)", type).isEqualTo(size);
                }
                checked++;
            } else if (l.kind().equals("offsetof")) {
                String type = l.words().get(0), field = l.words().get(1);
                StructLayout s = struct(type).orElseThrow(() -> new AssertionError("no layout for " + type));
                assertThat(NvmlStructs.offset(s, field)).as("offsetof(%s, %s)", type, field)
                        .isEqualTo(Long.parseLong(l.words().get(2)));
                checked++;
            }
        }
        // every Java struct is checked, and every named member of it
        for (StructLayout s : NvmlStructs.STRUCTS) {
            String name = s.name().orElseThrow();
            List<String> members = s.memberLayouts().stream().flatMap(m -> m.name().stream()).toList();
            List<Line> all = lines();
            assertThat(all).as("sizeof %s in %s", name, LAYOUTS)
                    .anyMatch(l -> l.kind().equals("sizeof") && l.words().get(0).equals(name));
            for (String m : members) {
                assertThat(all).as("offsetof %s %s in %s", name, m, LAYOUTS)
                        .anyMatch(l -> l.kind().equals("offsetof") && l.words().get(0).equals(name) && l.words().get(1).equals(m));
            }
        }
        assertThat(checked).isGreaterThan(40);
    }

    @Test
    void constantsAreTheHeadersAndVersionWordsComeFromTheLayouts() throws Exception {
        Map<String, Long> javaConstants = new LinkedHashMap<>();
        for (Field f : NvmlTypes.class.getFields()) {
            if (f.getType() == int.class) javaConstants.put(f.getName(), (long) f.getInt(null));
            if (f.getType() == long.class) javaConstants.put(f.getName(), f.getLong(null));
        }
        int checked = 0;
        for (Line l : lines()) {
            if (!l.kind().equals("value")) continue;
            String name = l.words().get(0);
            long value = Long.parseLong(l.words().get(1));
            if (name.matches("nvml\\w+_v\\d+")) {
                // a version word: nvmlGpuFabricInfo_v3 is NVML_STRUCT_VERSION(GpuFabricInfo, 3)
                int version = Integer.parseInt(name.substring(name.lastIndexOf("_v") + 2));
                StructLayout s = struct(name + "_t").orElseThrow(() -> new AssertionError("no layout for " + name + "_t"));
                assertThat((long) NvmlStructs.structVersion(s, version)).as(name).isEqualTo(value);
            } else {
                assertThat(javaConstants).as("NvmlTypes." + name).containsKey(name);
                assertThat(javaConstants.get(name)).as(name).isEqualTo(value);
            }
            checked++;
        }
        // and no Java constant that gcc has not confirmed
        List<String> confirmed = lines().stream().filter(l -> l.kind().equals("value")).map(l -> l.words().get(0)).toList();
        assertThat(confirmed).containsAll(javaConstants.keySet());
        assertThat(checked).isGreaterThan(50);
    }

    @Test
    void everyDescriptorIsTheHeadersPrototype() throws IOException {
        Map<String, String> prototypes = new LinkedHashMap<>();
        for (Line l : lines()) if (l.kind().equals("function")) prototypes.put(l.words().get(0), l.words().get(1));

        for (NvmlFunction f : NvmlFunction.values()) {
            String proto = prototypes.get(f.symbol());
            assertThat(proto).as("%s (%s) is not among gcc's checked prototypes in %s", f, f.symbol(), LAYOUTS).isNotNull();
            assertThat(f.descriptor()).as("%s: %s", f.symbol(), proto).isEqualTo(descriptorOf(proto));
        }
        assertThat(prototypes.keySet()).as("prototypes without a NvmlFunction")
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(NvmlFunction.values()).map(NvmlFunction::symbol).toList());
    }

    /** "nvmlReturn_t(nvmlDevice_t, unsigned int, unsigned long *)" as a FunctionDescriptor. */
    static FunctionDescriptor descriptorOf(String prototype) {
        int open = prototype.indexOf('(');
        MemoryLayout ret = layoutOf(prototype.substring(0, open));
        String params = prototype.substring(open + 1, prototype.lastIndexOf(')')).strip();
        List<MemoryLayout> args = params.equals("void") ? List.of()
                : Arrays.stream(params.split(",")).map(NvmlLayoutsTest::layoutOf).toList();
        return FunctionDescriptor.of(ret, args.toArray(MemoryLayout[]::new));
    }

    static MemoryLayout layoutOf(String cType) {
        String t = cType.strip();
        if (t.endsWith("*")) return ADDRESS;
        MemoryLayout l = C_TYPES.get(t);
        if (l == null) fail("no Java layout for C type \"" + t + "\": add it to C_TYPES if it is a scalar");
        return l;
    }

    @Test
    void theRecordedLayoutsAreWhatTheHeaderGivesToday() throws Exception {
        Path header = HEADER_DIR.resolve("nvml.h");
        assumeTrue(Files.isRegularFile(header), "assuming " + LAYOUTS + " is current: no nvml.h at " + header
                + " (it is copied from the GPU machine; CI has none), so it cannot be regenerated here");
        Path exe = Files.createTempFile("nvml_layouts", "");
        try {
            List<String> cmd = List.of("gcc", "-std=c11", "-Wall", "-Werror", "-I" + HEADER_DIR, "-o", exe.toString(), GENERATOR.toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(String.join(" ", cmd) + "\n" + out).isZero();
            Process run = new ProcessBuilder(exe.toString()).start();
            String fresh = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(run.waitFor()).isZero();
            assertThat(Files.readString(LAYOUTS)).as("regenerate " + LAYOUTS + " (command in " + GENERATOR + ")").isEqualTo(fresh);
        } finally {
            Files.deleteIfExists(exe);
        }
    }
}
