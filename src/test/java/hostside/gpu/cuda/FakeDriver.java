package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The fake libcuda.so.1 of src/test/c/fake_cuda.c, built with gcc, and its test hooks. Build one
 * per test class, into that class's own folder: the library is loaded once per path and never
 * unloaded, so each class gets its own copy of the fake's state; {@link #reset()} before each test.
 * There is no skipping: without gcc the tests fail and say so (CI has gcc).
 */
public final class FakeDriver {
    static final Path SOURCE = Path.of("src/test/c/fake_cuda.c");
    static final String[] KINDS = {"contexts", "device", "managed", "pinned", "registered", "streams", "events", "modules", "peers", "vmm"};
    /** fake_cuda_set_attribute's value for "this driver does not know the attribute". */
    public static final int UNKNOWN = Integer.MIN_VALUE;
    /** CUmemLocation as cuda.h declares it, for calls without the binding. */
    public static final java.lang.foreign.MemoryLayout MEM_LOCATION = java.lang.foreign.MemoryLayout.structLayout(
            JAVA_INT.withName("type"), JAVA_INT.withName("id"));

    final Path library;
    private final SymbolLookup lookup;
    private final MethodHandle reset, configure, setFreeMemory, setElapsedMs, setAttribute, failCall, calls, live, liveResources,
            lastLaunchParam, lastLaunch, lastPrefetch;

