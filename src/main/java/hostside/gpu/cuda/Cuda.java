package hostside.gpu.cuda;

import java.util.Locale;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import hostside.libc.Libc;

/**
 * The CUDA driver API (libcuda.so.1) through java.lang.foreign. Each function's descriptor is
 * declared once, in {@link CudaSignatures}, from CUDA 13.0's cuda.h; the exported names are the
 * versioned ones that header maps the plain names to (cuMemAlloc is cuMemAlloc_v2). Symbols are
 * looked up on first use, so a driver older than a function fails that function only.
 *
 * <p>Every CUresult is checked: failure is a {@link CudaException} naming the call and the
 * error (from cuGetErrorName). A driver that is absent, or that finds no device, is a normal
 * state: {@link #open()} says why instead of throwing.
 */
public final class Cuda {
    /** CUDA_ERROR_INVALID_VALUE: also what cuDeviceGetAttribute says for an attribute it does not know. */
    public static final int ERROR_INVALID_VALUE = 1;
    public static final int ERROR_NO_DEVICE = 100;
    public static final int MEMHOSTALLOC_PORTABLE = 0x01, MEMHOSTALLOC_DEVICEMAP = 0x02;
    public static final int MEMHOSTREGISTER_PORTABLE = 0x01, MEMHOSTREGISTER_DEVICEMAP = 0x02;
    public static final int STREAM_NON_BLOCKING = 0x1;
    public static final int EVENT_DEFAULT = 0x0;
    public static final int ERROR_INVALID_DEVICE = 101;
    public static final int ERROR_PEER_ACCESS_UNSUPPORTED = 217;
    public static final int ERROR_PEER_ACCESS_ALREADY_ENABLED = 704, ERROR_PEER_ACCESS_NOT_ENABLED = 705;
    public static final int ERROR_OUT_OF_MEMORY = 2;
    /** What a fabric allocation says without an IMEX channel; NOT_SUPPORTED where the GPU or driver has no fabric handles. */
    public static final int ERROR_NOT_PERMITTED = 800, ERROR_NOT_SUPPORTED = 801;

    /** CUdevice_attribute ids (cuda.h): exportable as a fabric handle; NVLink switch multicast (NVLS). */
    public static final int ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED = 128, ATTRIBUTE_MULTICAST_SUPPORTED = 132;
    /** CUmemAllocationHandleType CU_MEM_HANDLE_TYPE_FABRIC: the handle is a CUmemFabricHandle. */
    public static final int MEM_HANDLE_TYPE_FABRIC = 0x8;
    public static final int MEM_ALLOCATION_TYPE_PINNED = 0x1;
    /** sizeof(CUmemFabricHandle): unsigned char data[CU_IPC_HANDLE_SIZE], CU_IPC_HANDLE_SIZE 64. */
    public static final int FABRIC_HANDLE_SIZE = 64;

    /** CUdevice_P2PAttribute (cuda.h). */
    public static final int P2P_PERFORMANCE_RANK = 1, P2P_ACCESS_SUPPORTED = 2, P2P_NATIVE_ATOMIC_SUPPORTED = 3,
            P2P_CUDA_ARRAY_ACCESS_SUPPORTED = 4;

    public static final int MEM_ATTACH_GLOBAL = 0x1;
    public static final int MEM_LOCATION_TYPE_DEVICE = 0x1, MEM_LOCATION_TYPE_HOST = 0x2;

    /** CUmemLocation: {CUmemLocationType type; int id;}. */
    static final java.lang.foreign.StructLayout MEM_LOCATION = java.lang.foreign.MemoryLayout.structLayout(
            JAVA_INT.withName("type"), JAVA_INT.withName("id"));

    /** The library to load; tests point it at a fake driver built with gcc. */
    static final String LIBRARY_PROPERTY = "hostside.cuda.library";

    private final SymbolLookup library;
    /** Every exported name this binding has asked the library for: MulticastGuardTest reads it. */
    private final Set<String> lookedUp = ConcurrentHashMap.newKeySet();
    private final Linker linker = Linker.nativeLinker();
    private final Map<String, MethodHandle> handles = new java.util.concurrent.ConcurrentHashMap<>();
    /** Native memory for call arguments and results; lives as long as this binding. */
    final Arena arena = Arena.ofAuto();

    private Cuda(SymbolLookup library) {
        // every lookup goes through here, has() and handle() alike, so the record is complete
        this.library = name -> {
            lookedUp.add(name);
            return library.find(name);
        };
    }

