package hostside.vm;

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
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import hostside.gpu.cuda.Cuda;

/**
 * The fake libcuda.so.1 of src/test/c/fake_cuda.c for Module 2's tests, with the hooks they use
 * (hostside.gpu.cuda's own FakeDriver is package-private there). Build one per test class into
 * its own folder: a library is loaded once per path, so each class gets its own fake state.
 */
final class FakeCuda {
    static final Path SOURCE = Path.of("src/test/c/fake_cuda.c");
    /** Cuda's library property: the binding loads this path instead of libcuda.so.1. */
    static final String LIBRARY_PROPERTY = "hostside.cuda.library";
    /** fake_cuda_set_attribute's value for "this driver does not know the attribute". */
    static final int UNKNOWN = Integer.MIN_VALUE;

    final Path library;
    private final SymbolLookup lookup;
    private final MethodHandle reset, setFreeMemory, setElapsedMs, setAttribute, failCall, calls, live, liveResources,
            lastLaunchParam, lastLaunch, lastPrefetch;

    private FakeCuda(Path library) {
        this.library = library;
        this.lookup = SymbolLookup.libraryLookup(library, Arena.global());
        reset = hook("fake_cuda_reset", FunctionDescriptor.ofVoid());
        setFreeMemory = hook("fake_cuda_set_free_memory", FunctionDescriptor.ofVoid(JAVA_LONG));
        setElapsedMs = hook("fake_cuda_set_elapsed_ms", FunctionDescriptor.ofVoid(JAVA_FLOAT));
        setAttribute = hook("fake_cuda_set_attribute", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT));
        failCall = hook("fake_cuda_fail", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_INT));
        calls = hook("fake_cuda_calls", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        live = hook("fake_cuda_live", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        liveResources = hook("fake_cuda_live_resources", FunctionDescriptor.of(JAVA_INT));
        lastLaunchParam = hook("fake_cuda_last_launch_param", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
        lastLaunch = hook("fake_cuda_last_launch", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        lastPrefetch = hook("fake_cuda_last_prefetch", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    }

    /** Compiles the fake into {@code dir}/libcuda.so.1 ({@code -DFAKE_CUDA_OLD} among the flags: a pre-12.2 driver). */
    static FakeCuda build(Path dir, String... flags) {
        assertThat(SOURCE).as("the fake driver's source (tests run from the project folder)").isRegularFile();
        Path lib = dir.resolve("libcuda.so.1");
        List<String> command = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-O1"));
        command.addAll(List.of(flags));
        command.addAll(List.of("-o", lib.toString(), SOURCE.toString()));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return fail("gcc took over two minutes on " + SOURCE);
            }
            if (p.exitValue() != 0) return fail(String.join(" ", command) + " failed (exit " + p.exitValue() + "):\n" + out);
        } catch (IOException e) {
            return fail("these tests need gcc to build a fake libcuda.so.1 from " + SOURCE + " (" + e.getMessage() + "); install gcc");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while gcc ran");
        }
        return new FakeCuda(lib);
    }

    private MethodHandle hook(String name, FunctionDescriptor d) {
        MemorySegment addr = lookup.find(name).orElseThrow(() -> new AssertionError(library + " lacks " + name));
        return Linker.nativeLinker().downcallHandle(addr, d);
    }

    /** A driver function of the fake, called as a program would, without the binding in between. */
    MethodHandle function(String exportedName, FunctionDescriptor d) {
        return hook(exportedName, d);
    }

    /** CUmemLocation as cuda.h declares it, for calls without the binding. */
    static final MemoryLayout MEM_LOCATION = MemoryLayout.structLayout(JAVA_INT.withName("type"), JAVA_INT.withName("id"));

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

    /** Cuda.open() on this fake; the property stays set until {@link #unset()} (VmDrill opens the driver itself). */
    Cuda ready() {
        use();
        Cuda.Open open = Cuda.open();
        assertThat(open).isInstanceOf(Cuda.Open.Ready.class);
        return ((Cuda.Open.Ready) open).cuda();
    }

    void use() {
        System.setProperty(LIBRARY_PROPERTY, library.toString());
    }

    static void unset() {
        System.clearProperty(LIBRARY_PROPERTY);
    }

    /** Back to the start: 2 GPUs, nothing live or failing, every attribute as the fake has it. */
    void reset() {
        invoke(reset);
    }

    void setFreeMemory(long bytes) {
        invoke(setFreeMemory, bytes);
    }

    void setElapsedMs(float ms) {
        invoke(setElapsedMs, ms);
    }

    void setAttribute(int attribute, int value) {
        invoke(setAttribute, attribute, value);
    }

    /** The exported function {@code name} returns {@code code} once, after {@code after} more calls that succeed. */
    void failOnce(String name, int code, int after) {
        try (Arena a = Arena.ofConfined()) {
            invoke(failCall, a.allocateFrom(name), code, after);
        }
    }

    int calls(String exportedName) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(calls, a.allocateFrom(exportedName));
        }
    }

    int live(String kind) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(live, a.allocateFrom(kind));
        }
    }

    /** Contexts, device, pinned and managed allocations, registrations, streams, events, modules. */
    int live() {
        return invoke(liveResources);
    }

    String liveSummary() {
        StringBuilder sb = new StringBuilder();
        for (String k : new String[] {"contexts", "device", "managed", "pinned", "registered", "streams", "events", "modules"}) {
            sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(live(k));
        }
        return sb.toString();
    }

    void assertNothingLive() {
        assertThat(live()).as("live resources in the fake driver: " + liveSummary()).isZero();
    }

    long lastLaunchParam(int i) {
        return invoke(lastLaunchParam, i);
    }

    int lastLaunch(String what) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(lastLaunch, a.allocateFrom(what));
        }
    }

    /** The last accepted cuMemPrefetchAsync_v2: "type", "id", "ptr", "count", "flags", "stream". */
    long lastPrefetch(String what) {
        try (Arena a = Arena.ofConfined()) {
            return invoke(lastPrefetch, a.allocateFrom(what));
        }
    }
}
