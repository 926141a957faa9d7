package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The driver functions {@link Cuda} may call, each declared once: its plain name, the exported
 * names that carry it (most recent first) and its C signature as a descriptor.
 */
final class CudaSignatures {
    private CudaSignatures() {}

    record Signature(List<String> names, FunctionDescriptor descriptor) {}

    private static Signature sig(FunctionDescriptor d, String... names) {
        return new Signature(List.of(names), d);
    }

    private static FunctionDescriptor ret(java.lang.foreign.MemoryLayout... args) {
        return FunctionDescriptor.of(JAVA_INT, args);
    }

    /**
     * Plain name to (exported names, most recent first; descriptor). From cuda.h of CUDA 13.0:
     * CUdevice is int, CUdeviceptr unsigned long long, handles are pointers, size_t is 64 bits.
     */
    private static final Map<String, Signature> SIGNATURES = Map.ofEntries(
            Map.entry("cuInit", sig(ret(JAVA_INT), "cuInit")),
            Map.entry("cuDriverGetVersion", sig(ret(ADDRESS), "cuDriverGetVersion")),
            Map.entry("cuGetErrorName", sig(ret(JAVA_INT, ADDRESS), "cuGetErrorName")),
            Map.entry("cuDeviceGetCount", sig(ret(ADDRESS), "cuDeviceGetCount")),
            Map.entry("cuDeviceGet", sig(ret(ADDRESS, JAVA_INT), "cuDeviceGet")),
            Map.entry("cuDeviceGetName", sig(ret(ADDRESS, JAVA_INT, JAVA_INT), "cuDeviceGetName")),
            Map.entry("cuDeviceGetUuid", sig(ret(ADDRESS, JAVA_INT), "cuDeviceGetUuid_v2", "cuDeviceGetUuid")),
            Map.entry("cuDeviceGetPCIBusId", sig(ret(ADDRESS, JAVA_INT, JAVA_INT), "cuDeviceGetPCIBusId")),
            Map.entry("cuDeviceTotalMem", sig(ret(ADDRESS, JAVA_INT), "cuDeviceTotalMem_v2")),
            Map.entry("cuDeviceGetAttribute", sig(ret(ADDRESS, JAVA_INT, JAVA_INT), "cuDeviceGetAttribute")),
            Map.entry("cuDevicePrimaryCtxRetain", sig(ret(ADDRESS, JAVA_INT), "cuDevicePrimaryCtxRetain")),
            Map.entry("cuDevicePrimaryCtxRelease", sig(ret(JAVA_INT), "cuDevicePrimaryCtxRelease_v2")),
            Map.entry("cuCtxSetCurrent", sig(ret(ADDRESS), "cuCtxSetCurrent")),
            Map.entry("cuCtxSynchronize", sig(ret(), "cuCtxSynchronize")),
            Map.entry("cuMemGetInfo", sig(ret(ADDRESS, ADDRESS), "cuMemGetInfo_v2")),
            Map.entry("cuMemAlloc", sig(ret(ADDRESS, JAVA_LONG), "cuMemAlloc_v2")),
            Map.entry("cuMemFree", sig(ret(JAVA_LONG), "cuMemFree_v2")),
            Map.entry("cuMemHostAlloc", sig(ret(ADDRESS, JAVA_LONG, JAVA_INT), "cuMemHostAlloc")),
            Map.entry("cuMemFreeHost", sig(ret(ADDRESS), "cuMemFreeHost")),
            Map.entry("cuMemHostRegister", sig(ret(ADDRESS, JAVA_LONG, JAVA_INT), "cuMemHostRegister_v2")),
            Map.entry("cuMemHostUnregister", sig(ret(ADDRESS), "cuMemHostUnregister")),
            Map.entry("cuMemHostGetDevicePointer", sig(ret(ADDRESS, ADDRESS, JAVA_INT), "cuMemHostGetDevicePointer_v2")),
            Map.entry("cuMemcpyHtoD", sig(ret(JAVA_LONG, ADDRESS, JAVA_LONG), "cuMemcpyHtoD_v2")),
            Map.entry("cuMemcpyDtoH", sig(ret(ADDRESS, JAVA_LONG, JAVA_LONG), "cuMemcpyDtoH_v2")),
            Map.entry("cuMemcpyHtoDAsync", sig(ret(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS), "cuMemcpyHtoDAsync_v2")),
            Map.entry("cuMemcpyDtoHAsync", sig(ret(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS), "cuMemcpyDtoHAsync_v2")),
            Map.entry("cuMemcpyDtoDAsync", sig(ret(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS), "cuMemcpyDtoDAsync_v2")),
            // Unified addressing: the driver finds each side's device from its address. nvbandwidth's
            // copies go through it; cuda.h maps the name to cuMemcpyAsync_ptsz only under per-thread
            // default streams, which hostside (like the other async copies here) does not use.
            Map.entry("cuMemcpyAsync", sig(ret(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS), "cuMemcpyAsync")),
            Map.entry("cuDeviceCanAccessPeer", sig(ret(ADDRESS, JAVA_INT, JAVA_INT), "cuDeviceCanAccessPeer")),
            Map.entry("cuDeviceGetP2PAttribute", sig(ret(ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT), "cuDeviceGetP2PAttribute")),
            Map.entry("cuCtxEnablePeerAccess", sig(ret(ADDRESS, JAVA_INT), "cuCtxEnablePeerAccess")),
            Map.entry("cuCtxDisablePeerAccess", sig(ret(ADDRESS), "cuCtxDisablePeerAccess")),
            Map.entry("cuStreamWaitEvent", sig(ret(ADDRESS, ADDRESS, JAVA_INT), "cuStreamWaitEvent")),
            Map.entry("cuMemAllocManaged", sig(ret(ADDRESS, JAVA_LONG, JAVA_INT), "cuMemAllocManaged")),
            // CUDA 12.2+: the destination is a CUmemLocation {int type; int id;} passed by value
            Map.entry("cuMemPrefetchAsync", sig(ret(JAVA_LONG, JAVA_LONG, Cuda.MEM_LOCATION, JAVA_INT, ADDRESS), "cuMemPrefetchAsync_v2")),
            Map.entry("cuMemGetAllocationGranularity", sig(ret(ADDRESS, ADDRESS, JAVA_INT), "cuMemGetAllocationGranularity")),
            // The VMM calls of the fabric readiness test (CUDA 10.2+; FABRIC handles 12.3+). A
            // CUmemGenericAllocationHandle is an unsigned long long; CUmemAllocationHandleType an enum (int).
            Map.entry("cuMemCreate", sig(ret(ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG), "cuMemCreate")),
            Map.entry("cuMemRelease", sig(ret(JAVA_LONG), "cuMemRelease")),
            Map.entry("cuMemExportToShareableHandle", sig(ret(ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG), "cuMemExportToShareableHandle")),
            Map.entry("cuMemImportFromShareableHandle", sig(ret(ADDRESS, ADDRESS, JAVA_INT), "cuMemImportFromShareableHandle")),
            Map.entry("cuStreamBeginCapture", sig(ret(ADDRESS, JAVA_INT), "cuStreamBeginCapture_v2")),
            Map.entry("cuStreamEndCapture", sig(ret(ADDRESS, ADDRESS), "cuStreamEndCapture")),
            // cuda.h maps cuGraphInstantiate to cuGraphInstantiateWithFlags (CUDA 11.4+)
            Map.entry("cuGraphInstantiate", sig(ret(ADDRESS, ADDRESS, JAVA_LONG), "cuGraphInstantiateWithFlags")),
            Map.entry("cuGraphLaunch", sig(ret(ADDRESS, ADDRESS), "cuGraphLaunch")),
            Map.entry("cuGraphExecDestroy", sig(ret(ADDRESS), "cuGraphExecDestroy")),
            Map.entry("cuGraphDestroy", sig(ret(ADDRESS), "cuGraphDestroy")),
            Map.entry("cuMemsetD32", sig(ret(JAVA_LONG, JAVA_INT, JAVA_LONG), "cuMemsetD32_v2")),
            Map.entry("cuStreamCreate", sig(ret(ADDRESS, JAVA_INT), "cuStreamCreate")),
            Map.entry("cuStreamDestroy", sig(ret(ADDRESS), "cuStreamDestroy_v2")),
            Map.entry("cuStreamSynchronize", sig(ret(ADDRESS), "cuStreamSynchronize")),
            Map.entry("cuEventCreate", sig(ret(ADDRESS, JAVA_INT), "cuEventCreate")),
            Map.entry("cuEventDestroy", sig(ret(ADDRESS), "cuEventDestroy_v2")),
            Map.entry("cuEventRecord", sig(ret(ADDRESS, ADDRESS), "cuEventRecord")),
            Map.entry("cuEventSynchronize", sig(ret(ADDRESS), "cuEventSynchronize")),
            Map.entry("cuEventElapsedTime", sig(ret(ADDRESS, ADDRESS, ADDRESS), "cuEventElapsedTime_v2", "cuEventElapsedTime")),
            Map.entry("cuModuleLoadData", sig(ret(ADDRESS, ADDRESS), "cuModuleLoadData")),
            Map.entry("cuModuleUnload", sig(ret(ADDRESS), "cuModuleUnload")),
            Map.entry("cuModuleGetFunction", sig(ret(ADDRESS, ADDRESS, ADDRESS), "cuModuleGetFunction")),
            Map.entry("cuLaunchKernel", sig(ret(ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, ADDRESS, ADDRESS, ADDRESS), "cuLaunchKernel")));

    /** The function's signature; null for one this binding does not declare. */
    static Signature of(String function) {
        return SIGNATURES.get(function);
    }

    /** The exported names of every declared function, for the tests that audit the table. */
    static Set<String> declaredNames() {
        return SIGNATURES.values().stream().flatMap(s -> s.names().stream()).collect(Collectors.toUnmodifiableSet());
    }
}
