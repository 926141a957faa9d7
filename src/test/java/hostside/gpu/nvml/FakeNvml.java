package hostside.gpu.nvml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds src/test/c/fake_nvml.c into a libnvidia-ml.so.1 with gcc, once per variant and JVM,
 * and drives its test hooks through FFM. No gcc is a test failure, not a skip: CI has gcc, and
 * a skipped binding test would let a JVM-crashing descriptor through unseen.
 */
public final class FakeNvml {
    public enum Variant {
        /** a 580 driver, less nvmlDeviceGetGpuMaxPcieLinkGeneration */
        CURRENT(),
        /** a driver older than 580: no addressing mode, no FabricInfoV, no NUMA node id, no CUDA version v2 */
        OLD("-DFAKE_NVML_OLD"),
        /** a 580 one whose nvmlDeviceGetGpuFabricInfoV predates nvmlGpuFabricInfo_v3_t */
        FABRIC_V2("-DFAKE_NVML_FABRIC_V2");

        final List<String> flags;

        Variant(String... flags) {
            this.flags = List.of(flags);
        }
    }

    static final Path SOURCE = Path.of("src/test/c/fake_nvml.c");
    private static final Map<Variant, Path> BUILT = new ConcurrentHashMap<>();

    private FakeNvml() {}

    /** The path of the built fake: a file named libnvidia-ml.so.1 in a temporary folder of its own. */
    public static synchronized String library(Variant v) {
        return BUILT.computeIfAbsent(v, FakeNvml::build).toString();
    }

    public static String library() {
        return library(Variant.CURRENT);
    }