    /** The exported names looked up so far, in no order. */
    Set<String> lookedUp() {
        return Set.copyOf(lookedUp);
    }

    /** The exported names of every function this binding declares, for the tests that audit the table. */
    static Set<String> declaredNames() {
        return CudaSignatures.declaredNames();
    }

    /** The driver, initialised, or why there is none. */
    public sealed interface Open {
        record Ready(Cuda cuda, int devices) implements Open {}
        record NotRun(String why) implements Open {}
    }

    public static Open open() {
        String path = System.getProperty(LIBRARY_PROPERTY, "libcuda.so.1");
        SymbolLookup lib;
        try {
            lib = SymbolLookup.libraryLookup(path, Arena.global());
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            return new Open.NotRun("no NVIDIA driver (" + path + " not found)");
        }
        Cuda cuda = new Cuda(lib);
        try {
            cuda.call("cuInit", 0);
            int n = cuda.deviceCount();
            if (n == 0) return new Open.NotRun("the NVIDIA driver sees no GPU");
            return new Open.Ready(cuda, n);
        } catch (CudaException e) {
            if (e.code() == ERROR_NO_DEVICE) return new Open.NotRun("the NVIDIA driver sees no GPU (" + e.getMessage() + ")");
            return new Open.NotRun("the CUDA driver did not start: " + e.getMessage() + underAddressLimit(e.code()));
        }
    }

    /**
     * Why cuInit ran out of memory where an address-space limit is set: the driver reserves address
     * space for unified memory at cuInit, and on the H100 VM a 4 GiB `ulimit -v` was too little
     * (docs/measurements/2026-12-06-safety-h100.md); "" otherwise.
     */
    static String underAddressLimit(int code) {
        if (code != ERROR_OUT_OF_MEMORY) return "";
        java.util.OptionalLong limit = Libc.addressSpaceLimit();
        if (limit.isEmpty()) return "";
        return String.format(Locale.ROOT, "; this process's address-space limit (ulimit -v) is %d MiB, and the driver reserves address space"
                + " at start beyond it: lift it (ulimit -v unlimited) to measure the GPU", limit.getAsLong() >> 20);
    }

    /** Whether the driver exports a function (drivers older than it do not). */
    public boolean has(String function) {
        CudaSignatures.Signature s = CudaSignatures.of(function);
        return s != null && s.names().stream().anyMatch(n -> library.find(n).isPresent());
    }

    private MethodHandle handle(String function) {
        MethodHandle h = handles.get(function);
        if (h != null) return h;
        CudaSignatures.Signature s = CudaSignatures.of(function);
        if (s == null) throw new IllegalArgumentException("no signature declared for " + function);
        for (String name : s.names()) {
            Optional<MemorySegment> addr = library.find(name);
            if (addr.isPresent()) {
                h = linker.downcallHandle(addr.get(), s.descriptor());
                handles.put(function, h);
                return h;
            }
        }
        throw new CudaException(function + ": not in this driver (looked for " + String.join(", ", s.names()) + ")");
    }

    /**
     * The downcall handle itself, for the few calls timed in a loop (launch jitter): callers use
     * invokeExact with the declared types, and no argument array or boxing is in the figure.
     */
    MethodHandle exact(String function) {
        return handle(function);
    }

    /** Calls a driver function and throws when its CUresult is not CUDA_SUCCESS. */
    void call(String function, Object... args) {
        int r = raw(function, args);
        if (r != 0) throw new CudaException(function, r, errorName(r));
    }

    /** Calls and returns the CUresult, for callers to whom some failures are answers. */
    int raw(String function, Object... args) {
        try {
            return (int) handle(function).invokeWithArguments(args);
        } catch (CudaException | IllegalArgumentException e) {
            throw e;
        } catch (Throwable t) {
            throw new CudaException(function + ": call failed: " + t);
        }
    }

