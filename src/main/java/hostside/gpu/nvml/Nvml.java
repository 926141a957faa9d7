package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_DRIVER_NOT_LOADED;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_FUNCTION_NOT_FOUND;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_LIBRARY_NOT_FOUND;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_LIB_RM_VERSION_MISMATCH;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_NOT_SUPPORTED;
import static hostside.gpu.nvml.NvmlTypes.NVML_ERROR_NO_PERMISSION;
import static hostside.gpu.nvml.NvmlTypes.NVML_SUCCESS;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The binding to libnvidia-ml.so.1 through java.lang.foreign: no JNI, nothing to compile.
 *
 * <p>Open with {@link #open()}: a machine without the library, or whose driver will not
 * initialise, is a normal state and comes back as {@link NvmlResult.Unknown} with a reason
 * ("no NVIDIA driver (libnvidia-ml.so.1 not found)"), never as an exception. Closing calls
 * nvmlShutdown (NVML counts inits, so several Nvml objects may be open at once).
 *
 * <p>Functions are looked up on first use, not at open: a driver older than a function is
 * normal, and its absence makes that one call answer NVML_ERROR_FUNCTION_NOT_FOUND ("not
 * supported by this driver") instead of failing the whole binding.
 *
 * <p>Every nvmlReturn_t is checked. {@link #check} throws {@link NvmlException} on any failure;
 * {@link #query} and the typed getters return {@link NvmlResult.Unknown} for the codes that
 * describe the machine ({@link #isNormalState}) and throw for the rest; {@link #call} gives the
 * raw code to loops that end on an error (the NVLink links end with INVALID_ARGUMENT).
 * Native memory for a call lives in a confined Arena that closes when the call returns, so
 * any thread may call; values that outlive a call are copied into Java objects.
 */
public final class Nvml implements AutoCloseable {
    /** System property naming the library to load instead of libnvidia-ml.so.1 (the tests load a fake). */
    public static final String LIBRARY_PROPERTY = "hostside.nvml.library";
    public static final String DEFAULT_LIBRARY = "libnvidia-ml.so.1";

    private static final Linker LINKER = Linker.nativeLinker();

    private final String library;
    private final String libraryName;
    private final SymbolLookup symbols;
    private final Map<NvmlFunction, Optional<MethodHandle>> handles = new ConcurrentHashMap<>();
    private final AtomicBoolean open = new AtomicBoolean(true);

    private Nvml(String library, SymbolLookup symbols) {
        this.library = library;
        this.libraryName = String.valueOf(Path.of(library).getFileName());
        this.symbols = symbols;
    }

    /** The library {@link #open()} loads: the system property, else libnvidia-ml.so.1 from the loader's path. */
    public static String defaultLibrary() {
        String p = System.getProperty(LIBRARY_PROPERTY);
        return p == null || p.isBlank() ? DEFAULT_LIBRARY : p;
    }

    public static NvmlResult<Nvml> open() {
        return open(defaultLibrary());
    }

    /**
     * Loads {@code library} (a bare name goes through the dynamic loader's search path, a path is
     * loaded as it is) and calls nvmlInit_v2.
     */
    public static NvmlResult<Nvml> open(String library) {
        SymbolLookup symbols;
        try {
            // Arena.global: the library stays mapped for the life of the process. NVML and the
            // CUDA stack are not written to be unloaded (threads and atexit handlers of a
            // dlclose'd library crash the JVM at exit), and a second open costs a refcount.
            symbols = library.indexOf('/') >= 0
                    ? SymbolLookup.libraryLookup(Path.of(library), Arena.global())
                    : SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            return NvmlResult.unknown(NVML_ERROR_LIBRARY_NOT_FOUND, "no NVIDIA driver (" + library + " not found)");
        }
        Nvml nvml = new Nvml(library, symbols);
        if (!nvml.has(NvmlFunction.INIT_V2)) {
            return NvmlResult.unknown(NVML_ERROR_FUNCTION_NOT_FOUND,
                    library + " has no nvmlInit_v2 (not NVML, or older than any driver hostside reads)");
        }
        int rc = nvml.call(NvmlFunction.INIT_V2);
        if (rc == NVML_SUCCESS) return NvmlResult.of(nvml);
        nvml.open.set(false);
        String what = switch (rc) {
            case NVML_ERROR_DRIVER_NOT_LOADED -> "NVIDIA driver not loaded";
            case NVML_ERROR_LIB_RM_VERSION_MISMATCH ->
                    "NVML library and kernel driver versions differ (driver updated without a reboot or module reload)";
            case NVML_ERROR_NO_PERMISSION -> "no permission to use the NVIDIA devices";
            default -> "NVML did not initialise";
        };
        return NvmlResult.unknown(rc, what + " (" + nvml.failure(NvmlFunction.INIT_V2, rc).getMessage() + ")");
    }

    /**
     * Opens {@code library}, reads with {@code read} and shuts NVML down whatever happened: a driver
     * that will not open gives {@code notRun}'s answer, a shutdown that fails {@code onShutdownFailure}'s
     * (the read stands, with the failure said), an exception of the read leaves after the shutdown.
     */
    public static <T> T readOnce(String library, Function<Nvml, T> read, Function<NvmlResult.Unknown<Nvml>, T> notRun,
                                 BiFunction<T, NvmlException, T> onShutdownFailure) {
        NvmlResult<Nvml> opened = open(library);
        if (!(opened instanceof NvmlResult.Known<Nvml>(Nvml nvml))) return notRun.apply((NvmlResult.Unknown<Nvml>) opened);
        T result;
        try {
            result = read.apply(nvml);
        } catch (RuntimeException e) {
            try { nvml.close(); } catch (NvmlException suppressed) { e.addSuppressed(suppressed); }
            throw e;
        }
        try {
            nvml.close();
        } catch (NvmlException e) {
            result = onShutdownFailure.apply(result, e);
        }
        return result;
    }

    /** What was loaded: the name or path given to {@link #open(String)}. */
    public String library() {
        return library;
    }

    /**
     * The codes that describe the machine, not a fault: the GPU or driver lacks the feature, the
     * user lacks the right, or the library lacks the function.
     */
    public static boolean isNormalState(int code) {
        return code == NVML_ERROR_NOT_SUPPORTED || code == NVML_ERROR_NO_PERMISSION
                || code == NVML_ERROR_FUNCTION_NOT_FOUND;
    }

    /** Whether the library exports the function (looked up once, then remembered). */
    public boolean has(NvmlFunction f) {
        return handle(f).isPresent();
    }

    private Optional<MethodHandle> handle(NvmlFunction f) {
        return handles.computeIfAbsent(f,
                fn -> symbols.find(fn.symbol()).map(address -> LINKER.downcallHandle(address, fn.descriptor())));
    }

    /**
     * Calls an nvmlReturn_t function and gives its code unchecked; NVML_ERROR_FUNCTION_NOT_FOUND
     * when the library lacks it. The arguments must match the descriptor (MemorySegment for a
     * pointer, Integer for an int or enum); a mismatch throws before any native code runs.
     */
    public int call(NvmlFunction f, Object... args) {
        if (f == NvmlFunction.ERROR_STRING) throw new IllegalArgumentException("nvmlErrorString returns a string: use errorString");
        if (!open.get()) throw new IllegalStateException("NVML is shut down (" + f.symbol() + " called after close)");
        Optional<MethodHandle> h = handle(f);
        if (h.isEmpty()) return NVML_ERROR_FUNCTION_NOT_FOUND;
        try {
            return (int) h.get().invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(f.symbol() + " threw " + t, t);
        }
    }

    /** Calls and throws {@link NvmlException} unless NVML_SUCCESS. */
    public void check(NvmlFunction f, Object... args) {
        int rc = call(f, args);
        if (rc != NVML_SUCCESS) throw failure(f, rc);
    }

    /**
     * Calls; on success reads the outcome with {@code onSuccess} (typically from the out
     * pointers passed in {@code args}); a normal-state code gives Unknown; anything else throws.
     */
    public <T> NvmlResult<T> query(NvmlFunction f, Supplier<T> onSuccess, Object... args) {
        return result(f, call(f, args), onSuccess);
    }

    /** The same decision as {@link #query}, for a code already in hand. */
    public <T> NvmlResult<T> result(NvmlFunction f, int rc, Supplier<T> onSuccess) {
        if (rc == NVML_SUCCESS) return NvmlResult.of(onSuccess.get());
        NvmlException e = failure(f, rc);
        if (!isNormalState(rc)) throw e;
        return NvmlResult.unknown(rc, unknownWhy(f, e));
    }

    /** The reason an Unknown carries: the exception's message, or for a missing symbol the plainer words. */
    private String unknownWhy(NvmlFunction f, NvmlException e) {
        return e.code() == NVML_ERROR_FUNCTION_NOT_FOUND && !has(f) ? e.reason() : e.getMessage();
    }

    /** The exception for a failed call: "nvmlDeviceGetNumaNodeId: Not Supported (3)". */
    public NvmlException failure(NvmlFunction f, int rc) {
        String reason = rc == NVML_ERROR_FUNCTION_NOT_FOUND && !has(f)
                ? "not supported by this driver (" + libraryName + " has no " + f.symbol() + ")"
                : errorString(rc) + " (" + rc + ")";
        return new NvmlException(f.symbol(), rc, reason);
    }

    /** nvmlErrorString's words for a code (callable before init and after shutdown). */
    public String errorString(int code) {
        Optional<MethodHandle> h = handle(NvmlFunction.ERROR_STRING);
        if (h.isEmpty()) return "error";
        try {
            MemorySegment s = (MemorySegment) h.get().invokeExact(code);
            // a C string of unknown length: reinterpret to read up to its NUL, never beyond
            return s.equals(MemorySegment.NULL) ? "error" : s.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("nvmlErrorString threw " + t, t);
        }
    }

    // ---- typed getters for the common shapes: (leading args..., out pointer) ----

    /** f(leading..., unsigned int *out) or f(leading..., int *out), also an enum out. */
    public NvmlResult<Integer> getInt(NvmlFunction f, Object... leading) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            return query(f, () -> out.get(JAVA_INT, 0), append(leading, out));
        }
    }

    /** f(leading..., unsigned int *a, unsigned int *b, ...): {@code count} separate outs (ECC, MIG: current and pending). */
    public NvmlResult<int[]> getInts(NvmlFunction f, int count, Object... leading) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] outs = new MemorySegment[count];
            for (int i = 0; i < count; i++) outs[i] = arena.allocate(JAVA_INT);
            Object[] args = Arrays.copyOf(leading, leading.length + count);
            System.arraycopy(outs, 0, args, leading.length, count);
            return query(f, () -> Arrays.stream(outs).mapToInt(o -> o.get(JAVA_INT, 0)).toArray(), args);
        }
    }

    /** f(leading..., char *buffer, unsigned int length), {@code capacity} from the header's buffer-size constant. */
    public NvmlResult<String> getString(NvmlFunction f, int capacity, Object... leading) {
        try (Arena arena = Arena.ofConfined()) {
            // one byte more than NVML is told about, so the string always ends in NUL
            MemorySegment buffer = arena.allocate(capacity + 1L);
            Object[] args = Arrays.copyOf(leading, leading.length + 2);
            args[leading.length] = buffer;
            args[leading.length + 1] = capacity;
            return query(f, () -> buffer.getString(0).strip(), args);
        }
    }

    /**
     * The handle of GPU {@code index}. A handle is an opaque pointer that NVML owns and keeps
     * valid until shutdown, so it may be kept outside any Arena.
     */
    public NvmlResult<MemorySegment> device(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            return query(NvmlFunction.DEVICE_GET_HANDLE_BY_INDEX_V2, () -> out.get(ADDRESS, 0), index, out);
        }
    }

    private static Object[] append(Object[] leading, Object last) {
        Object[] args = Arrays.copyOf(leading, leading.length + 1);
        args[leading.length] = last;
        return args;
    }

    /** nvmlShutdown, once; its failure is an NvmlException (NVML stays loaded either way). */
    @Override
    public void close() {
        if (!open.get()) return;
        int rc = call(NvmlFunction.SHUTDOWN);
        open.set(false);
        if (rc != NVML_SUCCESS) throw failure(NvmlFunction.SHUTDOWN, rc);
    }
}