    private static Path build(Variant v) {
        try {
            Path dir = Files.createTempDirectory("fake-nvml-" + v.name().toLowerCase());
            Path lib = dir.resolve("libnvidia-ml.so.1");
            List<String> cmd = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-std=c11", "-Wall"));
            cmd.addAll(v.flags);
            cmd.addAll(List.of("-o", lib.toString(), SOURCE.toString()));
            Process p;
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            } catch (IOException e) {
                return fail("gcc not found (" + e.getMessage() + "): the NVML tests build a fake libnvidia-ml.so.1 from "
                        + SOURCE + " with it; install gcc (CI has it)");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) fail(String.join(" ", cmd) + " failed:\n" + out);
            lib.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return lib;
        } catch (IOException e) {
            return fail("cannot build the fake NVML: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted building the fake NVML");
        }
    }

    // The hooks reach the same loaded image as Nvml does: dlopen of the same path gives the
    // same handle while it is loaded, and Nvml keeps it loaded for good (Arena.global).

    private static MethodHandle hook(Variant v, String name, FunctionDescriptor fd) {
        SymbolLookup lookup = SymbolLookup.libraryLookup(Path.of(library(v)), Arena.global());
        return Linker.nativeLinker().downcallHandle(lookup.find(name).orElseThrow(), fd);
    }

    /** Calls a void hook of the fake. */
    private static void call(Variant v, String name, FunctionDescriptor fd, Object... args) {
        try {
            hook(v, name, fd).invokeWithArguments(args);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** nvmlInit_v2 answers {@code code} from now on (0: success again). */
    static void setInitResult(Variant v, int code) {
        call(v, "fake_nvml_set_init_result", FunctionDescriptor.ofVoid(JAVA_INT), code);
    }

    /** nvmlDeviceGetCount_v2 answers {@code n} (at most 2). */
    static void setDeviceCount(Variant v, int n) {
        call(v, "fake_nvml_set_device_count", FunctionDescriptor.ofVoid(JAVA_INT), n);
    }

    /** GPU {@code gpu}'s utilization becomes {@code util} % and its clocks event reasons {@code reasons}. */
    public static void setActivity(Variant v, int gpu, int util, long reasons) {
        call(v, "fake_nvml_set_activity", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_LONG), gpu, util, reasons);
    }

    /**
     * What an administrator would leave on GPU {@code gpu}: applications clocks (0 for the board's
     * default), the enforced power limit in milliwatts and the SM clock now, in MHz.
     */
    public static void setClockPolicy(Variant v, int gpu, int appSm, int appMem, int powerLimitMw, int smClock) {
        call(v, "fake_nvml_set_clock_policy", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                gpu, appSm, appMem, powerLimitMw, smClock);
    }

    /** GPU 0's and 1's clock settings of fake_nvml.c's header comment again. */
    public static void resetClockPolicy(Variant v) {
        setClockPolicy(v, 0, 0, 0, 700000, 1980);
        setClockPolicy(v, 1, 0, 0, 700000, 345);
    }

    /** GPU {@code gpu} runs no compute process from now on. */
    public static void clearProcesses(Variant v, int gpu) {
        call(v, "fake_nvml_clear_processes", FunctionDescriptor.ofVoid(JAVA_INT), gpu);
    }

    /** Adds a compute process to GPU {@code gpu} (at most 8); {@code usedBytes} -1 is NVML_VALUE_NOT_AVAILABLE. */
    public static void addProcess(Variant v, int gpu, long pid, long usedBytes) {
        call(v, "fake_nvml_add_process", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_LONG), gpu, (int) pid, usedBytes);
    }

    /** GPU 0 and 1 back to the canned activity of fake_nvml.c. */
    public static void resetActivity(Variant v) {
        setActivity(v, 0, 97, 0L);
        setActivity(v, 1, 35, 0x4L);
        clearProcesses(v, 0);
        addProcess(v, 0, 4242, 75161927680L);
    }

    /** GPU {@code gpu} gets {@code n} active links, each to an NVSwitch, as on an HGX board. */
    public static void setSwitchLinks(Variant v, int gpu, int n) {
        call(v, "fake_nvml_set_switch_links", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT), gpu, n);
    }

    /** nvmlDeviceGetNvLinkRemoteDeviceType and nvmlDeviceGetNvLinkVersion answer {@code code} (0: answer again). */
    public static void setLinkDetailResult(Variant v, int code) {
        call(v, "fake_nvml_set_link_detail_result", FunctionDescriptor.ofVoid(JAVA_INT), code);
    }

    /** The links of fake_nvml.c's header comment again. */
    public static void resetLinks(Variant v) {
        call(v, "fake_nvml_reset_links", FunctionDescriptor.ofVoid());
    }

    /** nvmlDeviceGetP2PStatus answers {@code status} for capability {@code index} from GPU {@code from} to {@code to}. */
    public static void setP2p(Variant v, int from, int to, int index, int status) {
        call(v, "fake_nvml_set_p2p", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), from, to, index, status);
    }

    /** nvmlDeviceGetP2PStatus fails with {@code code} (0: answers again). */
    public static void setP2pResult(Variant v, int code) {
        call(v, "fake_nvml_set_p2p_result", FunctionDescriptor.ofVoid(JAVA_INT), code);
    }

    /** The canned P2P answers of fake_nvml.c's comment again. */
    public static void resetP2p(Variant v) {
        call(v, "fake_nvml_reset_p2p", FunctionDescriptor.ofVoid());
    }

    /** The fabric probe of GPU {@code gpu}: state, registration status (nvmlReturn_t), health mask and summary. */
    public static void setFabric(Variant v, int gpu, int state, int status, int healthMask, int healthSummary) {
        call(v, "fake_nvml_set_fabric", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                gpu, state, status, healthMask, healthSummary);
    }

    /** nvmlDeviceGetPlatformInfo answers {@code result} for GPU {@code gpu}, and on success these values. */
    public static void setPlatform(Variant v, int gpu, int result, String serial, int slot, int tray, int host, int peer, int module) {
        try (Arena arena = Arena.ofConfined()) {
            call(v, "fake_nvml_set_platform",
                    FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                    gpu, result, arena.allocateFrom(serial), slot, tray, host, peer, module);
        }
    }

    /**
     * nvmlDeviceGetC2cModeInfoV answers {@code result} and {@code enabled}; the C2C fields count
     * {@code links}, those whose bit is in {@code activeMask} active at {@code maxBwMBps}, or every
     * field answers {@code fieldResult} when it is not 0.
     */
    public static void setC2c(Variant v, int gpu, int result, boolean enabled, int links, int activeMask, int maxBwMBps, int fieldResult) {
        call(v, "fake_nvml_set_c2c", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                gpu, result, enabled ? 1 : 0, links, activeMask, maxBwMBps, fieldResult);
    }

    /** nvmlDeviceGetPersistenceMode answers {@code result}, and on success {@code enabled}. */
    public static void setPersistence(Variant v, int gpu, int result, boolean enabled) {
        call(v, "fake_nvml_set_persistence", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT), gpu, result, enabled ? 1 : 0);
    }

    /** The fabric, platform, C2C and persistence answers of fake_nvml.c's header comment again. */
    public static void resetRack(Variant v) {
        call(v, "fake_nvml_reset_rack", FunctionDescriptor.ofVoid());
    }

    /**
     * Sets one number of GPU {@code gpu}'s health read by its key in fake_nvml.c's HEALTH_KEYS
     * ("ecc.volatile.dram.corrected", "histogram.max", "temp.margin", ...); an unknown key fails.
     */
    public static void setHealth(Variant v, int gpu, String key, long value) {
        try (Arena arena = Arena.ofConfined()) {
            int known = (int) hook(v, "fake_nvml_set_health", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG))
                    .invokeWithArguments(gpu, arena.allocateFrom(key), value);
            if (known != 1) throw new AssertionError("fake_nvml.c has no health key \"" + key + "\"");
        } catch (Throwable t) {
            throw t instanceof AssertionError a ? a : new AssertionError(t);
        }
    }

    /** Both GPUs' health numbers back to the H100's, no failing call, no field answers set apart. */
    public static void resetHealth(Variant v) {
        call(v, "fake_nvml_reset_health", FunctionDescriptor.ofVoid());
    }

    /** The device call {@code symbol} answers {@code code} for GPU {@code gpu} from now on. */
    public static void failCall(Variant v, int gpu, String symbol, int code) {
        try (Arena arena = Arena.ofConfined()) {
            call(v, "fake_nvml_fail_call", FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, JAVA_INT), gpu, arena.allocateFrom(symbol), code);
        }
    }

    /** Device calls GPU {@code gpu} got after its failing call answered. */
    public static int callsAfterFail(Variant v, int gpu) {
        try {
            return (int) hook(v, "fake_nvml_calls_after_fail", FunctionDescriptor.of(JAVA_INT, JAVA_INT)).invokeExact(gpu);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** nvmlDeviceGetFieldValues answers field {@code id} of GPU {@code gpu} with {@code ret} and value type {@code type}. */
    public static void setField(Variant v, int gpu, int id, int ret, int type) {
        call(v, "fake_nvml_set_field", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), gpu, id, ret, type);
    }

    /** Every active link of GPU {@code gpu} answers nvmlNvlinkVersion_t {@code version} (7: NVLink 5). */
    public static void setLinkVersion(Variant v, int gpu, int version) {
        call(v, "fake_nvml_set_link_version", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT), gpu, version);
    }

    /** nvmlInit_v2 calls not yet matched by nvmlShutdown. */
    static int initCount(Variant v) {
        try {
            return (int) hook(v, "fake_nvml_init_count", FunctionDescriptor.of(JAVA_INT)).invokeExact();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * The fake as the H100 VM answered (shared/fixtures/h100): one GPU, at 0000:00:06.0, idle, its
     * health answers the H100's (fake_nvml.c's defaults, which SmiSideBySideTest holds equal to its
     * nvidia-smi -q). Read, then the fake put back to its two GPUs and their activity.
     */
    public static NvmlHealth h100Answers() {
        resetHealth(Variant.CURRENT);
        setDeviceCount(Variant.CURRENT, 1);
        setActivity(Variant.CURRENT, 0, 0, NvmlTypes.nvmlClocksEventReasonGpuIdle);
        try {
            return NvmlHealth.read(library());
        } finally {
            setDeviceCount(Variant.CURRENT, 2);
            resetActivity(Variant.CURRENT);
        }
    }
}