    private FakeDriver(Path library) {
        this.library = library;
        this.lookup = SymbolLookup.libraryLookup(library, Arena.global());
        reset = hook("fake_cuda_reset", FunctionDescriptor.ofVoid());
        configure = hook("fake_cuda_configure", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT));
        setFreeMemory = hook("fake_cuda_set_free_memory", FunctionDescriptor.ofVoid(JAVA_LONG));
        setElapsedMs = hook("fake_cuda_set_elapsed_ms", FunctionDescriptor.ofVoid(JAVA_FLOAT));
        failCall = hook("fake_cuda_fail", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_INT));
        calls = hook("fake_cuda_calls", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        live = hook("fake_cuda_live", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        liveResources = hook("fake_cuda_live_resources", FunctionDescriptor.of(JAVA_INT));
        lastLaunchParam = hook("fake_cuda_last_launch_param", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
        lastLaunch = hook("fake_cuda_last_launch", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        setAttribute = hook("fake_cuda_set_attribute", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT));
        lastPrefetch = hook("fake_cuda_last_prefetch", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    }

    /** Compiles the fake (a 13.0 driver) into {@code dir}/libcuda.so.1 and loads it. */
    public static FakeDriver build(Path dir) {
        return build(dir, List.of());
    }

    /** The same with gcc flags: {@code -DFAKE_CUDA_OLD} is a driver older than some functions. */
    public static FakeDriver build(Path dir, List<String> flags) {
        assertThat(SOURCE).as("the fake driver's source (tests run from the project folder)").isRegularFile();
        Path lib = dir.resolve("libcuda.so.1");
        List<String> command = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-O1"));
        command.addAll(flags);
        command.addAll(List.of("-o", lib.toString(), SOURCE.toString()));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return fail("the CUDA binding tests need gcc to build a fake libcuda.so.1 from " + SOURCE
                    + ", and gcc could not be run (" + e.getMessage() + "); install gcc");
        }
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return fail("gcc took over two minutes on " + SOURCE);
            }
            if (p.exitValue() != 0) return fail(String.join(" ", command) + " failed (exit " + p.exitValue() + "):\n" + out);
        } catch (IOException e) {
            return fail("reading gcc's output: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while gcc ran");
        }
        assertThat(Files.isRegularFile(lib)).as("gcc wrote " + lib).isTrue();
        return new FakeDriver(lib);
    }

    private MethodHandle hook(String name, FunctionDescriptor d) {
        MemorySegment addr = lookup.find(name).orElseThrow(() -> new AssertionError(library + " lacks " + name));
        return Linker.nativeLinker().downcallHandle(addr, d);
    }

    private static <T> T invoke(MethodHandle h, Object... args) {
        try {
            @SuppressWarnings("unchecked")
            T t = (T) h.invokeWithArguments(args);
            return t;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Cuda.open() on this fake: the property set for the call, cleared after it. */
    public Cuda.Open open() {
        System.setProperty(Cuda.LIBRARY_PROPERTY, library.toString());
        try {
            return Cuda.open();
        } finally {
            System.clearProperty(Cuda.LIBRARY_PROPERTY);
        }
    }

    /** An open that must find the driver ready. */
    public Cuda ready() {
        Cuda.Open open = open();
        assertThat(open).isInstanceOf(Cuda.Open.Ready.class);
        return ((Cuda.Open.Ready) open).cuda();
    }

    /** Back to the start: 2 GPUs, cuInit succeeds, nothing live or failing, cuInit not yet called. */
    public void reset() {
        invoke(reset);
    }

    public void configure(int initResult, int deviceCount) {
        invoke(configure, initResult, deviceCount);
    }

    public void setFreeMemory(long bytes) {
        invoke(setFreeMemory, bytes);
    }

    public void setElapsedMs(float ms) {
        invoke(setElapsedMs, ms);
    }

    /** The exported function {@code name} returns {@code code} once, after {@code after} more calls that succeed. */
    public void failOnce(String name, int code, int after) {
        try (Arena a = Arena.ofConfined()) {
            invoke(failCall, a.allocateFrom(name), code, after);
        }
    }

    public int calls(String exportedName) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(calls, a.allocateFrom(exportedName));
        }
    }

    public int live(String kind) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(live, a.allocateFrom(kind));
        }
    }

    /** Retained contexts, device and pinned allocations, registrations, streams, events, modules and VMM handles. */
    public int live() {
        return invoke(liveResources);
    }

    /** "contexts=1 device=0 ...", for assertion messages. */
    public String liveSummary() {
        StringBuilder sb = new StringBuilder();
        for (String k : KINDS) sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(live(k));
        return sb.toString();
    }

    public long lastLaunchParam(int i) {
        return invoke(lastLaunchParam, i);
    }

    /** "gridX", "blockX", "sharedMem", "params" (how many the kernel takes) or "stream" (1: a stream, 0: NULL). */
    public int lastLaunch(String what) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(lastLaunch, a.allocateFrom(what));
        }
    }

    public void assertNothingLive() {
        assertThat(live()).as("live resources in the fake driver: " + liveSummary()).isZero();
    }

    public void setAttribute(int attribute, int value) {
        invoke(setAttribute, attribute, value);
    }

    /** The last accepted cuMemPrefetchAsync_v2: "type", "id", "ptr", "count", "flags", "stream". */
    public long lastPrefetch(String what) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(lastPrefetch, a.allocateFrom(what));
        }
    }

    /** A driver function of the fake, called as a program would, without the binding in between. */
    public MethodHandle function(String exportedName, FunctionDescriptor d) {
        return hook(exportedName, d);
    }

    /** Points the binding at this fake until {@link #unset()}: for code that opens the driver itself (the drills). */
    public void use() {
        System.setProperty(Cuda.LIBRARY_PROPERTY, library.toString());
    }

    public static void unset() {
        System.clearProperty(Cuda.LIBRARY_PROPERTY);
    }

    /**
     * What cuDeviceCanAccessPeer(a, b) and cuDeviceGetP2PAttribute(.., a, b) say; {@link #UNKNOWN}
     * as the rank makes that attribute CUDA_ERROR_INVALID_VALUE. By default every pair can, rank 0.
     */
    public void setPeer(int a, int b, boolean canAccess, boolean atomics, boolean arrayAccess, int rank) {
        invoke(hook("fake_cuda_set_peer", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT)),
                a, b, canAccess ? 1 : 0, atomics ? 1 : 0, arrayAccess ? 1 : 0, rank);
    }

    /** Copies between two GPUs since the reset: "peer" (direct) or "staged" (through host memory, no peer access). */
    public long copies(String kind) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(hook("fake_cuda_copies", FunctionDescriptor.of(JAVA_LONG, ADDRESS)), a.allocateFrom(kind));
        }
    }

    /** Whether this process may use an IMEX channel: without one (the default) cuMemCreate with a fabric handle is NOT_PERMITTED. */
    public void setImexChannel(boolean present) {
        invoke(hook("fake_cuda_set_imex_channel", FunctionDescriptor.ofVoid(JAVA_INT)), present ? 1 : 0);
    }

    /** Kernels run by cuGraphLaunch since the reset. */
    public long graphKernelsRun() {
        return invoke(hook("fake_cuda_graph_kernels_run", FunctionDescriptor.of(JAVA_LONG)));
    }
}