    public String errorName(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            int r = (int) handle("cuGetErrorName").invokeWithArguments(code, p);
            if (r != 0) return "CUresult " + code;
            return p.get(ADDRESS, 0).reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "CUresult " + code;
        }
    }

    // ---- small typed wrappers used by the resources and drills ----

    // Out-parameters live in a confined arena for the one call, so memory does not grow with calls.

    int outInt(String function, Object... rest) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            call(function, prepend(out, rest));
            return out.get(JAVA_INT, 0);
        }
    }

    long outLong(String function, Object... rest) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            call(function, prepend(out, rest));
            return out.get(JAVA_LONG, 0);
        }
    }

    MemorySegment outPointer(String function, Object... rest) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            call(function, prepend(out, rest));
            return out.get(ADDRESS, 0);
        }
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    public int driverVersion() {
        return outInt("cuDriverGetVersion");
    }

    public int deviceCount() {
        return outInt("cuDeviceGetCount");
    }

    public int device(int ordinal) {
        return outInt("cuDeviceGet", ordinal);
    }

    public String deviceName(int device) {
        MemorySegment buf = arena.allocate(256);
        call("cuDeviceGetName", buf, 256, device);
        return buf.getString(0);
    }

    /** The PCI address in sysfs's spelling, "0000:00:06.0". */
    public String pciBusId(int device) {
        MemorySegment buf = arena.allocate(64);
        call("cuDeviceGetPCIBusId", buf, 64, device);
        return buf.getString(0).toLowerCase();
    }

    /** "GPU-01c09c09-09b4-ce9d-48d3-8841a624d4dd", as nvidia-smi writes it. */
    public String uuid(int device) {
        MemorySegment buf = arena.allocate(16);
        call("cuDeviceGetUuid", buf, device);
        StringBuilder sb = new StringBuilder("GPU-");
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) sb.append('-');
            sb.append(String.format(Locale.ROOT, "%02x", buf.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i)));
        }
        return sb.toString();
    }

    public long totalMemory(int device) {
        MemorySegment out = arena.allocate(JAVA_LONG);
        call("cuDeviceTotalMem", out, device);
        return out.get(JAVA_LONG, 0);
    }

    /** An attribute's value, or empty when this driver does not know the attribute (INVALID_VALUE). */
    public OptionalInt attribute(int device, int attribute) {
        MemorySegment out = arena.allocate(JAVA_INT);
        int r = raw("cuDeviceGetAttribute", out, attribute, device);
        if (r == ERROR_INVALID_VALUE) return OptionalInt.empty();
        if (r != 0) throw new CudaException("cuDeviceGetAttribute(" + attribute + ")", r, errorName(r));
        return OptionalInt.of(out.get(JAVA_INT, 0));
    }

    /** What the driver answered to a query: the value, or, when it refused, the error's name and number. */
    public record Answer(Integer value, String error) {
        public boolean known() {
            return value != null;
        }
    }

    private Answer answer(String function, Object... rest) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            int r = raw(function, prepend(out, rest));
            return r == 0 ? new Answer(out.get(JAVA_INT, 0), null) : new Answer(null, errorName(r) + " (" + r + ")");
        }
    }

    /** cuDeviceCanAccessPeer: whether {@code device} may map {@code peer}'s memory (1) or not (0). */
    public Answer canAccessPeer(int device, int peer) {
        return answer("cuDeviceCanAccessPeer", device, peer);
    }

    /** cuDeviceGetP2PAttribute of the link from {@code source} to {@code destination}; {@code attribute} is a P2P_ constant. */
    public Answer p2pAttribute(int attribute, int source, int destination) {
        return answer("cuDeviceGetP2PAttribute", attribute, source, destination);
    }

    /** Free and total device memory of the current context's device, in bytes. */
    public long[] memoryInfo() {
        MemorySegment free = arena.allocate(JAVA_LONG), total = arena.allocate(JAVA_LONG);
        call("cuMemGetInfo", free, total);
        return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
    }

    /**
     * The CUDA VMM allocation granularity (cuMemGetAllocationGranularity) of pinned device memory
     * on {@code device}: the minimum every cuMemCreate size must be a multiple of, or the size
     * recommended for performance. Allocators that grow by mapping (PyTorch's expandable
     * segments) round every segment up to it.
     */
    public long allocationGranularity(int device, boolean recommended) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            call("cuMemGetAllocationGranularity", out, AllocationProp.pinnedOnDevice(a, device, 0), recommended ? 1 : 0);
            return out.get(JAVA_LONG, 0);
        }
    }

    /** A synchronous copy (cuMemcpyHtoD): returns when the data is on the GPU. */
    public void copyHostToDeviceSync(DeviceBuffer dst, HostBuffer src, long bytes) {
        call("cuMemcpyHtoD", dst.address, src.segment, bytes);
    }

    public void copyDeviceToHostSync(HostBuffer dst, DeviceBuffer src, long bytes) {
        call("cuMemcpyDtoH", dst.segment, src.address, bytes);
    }

    float elapsedMs(MemorySegment start, MemorySegment end) {
        MemorySegment out = arena.allocate(JAVA_FLOAT);
        call("cuEventElapsedTime", out, start, end);
        return out.get(JAVA_FLOAT, 0);
    }
}
