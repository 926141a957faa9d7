/*
 * A fake libcuda.so.1 for the tests of hostside.gpu.cuda: the CUDA driver API, no GPU, no driver.
 *
 *   gcc -shared -fPIC -O1 -o DIR/libcuda.so.1 src/test/c/fake_cuda.c                  (a 13.0 driver)
 *   gcc -shared -fPIC -O1 -DFAKE_CUDA_OLD -o DIR/libcuda.so.1 src/test/c/fake_cuda.c  (an older one)
 *
 * It needs no NVIDIA header: the types and values below are copied from cuda.h of CUDA 13.0.
 * It exports the versioned names that header maps the plain names to (cuMemAlloc_v2, ...), as
 * the real library does, and checks what a real driver checks (cuInit first, a current context
 * for work, handles and pointers it gave out, buffer lengths, flags), so that a binding that
 * passes the wrong thing fails here and not on a GPU machine.
 *
 * Deliberately not exported:
 *   cuEventElapsedTime_v2   only the older cuEventElapsedTime is here (drivers before 12.8), so
 *                           the binding must fall back to it.
 * With -DFAKE_CUDA_OLD, also not:
 *   cuDeviceGetUuid_v2      only the older cuDeviceGetUuid (drivers before 11.4): a fallback again;
 *   cuMemPrefetchAsync_v2   (drivers before 12.2) a function the binding declares that is missing;
 *   cuMemcpyHtoD_v2, cuMemcpyDtoH_v2
 *                           a driver without functions the binding declares: has() is false and
 *                           a call is a CudaException, not a crash.
 *
 * GPU 0 "NVIDIA H200", 0000:1A:00.0, GPU-4a1bd2f4-9e3c-5a17-8f0e-2b6c7d8e9f01, 150754820096 bytes.
 * GPU 1 "NVIDIA H100 80GB HBM3", 0001:AB:00.0, GPU-00000000-1111-2222-3333-444444444444, 85520809984.
 * Further GPUs (up to 8) repeat GPU 0 with bus 0x1A + n. Attributes: 16 (SM count) is 132,
 * 88 and 100 (pageable memory access, through host page tables) are 0, 128 (fabric handles) is 1
 * and 132 (multicast) is 0, a few others as an H200 has them (the H200 VM answered 128 and 132
 * so); any other id is CUDA_ERROR_INVALID_VALUE, as a driver older than the attribute says.
 *
 * Memory: cuMemAlloc_v2 takes from the current device's free memory (fake_cuda_set_free_memory)
 * and says CUDA_ERROR_OUT_OF_MEMORY past it; device pointers are addresses nothing backs (do not
 * read them). Pinned host memory (cuMemHostAlloc) is real, zeroed, page-aligned memory; its device
 * pointer is its host address, as with unified addressing. Managed memory (cuMemAllocManaged) is
 * real, page-aligned host memory whose address is also its device pointer: copies and prefetches
 * accept it, cuMemFree_v2 frees it, and it does not count against the GPU's free memory.
 * cuMemPrefetchAsync_v2 takes its CUmemLocation by value and checks it (type 1 with a device
 * ordinal, or type 2 for the host; anything else is CUDA_ERROR_INVALID_VALUE), and that the range
 * is managed; a GPU whose concurrentManagedAccess is 0 is CUDA_ERROR_INVALID_DEVICE, as cuda.h says.
 * cuMemGetAllocationGranularity says 2 MiB (minimum and recommended) for pinned memory on a device.
 * cuMemCreate makes such memory (no mapping: nothing reads it); with CU_MEM_HANDLE_TYPE_FABRIC it
 * says CUDA_ERROR_NOT_SUPPORTED where attribute 128 is 0 and CUDA_ERROR_NOT_PERMITTED without an
 * IMEX channel (the default, as on the H200 VM). cuMemExportToShareableHandle writes a 64-byte
 * fabric handle, cuMemImportFromShareableHandle turns it into a second handle to the same memory,
 * and cuMemRelease frees the memory with its last handle. An IMEX daemon that refuses an export or
 * import is fake_cuda_fail: what the real driver answers then is not known to this fake.
 * The cuMulticast* functions are exported and always refuse: see MulticastGuardTest.
 * Contexts: primary contexts only, counted per device; the current one is per thread. When a
 * primary context is released to zero the real driver frees what is left in it; the fake keeps
 * counting those resources as live, so a test sees what the binding forgot to release, and any
 * later use of them is CUDA_ERROR_INVALID_CONTEXT.
 *
 * Test hooks, called through java.lang.foreign (no environment variables: Java cannot set them):
 *   fake_cuda_reset()                      everything back to the start: 2 GPUs, cuInit succeeds,
 *                                          nothing live, nothing failing, no cuInit yet
 *   fake_cuda_configure(init, n)           cuInit returns init (0: success); n GPUs (0..8)
 *   fake_cuda_set_free_memory(bytes)       free memory of every GPU, before allocations
 *   fake_cuda_set_elapsed_ms(ms)           what cuEventElapsedTime reports
 *   fake_cuda_set_attribute(attrib, value) what cuDeviceGetAttribute says for attrib on every GPU;
 *                                          FAKE_ATTRIBUTE_UNKNOWN (INT_MIN) makes it
 *                                          CUDA_ERROR_INVALID_VALUE, as an older driver says
 *   fake_cuda_fail(name, code, after)      the exported function name returns code once, after
 *                                          after more successful calls (0: the next call)
 *   fake_cuda_set_imex_channel(present)    whether the process may use an IMEX channel (default 0)
 *   fake_cuda_live_resources()             retained contexts + device and pinned allocations +
 *                                          host registrations + streams + events + modules +
 *                                          managed allocations + VMM handles
 *   fake_cuda_live(kind)                   one of those, kind "contexts", "device", "pinned",
 *                                          "registered", "streams", "events", "modules", "managed",
 *                                          "graphs" (captured and instantiated), "vmm" (handles
 *                                          from cuMemCreate and imports, not yet released)
 *   fake_cuda_graph_kernels_run()          kernels run by cuGraphLaunch since the reset
 *   fake_cuda_calls(name)                  calls of an exported function since the reset
 *   fake_cuda_last_launch_param(i)         the i-th 64-bit argument of the last cuLaunchKernel
 *   fake_cuda_last_launch(what)            its "gridX", "blockX", "sharedMem", "params", or
 *                                          "stream" (1: a stream of the fake, 0: NULL)
 *   fake_cuda_last_prefetch(what)          the last accepted cuMemPrefetchAsync_v2: "type", "id"
 *                                          (of its CUmemLocation), "ptr", "count", "flags",
 *                                          "stream" (1: a stream of the fake, 0: NULL)
 *   fake_cuda_set_peer(a, b, canAccess, atomics, arrayAccess, rank)
 *                                          what cuDeviceCanAccessPeer(a, b) and
 *                                          cuDeviceGetP2PAttribute(.., a, b) say; by default every
 *                                          pair can, with atomics and array access, rank 0 (one
 *                                          NVLink switch); rank FAKE_ATTRIBUTE_UNKNOWN makes the rank
 *                                          CUDA_ERROR_INVALID_VALUE
 *   fake_cuda_copies(kind)                 device-to-device copies since the reset: "peer" (direct,
 *                                          peer access enabled from the current context to the
 *                                          other GPU) or "staged" (between GPUs without it: the
 *                                          real driver stages them through host memory)
 *
 * Peer access (cuCtxEnablePeerAccess, cuCtxDisablePeerAccess) is kept per ordered pair of
 * primary contexts, with the driver's errors: PEER_ACCESS_UNSUPPORTED (217) where
 * cuDeviceCanAccessPeer says 0, PEER_ACCESS_ALREADY_ENABLED (704), PEER_ACCESS_NOT_ENABLED (705),
 * INVALID_CONTEXT for the current context itself; a context released to zero loses its peer
 * mappings both ways, as the driver unmaps them. fake_cuda_live("peers") counts enabled ones.
 * A kernel launched with a pointer argument inside another GPU's memory, without peer access
 * from the current context to that GPU, is CUDA_ERROR_ILLEGAL_ADDRESS: the real driver reports
 * that at the next synchronisation, the fake at the launch. Launches, event records and the
 * stream they name must belong to the current context (the function's module too), else
 * CUDA_ERROR_INVALID_HANDLE, as cuda.h requires of event and stream.
 */
#define _GNU_SOURCE /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- from cuda.h (CUDA 13.0) ---- */
typedef int CUresult;
typedef int CUdevice;                    /* CUdevice_v1: int */
typedef unsigned long long CUdeviceptr;  /* CUdeviceptr_v2: unsigned long long */
typedef struct { char bytes[16]; } CUuuid;

/* enum cudaError_enum, every value of it, in cuda.h's order */
static const struct { int code; const char *name; } ERRORS[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {5, "CUDA_ERROR_PROFILER_DISABLED"},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
    {205, "CUDA_ERROR_MAP_FAILED"},
    {206, "CUDA_ERROR_UNMAP_FAILED"},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED"},
    {208, "CUDA_ERROR_ALREADY_MAPPED"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED"},
    {211, "CUDA_ERROR_NOT_MAPPED"},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"},
    {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"},
    {226, "CUDA_ERROR_CONTAINED"},
    {300, "CUDA_ERROR_INVALID_SOURCE"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {401, "CUDA_ERROR_ILLEGAL_STATE"},
    {402, "CUDA_ERROR_LOSSY_QUERY"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
    {710, "CUDA_ERROR_ASSERT"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
    {718, "CUDA_ERROR_INVALID_PC"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
    {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"},
    {800, "CUDA_ERROR_NOT_PERMITTED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE"},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED"},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
    {907, "CUDA_ERROR_CAPTURED_EVENT"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
    {909, "CUDA_ERROR_TIMEOUT"},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
    {913, "CUDA_ERROR_FUNCTION_NOT_LOADED"},
    {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"},
    {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"},
    {916, "CUDA_ERROR_KEY_ROTATION"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_INVALID_IMAGE 200
#define CUDA_ERROR_ILLEGAL_STATE 401
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_INVALID_HANDLE 400
#define CUDA_ERROR_NOT_FOUND 500
#define CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED 712
#define CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED 713
#define CUDA_ERROR_PEER_ACCESS_UNSUPPORTED 217
#define CUDA_ERROR_ILLEGAL_ADDRESS 700
#define CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED 704
#define CUDA_ERROR_PEER_ACCESS_NOT_ENABLED 705

/* CUdevice_P2PAttribute */
#define P2P_ATTRIBUTE_PERFORMANCE_RANK 1
#define P2P_ATTRIBUTE_ACCESS_SUPPORTED 2
#define P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED 3
#define P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED 4
#define P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED 5

/* flags: CU_MEMHOSTALLOC_PORTABLE | DEVICEMAP | WRITECOMBINED; CU_MEMHOSTREGISTER_PORTABLE |
 * DEVICEMAP | IOMEMORY | READ_ONLY; CU_STREAM_NON_BLOCKING; CU_EVENT_BLOCKING_SYNC |
 * DISABLE_TIMING | INTERPROCESS */
#define MEMHOSTALLOC_FLAGS 0x07u
#define MEMHOSTREGISTER_FLAGS 0x0fu
#define STREAM_FLAGS 0x01u
#define EVENT_FLAGS 0x07u
#define EVENT_DISABLE_TIMING 0x02u

/* CUdevice_attribute */
#define ATTR_MAX_THREADS_PER_BLOCK 1
#define ATTR_MULTIPROCESSOR_COUNT 16
#define ATTR_CAN_MAP_HOST_MEMORY 19
#define ATTR_ASYNC_ENGINE_COUNT 40
#define ATTR_UNIFIED_ADDRESSING 41
#define ATTR_COMPUTE_CAPABILITY_MAJOR 75
#define ATTR_COMPUTE_CAPABILITY_MINOR 76
#define ATTR_PAGEABLE_MEMORY_ACCESS 88
#define ATTR_CONCURRENT_MANAGED_ACCESS 89
#define ATTR_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES 100
#define ATTR_HANDLE_TYPE_FABRIC_SUPPORTED 128
#define ATTR_MULTICAST_SUPPORTED 132

/* CUmemAttach_flags: cuMemAllocManaged takes GLOBAL or HOST */
#define MEM_ATTACH_GLOBAL 0x1u
#define MEM_ATTACH_HOST 0x2u
/* CUmemLocationType, CUmemAllocationType, CUmemAllocationGranularity_flags, CUmemAllocationHandleType */
#define MEM_LOCATION_TYPE_DEVICE 1
#define MEM_LOCATION_TYPE_HOST 2
#define MEM_ALLOCATION_TYPE_PINNED 1
#define MEM_ALLOC_GRANULARITY_MINIMUM 0
#define MEM_ALLOC_GRANULARITY_RECOMMENDED 1
#define MEM_HANDLE_TYPES 0x0f
#define MEM_HANDLE_TYPE_FABRIC 0x8
#define CUDA_ERROR_NOT_PERMITTED 800
#define CUDA_ERROR_NOT_SUPPORTED 801

typedef struct CUmemLocation_st {
    int type; /* CUmemLocationType */
    int id;
} CUmemLocation;

typedef struct CUmemAllocationProp_st {
    int type;                 /* CUmemAllocationType */
    int requestedHandleTypes; /* CUmemAllocationHandleType */
    CUmemLocation location;
    void *win32HandleMetaData;
    struct {
        unsigned char compressionType;
        unsigned char gpuDirectRDMACapable;
        unsigned short usage;
        unsigned char reserved[4];
    } allocFlags;
} CUmemAllocationProp;
typedef unsigned long long CUmemGenericAllocationHandle;
/* CU_IPC_HANDLE_SIZE bytes, opaque: what cuMemExportToShareableHandle writes for CU_MEM_HANDLE_TYPE_FABRIC */
typedef struct CUmemFabricHandle_st {
    unsigned char data[64];
} CUmemFabricHandle;
_Static_assert(sizeof(CUmemLocation) == 8, "CUmemLocation is two ints");
_Static_assert(sizeof(CUmemAllocationProp) == 32 && offsetof(CUmemAllocationProp, location) == 8,
               "CUmemAllocationProp as in cuda.h");
/* ---- end of cuda.h ---- */

#define EXPORT __attribute__((visibility("default")))
#define MAX_GPUS 8
#define MAX_OBJECTS 1024

typedef struct fake_gpu {
    const char *name;
    unsigned char uuid[16];
    unsigned int domain, bus;
    unsigned long long totalMemory;
} fake_gpu;

static const fake_gpu GPUS[2] = {
    {"NVIDIA H200",
     {0x4a, 0x1b, 0xd2, 0xf4, 0x9e, 0x3c, 0x5a, 0x17, 0x8f, 0x0e, 0x2b, 0x6c, 0x7d, 0x8e, 0x9f, 0x01},
     0x0000, 0x1a, 150754820096ULL},
    {"NVIDIA H100 80GB HBM3",
     {0x00, 0x00, 0x00, 0x00, 0x11, 0x11, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44},
     0x0001, 0xab, 85520809984ULL},
};

static const fake_gpu *gpu(int ordinal) {
    return &GPUS[ordinal == 1 ? 1 : 0];
}

/* A primary context; its handle is its address. A context destroyed (released to zero) gets a new
 * generation, so that a thread which still has it current is told it is gone. */
typedef struct fake_ctx {
    int device;
    int refcount;
    unsigned int generation;
} fake_ctx;

/* host is the memory behind a managed allocation (whose base is its address), NULL for device memory */
typedef struct { int live; fake_ctx *ctx; CUdeviceptr base; size_t size; char *host; } fake_dev_alloc;
typedef struct { int live; fake_ctx *ctx; char *base; size_t size; int registered; } fake_host_alloc;
typedef struct { int live; fake_ctx *ctx; int capturing, captured; } fake_stream;
/* a captured graph and an instantiated one: both just count the kernels they hold */
typedef struct { int live; int kernels; } fake_graph;
typedef struct { int live; fake_ctx *ctx; unsigned int flags; int recorded; } fake_event;
typedef struct { int live; fake_ctx *ctx; char *image; } fake_module;
typedef struct { fake_module *module; unsigned int moduleSerial; int params; } fake_function;

static int initResult, initialized, deviceCount;
static unsigned long long freeMemory;
static float elapsedMs;
static fake_ctx contexts[MAX_GPUS];
static unsigned long long used[MAX_GPUS];
static fake_dev_alloc devAllocs[MAX_OBJECTS];
static fake_host_alloc hostAllocs[MAX_OBJECTS];
static fake_stream streams[MAX_OBJECTS];
static fake_event events[MAX_OBJECTS];
static fake_graph graphs[MAX_OBJECTS], graphExecs[MAX_OBJECTS];
static unsigned long long graphKernelsRun;
static fake_module modules[MAX_OBJECTS];
static unsigned int moduleSerials[MAX_OBJECTS];
static fake_function functions[MAX_OBJECTS];
static int functionCount;
static CUdeviceptr nextDevicePointer;

/* Generic allocation handles (cuMemCreate, cuMemImportFromShareableHandle): an import is a handle
 * of its own to the memory of the allocation it came from (memory: that one's index), and the
 * memory is freed when the last handle to it is released, as cuda.h says of cuMemRelease. */
typedef struct { int live; int device; size_t size; int handleTypes; int memory; } fake_vmm_handle;
static fake_vmm_handle vmmHandles[MAX_OBJECTS];
/* whether this process may use an IMEX channel (/dev/nvidia-caps-imex-channels/channelN) */
static int imexChannel;

/* the link between two GPUs as the driver describes it, and peer access enabled from a to b */
static struct { int can, atomics, array, rank; } peerLinks[MAX_GPUS][MAX_GPUS];
static int peerEnabled[MAX_GPUS][MAX_GPUS];
static unsigned long long peerCopies, stagedCopies;

/* the context current on this thread, and its generation when it was made current */
static __thread fake_ctx *current;
static __thread unsigned int currentGeneration;

static struct {
    int gridX, blockX, sharedMem, params, stream;
    unsigned long long values[16];
} lastLaunch;

static struct {
    int type, id, stream;
    unsigned int flags;
    unsigned long long ptr, count;
} lastPrefetch;

/* attribute values set by fake_cuda_set_attribute, for every GPU */
#define FAKE_ATTRIBUTE_UNKNOWN INT_MIN
#define MAX_OVERRIDES 16
static struct { int set, attrib, value; } overrides[MAX_OVERRIDES];

/* ---- failures on request, and call counts ---- */
#define MAX_NAMES 96
static struct { char name[48]; int code; int after; } failures[8];
static struct { char name[48]; int calls; } counts[MAX_NAMES];

static int failurePoint(const char *fn) {
    int i;
    for (i = 0; i < MAX_NAMES; i++) {
        if (counts[i].name[0] == 0) {
            snprintf(counts[i].name, sizeof counts[i].name, "%s", fn);
            counts[i].calls = 1;
            break;
        }
        if (strcmp(counts[i].name, fn) == 0) {
            counts[i].calls++;
            break;
        }
    }
    for (i = 0; i < 8; i++) {
        if (failures[i].code == 0 || strcmp(failures[i].name, fn) != 0) continue;
        if (failures[i].after > 0) {
            failures[i].after--;
            continue;
        }
        int code = failures[i].code;
        failures[i].code = 0;
        failures[i].name[0] = 0;
        return code;
    }
    return CUDA_SUCCESS;
}

/* every exported driver function starts here */
/* The real driver is thread-safe (hostside copies to several GPUs from one thread each): every
 * exported function holds one recursive lock until it returns, released by gcc's cleanup
 * attribute on whatever path it leaves by. */
static pthread_mutex_t big_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static void unlock_big(int *unused) { (void)unused; pthread_mutex_unlock(&big_lock); }
#define ENTER()                                                                              \
    int locked_ __attribute__((cleanup(unlock_big), unused)) = pthread_mutex_lock(&big_lock); \
    do {                                                                                     \
        int injected_ = failurePoint(__func__);                                              \
        if (injected_ != CUDA_SUCCESS) return injected_;                                     \
    } while (0)
#define NEED_INIT()                                           \
    do {                                                      \
        if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;  \
    } while (0)

static int contextAlive(const fake_ctx *c) {
    return c != NULL && c->refcount > 0;
}

/* the current context, or NULL when there is none usable on this thread */
static fake_ctx *currentContext(void) {
    if (current == NULL || !contextAlive(current) || current->generation != currentGeneration) return NULL;
    return current;
}

#define NEED_CONTEXT(var)                                  \
    fake_ctx *var = currentContext();                      \
    do {                                                   \
        if (var == NULL) return CUDA_ERROR_INVALID_CONTEXT; \
    } while (0)

/* ---- test hooks ---- */

EXPORT void fake_cuda_reset(void) {
    int i;
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (hostAllocs[i].live && !hostAllocs[i].registered) free(hostAllocs[i].base);
        if (devAllocs[i].live && devAllocs[i].host != NULL) free(devAllocs[i].host);
        if (modules[i].live) free(modules[i].image);
    }
    memset(devAllocs, 0, sizeof devAllocs);
    memset(hostAllocs, 0, sizeof hostAllocs);
    memset(streams, 0, sizeof streams);
    memset(events, 0, sizeof events);
    memset(graphs, 0, sizeof graphs);
    memset(graphExecs, 0, sizeof graphExecs);
    graphKernelsRun = 0;
    memset(modules, 0, sizeof modules);
    memset(functions, 0, sizeof functions);
    memset(failures, 0, sizeof failures);
    memset(counts, 0, sizeof counts);
    memset(&lastLaunch, 0, sizeof lastLaunch);
    memset(&lastPrefetch, 0, sizeof lastPrefetch);
    memset(overrides, 0, sizeof overrides);
    memset(used, 0, sizeof used);
    memset(vmmHandles, 0, sizeof vmmHandles);
    imexChannel = 0;
    memset(peerEnabled, 0, sizeof peerEnabled);
    peerCopies = stagedCopies = 0;
    {
        int a, b;
        for (a = 0; a < MAX_GPUS; a++)
            for (b = 0; b < MAX_GPUS; b++) {
                peerLinks[a][b].can = a != b;
                peerLinks[a][b].atomics = a != b;
                peerLinks[a][b].array = a != b;
                peerLinks[a][b].rank = 0;
            }
    }
    functionCount = 0;
    for (i = 0; i < MAX_GPUS; i++) {
        contexts[i].device = i;
        contexts[i].refcount = 0;
        contexts[i].generation++;
    }
    current = NULL;
    initResult = CUDA_SUCCESS;
    initialized = 0;
    deviceCount = 2;
    freeMemory = GPUS[0].totalMemory - (512ULL << 20);
    elapsedMs = 1.0f;
    nextDevicePointer = 0x7f2a00000000ULL;
}

/* the state before the first reset is the state after one */
__attribute__((constructor)) static void fake_cuda_load(void) {
    fake_cuda_reset();
}

EXPORT void fake_cuda_configure(int init_result, int device_count) {
    initResult = init_result;
    deviceCount = device_count < 0 ? 0 : device_count > MAX_GPUS ? MAX_GPUS : device_count;
}

EXPORT void fake_cuda_set_free_memory(unsigned long long bytes) {
    freeMemory = bytes;
}

EXPORT void fake_cuda_set_elapsed_ms(float ms) {
    elapsedMs = ms;
}

EXPORT void fake_cuda_set_attribute(int attrib, int value) {
    int i, free_slot = -1;
    for (i = 0; i < MAX_OVERRIDES; i++) {
        if (overrides[i].set && overrides[i].attrib == attrib) {
            overrides[i].value = value;
            return;
        }
        if (!overrides[i].set && free_slot < 0) free_slot = i;
    }
    if (free_slot < 0) return;
    overrides[free_slot].set = 1;
    overrides[free_slot].attrib = attrib;
    overrides[free_slot].value = value;
}

EXPORT void fake_cuda_fail(const char *function, int code, int after) {
    int i;
    for (i = 0; i < 8; i++) {
        if (failures[i].code != 0) continue;
        snprintf(failures[i].name, sizeof failures[i].name, "%s", function);
        failures[i].code = code;
        failures[i].after = after;
        return;
    }
}

EXPORT int fake_cuda_calls(const char *function) {
    int i;
    for (i = 0; i < MAX_NAMES && counts[i].name[0]; i++)
        if (strcmp(counts[i].name, function) == 0) return counts[i].calls;
    return 0;
}

EXPORT int fake_cuda_live(const char *kind) {
    int i, n = 0;
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (strcmp(kind, "contexts") == 0 && i < MAX_GPUS) n += contexts[i].refcount;
        else if (strcmp(kind, "device") == 0) n += devAllocs[i].live && devAllocs[i].host == NULL;
        else if (strcmp(kind, "managed") == 0) n += devAllocs[i].live && devAllocs[i].host != NULL;
        else if (strcmp(kind, "pinned") == 0) n += hostAllocs[i].live && !hostAllocs[i].registered;
        else if (strcmp(kind, "registered") == 0) n += hostAllocs[i].live && hostAllocs[i].registered;
        else if (strcmp(kind, "streams") == 0) n += streams[i].live;
        else if (strcmp(kind, "events") == 0) n += events[i].live;
        else if (strcmp(kind, "modules") == 0) n += modules[i].live;
        else if (strcmp(kind, "graphs") == 0) n += graphs[i].live + graphExecs[i].live;
        else if (strcmp(kind, "vmm") == 0) n += vmmHandles[i].live;
        else if (strcmp(kind, "peers") == 0 && i < MAX_GPUS) {
            int j;
            for (j = 0; j < MAX_GPUS; j++) n += peerEnabled[i][j];
        }
    }
    return n;
}

EXPORT int fake_cuda_live_resources(void) {
    return fake_cuda_live("contexts") + fake_cuda_live("device") + fake_cuda_live("pinned") + fake_cuda_live("registered")
           + fake_cuda_live("streams") + fake_cuda_live("events") + fake_cuda_live("modules") + fake_cuda_live("managed")
           + fake_cuda_live("graphs") + fake_cuda_live("peers") + fake_cuda_live("vmm");
}

EXPORT unsigned long long fake_cuda_last_launch_param(int i) {
    return i >= 0 && i < 16 ? lastLaunch.values[i] : 0;
}

EXPORT int fake_cuda_last_launch(const char *what) {
    if (strcmp(what, "gridX") == 0) return lastLaunch.gridX;
    if (strcmp(what, "blockX") == 0) return lastLaunch.blockX;
    if (strcmp(what, "sharedMem") == 0) return lastLaunch.sharedMem;
    if (strcmp(what, "params") == 0) return lastLaunch.params;
    if (strcmp(what, "stream") == 0) return lastLaunch.stream;
    return -1;
}

EXPORT long long fake_cuda_last_prefetch(const char *what) {
    if (strcmp(what, "type") == 0) return lastPrefetch.type;
    if (strcmp(what, "id") == 0) return lastPrefetch.id;
    if (strcmp(what, "ptr") == 0) return (long long) lastPrefetch.ptr;
    if (strcmp(what, "count") == 0) return (long long) lastPrefetch.count;
    if (strcmp(what, "flags") == 0) return lastPrefetch.flags;
    if (strcmp(what, "stream") == 0) return lastPrefetch.stream;
    return -1;
}

EXPORT void fake_cuda_set_peer(int a, int b, int canAccess, int atomics, int arrayAccess, int rank) {
    if (a < 0 || a >= MAX_GPUS || b < 0 || b >= MAX_GPUS || a == b) return;
    peerLinks[a][b].can = canAccess;
    peerLinks[a][b].atomics = atomics;
    peerLinks[a][b].array = arrayAccess;
    peerLinks[a][b].rank = rank;
}

EXPORT void fake_cuda_set_imex_channel(int present) {
    imexChannel = present != 0;
}

EXPORT unsigned long long fake_cuda_copies(const char *kind) {
    if (strcmp(kind, "peer") == 0) return peerCopies;
    if (strcmp(kind, "staged") == 0) return stagedCopies;
    return 0;
}

/* ---- initialisation, errors, devices ---- */

EXPORT CUresult cuInit(unsigned int flags) {
    ENTER();
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (initResult != CUDA_SUCCESS) {
        initialized = 0;
        return initResult;
    }
    initialized = 1;
    return CUDA_SUCCESS;
}

/* answers before cuInit too, as the real one does */
EXPORT CUresult cuDriverGetVersion(int *driverVersion) {
    ENTER();
    if (driverVersion == NULL) return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = 13000;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr) {
    unsigned int i;
    ENTER();
    if (pStr == NULL) return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++) {
        if (ERRORS[i].code == error) {
            *pStr = ERRORS[i].name;
            return CUDA_SUCCESS;
        }
    }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
    ENTER();
    NEED_INIT();
    if (count == NULL) return CUDA_ERROR_INVALID_VALUE;
    *count = deviceCount;
    return CUDA_SUCCESS;
}

/* a CUdevice is its ordinal, as on the real driver; the fake checks it everywhere */
#define NEED_DEVICE(dev)                                                    \
    do {                                                                    \
        if ((dev) < 0 || (dev) >= deviceCount) return CUDA_ERROR_INVALID_DEVICE; \
    } while (0)

EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    ENTER();
    NEED_INIT();
    if (device == NULL) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(ordinal);
    *device = ordinal;
    return CUDA_SUCCESS;
}

/* truncates to len, as the real one does */
EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    ENTER();
    NEED_INIT();
    if (name == NULL || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(dev);
    snprintf(name, (size_t) len, "%s", gpu(dev)->name);
    return CUDA_SUCCESS;
}

#ifndef FAKE_CUDA_OLD
EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) {
#else
/* the name before CUDA 11.4; the same arguments (the _v2 one also answers for MIG instances) */
EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
#endif
    ENTER();
    NEED_INIT();
    if (uuid == NULL) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(dev);
    memcpy(uuid->bytes, gpu(dev)->uuid, 16);
    return CUDA_SUCCESS;
}

/* "0000:1A:00.0": four hex digits of domain, upper case; cuda.h asks for room for 13 chars */
EXPORT CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev) {
    ENTER();
    NEED_INIT();
    if (pciBusId == NULL || len < 13) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(dev);
    unsigned int bus = gpu(dev)->bus + (dev >= 2 ? (unsigned int) dev : 0);
    snprintf(pciBusId, (size_t) len, "%04X:%02X:00.0", gpu(dev)->domain, bus);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
    ENTER();
    NEED_INIT();
    if (bytes == NULL) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(dev);
    *bytes = gpu(dev)->totalMemory;
    return CUDA_SUCCESS;
}

/* an attribute's value on every GPU: 0 and *pi set, or CUDA_ERROR_INVALID_VALUE for one this driver does not know */
static CUresult attribute(int attrib, int *pi) {
    int i;
    for (i = 0; i < MAX_OVERRIDES; i++) {
        if (!overrides[i].set || overrides[i].attrib != attrib) continue;
        if (overrides[i].value == FAKE_ATTRIBUTE_UNKNOWN) return CUDA_ERROR_INVALID_VALUE;
        *pi = overrides[i].value;
        return CUDA_SUCCESS;
    }
    switch (attrib) {
    case ATTR_MAX_THREADS_PER_BLOCK: *pi = 1024; break;
    case ATTR_MULTIPROCESSOR_COUNT: *pi = 132; break;
    case ATTR_CAN_MAP_HOST_MEMORY: *pi = 1; break;
    case ATTR_ASYNC_ENGINE_COUNT: *pi = 4; break;
    case ATTR_UNIFIED_ADDRESSING: *pi = 1; break;
    case ATTR_COMPUTE_CAPABILITY_MAJOR: *pi = 9; break;
    case ATTR_COMPUTE_CAPABILITY_MINOR: *pi = 0; break;
    case ATTR_PAGEABLE_MEMORY_ACCESS: *pi = 0; break;
    case ATTR_CONCURRENT_MANAGED_ACCESS: *pi = 1; break;
    case ATTR_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES: *pi = 0; break;
    case ATTR_HANDLE_TYPE_FABRIC_SUPPORTED: *pi = 1; break;
    case ATTR_MULTICAST_SUPPORTED: *pi = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE; /* an attribute this driver does not know */
    }
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *pi, int attrib, CUdevice dev) {
    ENTER();
    NEED_INIT();
    if (pi == NULL) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(dev);
    return attribute(attrib, pi);
}

/* ---- contexts ---- */

EXPORT CUresult cuDevicePrimaryCtxRetain(fake_ctx **pctx, CUdevice dev) {
    ENTER();
    NEED_INIT();
    if (pctx == NULL) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(dev);
    contexts[dev].refcount++;
    *pctx = &contexts[dev];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    ENTER();
    NEED_INIT();
    NEED_DEVICE(dev);
    if (contexts[dev].refcount == 0) return CUDA_ERROR_INVALID_CONTEXT;
    if (--contexts[dev].refcount == 0) {
        int i;
        contexts[dev].generation++;
        for (i = 0; i < MAX_GPUS; i++) peerEnabled[dev][i] = peerEnabled[i][dev] = 0;
    }
    return CUDA_SUCCESS;
}

static int isContext(const fake_ctx *c) {
    return c >= &contexts[0] && c < &contexts[MAX_GPUS];
}

EXPORT CUresult cuCtxSetCurrent(fake_ctx *ctx) {
    ENTER();
    NEED_INIT();
    if (ctx == NULL) {
        current = NULL;
        return CUDA_SUCCESS;
    }
    if (!isContext(ctx) || !contextAlive(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    current = ctx;
    currentGeneration = ctx->generation;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxSynchronize(void) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    return CUDA_SUCCESS;
}

/* ---- peer access ---- */

EXPORT CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev) {
    ENTER();
    NEED_INIT();
    if (canAccessPeer == NULL) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(dev);
    NEED_DEVICE(peerDev);
    *canAccessPeer = dev != peerDev && peerLinks[dev][peerDev].can;
    return CUDA_SUCCESS;
}

/* a device with itself is CUDA_ERROR_INVALID_DEVICE, as the driver says */
EXPORT CUresult cuDeviceGetP2PAttribute(int *value, int attrib, CUdevice srcDevice, CUdevice dstDevice) {
    ENTER();
    NEED_INIT();
    if (value == NULL) return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(srcDevice);
    NEED_DEVICE(dstDevice);
    if (srcDevice == dstDevice) return CUDA_ERROR_INVALID_DEVICE;
    int can = peerLinks[srcDevice][dstDevice].can;
    switch (attrib) {
    case P2P_ATTRIBUTE_PERFORMANCE_RANK:
        if (peerLinks[srcDevice][dstDevice].rank == FAKE_ATTRIBUTE_UNKNOWN) return CUDA_ERROR_INVALID_VALUE;
        *value = can ? peerLinks[srcDevice][dstDevice].rank : 0;
        break;
    case P2P_ATTRIBUTE_ACCESS_SUPPORTED: *value = can; break;
    case P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED: *value = can && peerLinks[srcDevice][dstDevice].atomics; break;
    case P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED: *value = can && peerLinks[srcDevice][dstDevice].array; break;
    case P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED: *value = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* the current context may then reach peerContext's memory (one way only) */
EXPORT CUresult cuCtxEnablePeerAccess(fake_ctx *peerContext, unsigned int flags) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (!isContext(peerContext) || !contextAlive(peerContext) || peerContext == ctx) return CUDA_ERROR_INVALID_CONTEXT;
    if (!peerLinks[ctx->device][peerContext->device].can) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    if (peerEnabled[ctx->device][peerContext->device]) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    peerEnabled[ctx->device][peerContext->device] = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxDisablePeerAccess(fake_ctx *peerContext) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (!isContext(peerContext) || !contextAlive(peerContext)) return CUDA_ERROR_INVALID_CONTEXT;
    if (!peerEnabled[ctx->device][peerContext->device]) return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
    peerEnabled[ctx->device][peerContext->device] = 0;
    return CUDA_SUCCESS;
}

/* ---- memory ---- */

EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (free == NULL || total == NULL) return CUDA_ERROR_INVALID_VALUE;
    *total = gpu(ctx->device)->totalMemory;
    *free = freeMemory > used[ctx->device] ? freeMemory - used[ctx->device] : 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (dptr == NULL || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
    if (used[ctx->device] > freeMemory || bytesize > freeMemory - used[ctx->device]) return CUDA_ERROR_OUT_OF_MEMORY;
    for (i = 0; i < MAX_OBJECTS && devAllocs[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    devAllocs[i].live = 1;
    devAllocs[i].ctx = ctx;
    devAllocs[i].base = nextDevicePointer;
    devAllocs[i].size = bytesize;
    devAllocs[i].host = NULL;
    used[ctx->device] += bytesize;
    nextDevicePointer += (bytesize + (2ULL << 20) - 1) & ~((2ULL << 20) - 1); /* 2 MiB aligned, never reused */
    *dptr = devAllocs[i].base;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) {
    int i;
    ENTER();
    NEED_INIT();
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!devAllocs[i].live || devAllocs[i].base != dptr) continue;
        if (!contextAlive(devAllocs[i].ctx)) return CUDA_ERROR_INVALID_CONTEXT;
        devAllocs[i].live = 0;
        if (devAllocs[i].host != NULL) {
            free(devAllocs[i].host);
            devAllocs[i].host = NULL;
        } else {
            used[devAllocs[i].ctx->device] -= devAllocs[i].size;
        }
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

/* whether [p, p + n) lies in one live device allocation */
static int deviceRange(CUdeviceptr p, unsigned long long n) {
    int i;
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!devAllocs[i].live || !contextAlive(devAllocs[i].ctx)) continue;
        if (p >= devAllocs[i].base && n <= devAllocs[i].size && p - devAllocs[i].base <= devAllocs[i].size - n) return 1;
    }
    return 0;
}

/* the GPU whose memory (not managed) holds p, or -1 */
static int deviceOf(CUdeviceptr p) {
    int i;
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!devAllocs[i].live || devAllocs[i].host != NULL || !contextAlive(devAllocs[i].ctx)) continue;
        if (p >= devAllocs[i].base && p - devAllocs[i].base < devAllocs[i].size) return devAllocs[i].ctx->device;
    }
    return -1;
}

/* whether [p, p + n) lies in one live managed allocation (unused by the older driver, which cannot prefetch) */
static __attribute__((unused)) int managedRange(CUdeviceptr p, unsigned long long n) {
    int i;
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!devAllocs[i].live || devAllocs[i].host == NULL || !contextAlive(devAllocs[i].ctx)) continue;
        if (p >= devAllocs[i].base && n <= devAllocs[i].size && p - devAllocs[i].base <= devAllocs[i].size - n) return 1;
    }
    return 0;
}

/* Managed memory: real host memory, page-aligned and untouched (the CPU's first touch faults as
 * it would), whose address is its device pointer; copies take it as device memory. */
EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (dptr == NULL || bytesize == 0 || (flags != MEM_ATTACH_GLOBAL && flags != MEM_ATTACH_HOST)) return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < MAX_OBJECTS && devAllocs[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    size_t rounded = (bytesize + 4095) & ~(size_t) 4095;
    char *p = aligned_alloc(4096, rounded);
    if (p == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
    devAllocs[i].live = 1;
    devAllocs[i].ctx = ctx;
    devAllocs[i].base = (CUdeviceptr) (uintptr_t) p;
    devAllocs[i].size = bytesize;
    devAllocs[i].host = p;
    *dptr = devAllocs[i].base;
    return CUDA_SUCCESS;
}

/* the pinned allocation or registration that [p, p + n) lies in, or -1 */
static int hostRange(const void *p, unsigned long long n) {
    int i;
    const char *c = (const char *) p;
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!hostAllocs[i].live) continue;
        if (c >= hostAllocs[i].base && n <= hostAllocs[i].size && (size_t) (c - hostAllocs[i].base) <= hostAllocs[i].size - n)
            return i;
    }
    return -1;
}

EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int flags) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (pp == NULL || bytesize == 0 || (flags & ~MEMHOSTALLOC_FLAGS) != 0) return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < MAX_OBJECTS && hostAllocs[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    size_t rounded = (bytesize + 4095) & ~(size_t) 4095;
    char *p = aligned_alloc(4096, rounded);
    if (p == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
    memset(p, 0, rounded);
    hostAllocs[i].live = 1;
    hostAllocs[i].ctx = ctx;
    hostAllocs[i].base = p;
    hostAllocs[i].size = bytesize;
    hostAllocs[i].registered = 0;
    *pp = p;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemFreeHost(void *p) {
    int i;
    ENTER();
    NEED_INIT();
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!hostAllocs[i].live || hostAllocs[i].registered || hostAllocs[i].base != p) continue;
        if (!contextAlive(hostAllocs[i].ctx)) return CUDA_ERROR_INVALID_CONTEXT;
        free(hostAllocs[i].base);
        hostAllocs[i].live = 0;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int flags) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (p == NULL || bytesize == 0 || (flags & ~MEMHOSTREGISTER_FLAGS) != 0) return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!hostAllocs[i].live) continue;
        const char *a = hostAllocs[i].base, *b = (const char *) p;
        if (b < a + hostAllocs[i].size && a < b + bytesize) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    }
    for (i = 0; i < MAX_OBJECTS && hostAllocs[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    hostAllocs[i].live = 1;
    hostAllocs[i].ctx = ctx;
    hostAllocs[i].base = (char *) p;
    hostAllocs[i].size = bytesize;
    hostAllocs[i].registered = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemHostUnregister(void *p) {
    int i;
    ENTER();
    NEED_INIT();
    for (i = 0; i < MAX_OBJECTS; i++) {
        if (!hostAllocs[i].live || !hostAllocs[i].registered || hostAllocs[i].base != p) continue;
        if (!contextAlive(hostAllocs[i].ctx)) return CUDA_ERROR_INVALID_CONTEXT;
        hostAllocs[i].live = 0;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

/* with unified addressing the device pointer of page-locked memory is its host address */
EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int flags) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    if (pdptr == NULL || flags != 0 || hostRange(p, 1) < 0) return CUDA_ERROR_INVALID_VALUE;
    *pdptr = (CUdeviceptr) (uintptr_t) p;
    return CUDA_SUCCESS;
}

static int isStream(const fake_stream *s) {
    return s >= &streams[0] && s < &streams[MAX_OBJECTS] && s->live && contextAlive(s->ctx);
}

/* NULL is the legacy default stream */
#define NEED_STREAM(s)                                                      \
    do {                                                                    \
        if ((s) != NULL && !isStream(s)) return CUDA_ERROR_INVALID_HANDLE;  \
    } while (0)

#ifndef FAKE_CUDA_OLD
/* synchronous: on the legacy default stream, returns when the copy is done */
EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    if (src == NULL || !deviceRange(dst, n)) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    if (dst == NULL || !deviceRange(src, n)) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}
#endif

EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, fake_stream *stream) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    NEED_STREAM(stream);
    if (src == NULL || !deviceRange(dst, n)) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, fake_stream *stream) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    NEED_STREAM(stream);
    if (dst == NULL || !deviceRange(src, n)) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, fake_stream *stream) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    NEED_STREAM(stream);
    if (!deviceRange(dst, n) || !deviceRange(src, n)) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* Unified addressing: the driver tells device, managed and pinned host memory apart by address.
 * Between two GPUs the copy is direct where the current context has peer access to the other
 * GPU, else the real driver stages it through host memory; the fake counts which. */
EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, fake_stream *stream) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    NEED_STREAM(stream);
    int dstOk = deviceRange(dst, n) || hostRange((const void *) (uintptr_t) dst, n) >= 0;
    int srcOk = deviceRange(src, n) || hostRange((const void *) (uintptr_t) src, n) >= 0;
    if (n == 0 || !dstOk || !srcOk) return CUDA_ERROR_INVALID_VALUE;
    int a = deviceOf(src), b = deviceOf(dst);
    if (a >= 0 && b >= 0 && a != b) {
        int other = ctx->device == a ? b : a;
        if (other != ctx->device && peerEnabled[ctx->device][other]) peerCopies++;
        else stagedCopies++;
    }
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t n) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    (void) ui;
    if (dst % 4 != 0 || n > (~0ULL) / 4 || !deviceRange(dst, 4ULL * n)) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

#ifndef FAKE_CUDA_OLD
/* CUDA 12.2+: the destination is a CUmemLocation passed by value; flags must be 0 */
EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                                      fake_stream *hStream) {
    int cma = 0;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    NEED_STREAM(hStream);
    if (flags != 0 || count == 0 || !managedRange(devPtr, count)) return CUDA_ERROR_INVALID_VALUE;
    if (location.type == MEM_LOCATION_TYPE_DEVICE) {
        if (location.id < 0 || location.id >= deviceCount) return CUDA_ERROR_INVALID_VALUE;
        if (attribute(ATTR_CONCURRENT_MANAGED_ACCESS, &cma) != CUDA_SUCCESS || cma == 0) return CUDA_ERROR_INVALID_DEVICE;
    } else if (location.type != MEM_LOCATION_TYPE_HOST) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    lastPrefetch.type = location.type;
    lastPrefetch.id = location.id;
    lastPrefetch.ptr = devPtr;
    lastPrefetch.count = count;
    lastPrefetch.flags = flags;
    lastPrefetch.stream = hStream != NULL;
    return CUDA_SUCCESS;
}
#endif

/* pinned device memory only (what cuMemCreate makes): 2 MiB, minimum and recommended, as on an H100 */
EXPORT CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop, int option) {
    ENTER();
    NEED_INIT();
    if (granularity == NULL || prop == NULL) return CUDA_ERROR_INVALID_VALUE;
    if (option != MEM_ALLOC_GRANULARITY_MINIMUM && option != MEM_ALLOC_GRANULARITY_RECOMMENDED) return CUDA_ERROR_INVALID_VALUE;
    if (prop->type != MEM_ALLOCATION_TYPE_PINNED || (prop->requestedHandleTypes & ~MEM_HANDLE_TYPES) != 0) return CUDA_ERROR_INVALID_VALUE;
    if (prop->location.type != MEM_LOCATION_TYPE_DEVICE || prop->location.id < 0 || prop->location.id >= deviceCount)
        return CUDA_ERROR_INVALID_VALUE;
    *granularity = 2ULL << 20;
    return CUDA_SUCCESS;
}

/* ---- VMM allocations with shareable handles (cuMemCreate and friends) ---- */

/* Handles given out are index + this, so that a zero or made-up handle is told apart. */
#define VMM_HANDLE_BASE 0xfab0000000ULL
/* what a fabric handle of the fake holds: this tag, then the allocation's index */
static const char FABRIC_TAG[] = "fake-cuda-fabric";

static int vmmIndex(CUmemGenericAllocationHandle h) {
    if (h < VMM_HANDLE_BASE || h >= VMM_HANDLE_BASE + MAX_OBJECTS) return -1;
    int i = (int) (h - VMM_HANDLE_BASE);
    return vmmHandles[i].live ? i : -1;
}

static int vmmNewHandle(int device, size_t size, int handleTypes, int memory) {
    int i;
    for (i = 0; i < MAX_OBJECTS && vmmHandles[i].live; i++) {}
    if (i == MAX_OBJECTS) return -1;
    vmmHandles[i].live = 1;
    vmmHandles[i].device = device;
    vmmHandles[i].size = size;
    vmmHandles[i].handleTypes = handleTypes;
    vmmHandles[i].memory = memory < 0 ? i : memory;
    return i;
}

/* Pinned device memory, a multiple of the 2 MiB granularity. A fabric handle needs a GPU that
 * supports them (attribute 128; else CUDA_ERROR_NOT_SUPPORTED) and an IMEX channel this process
 * may use (fake_cuda_set_imex_channel; else CUDA_ERROR_NOT_PERMITTED, what the H200 with
 * attribute 128 = 1 and no /dev/nvidia-caps-imex-channels answered). */
EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                            unsigned long long flags) {
    int fabric = 0;
    ENTER();
    NEED_INIT();
    if (handle == NULL || prop == NULL || flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (prop->type != MEM_ALLOCATION_TYPE_PINNED || prop->location.type != MEM_LOCATION_TYPE_DEVICE) return CUDA_ERROR_INVALID_VALUE;
    if (prop->location.id < 0 || prop->location.id >= deviceCount) return CUDA_ERROR_INVALID_DEVICE;
    /* "In all other cases [than CU_MEM_HANDLE_TYPE_WIN32], this field is required to be zero." */
    if (prop->win32HandleMetaData != NULL || (prop->requestedHandleTypes & ~MEM_HANDLE_TYPES) != 0) return CUDA_ERROR_INVALID_VALUE;
    if (size == 0 || size % (2ULL << 20) != 0) return CUDA_ERROR_INVALID_VALUE;
    if (prop->requestedHandleTypes & MEM_HANDLE_TYPE_FABRIC) {
        if (attribute(ATTR_HANDLE_TYPE_FABRIC_SUPPORTED, &fabric) != CUDA_SUCCESS || fabric == 0) return CUDA_ERROR_NOT_SUPPORTED;
        if (!imexChannel) return CUDA_ERROR_NOT_PERMITTED;
    }
    int dev = prop->location.id;
    if (used[dev] > freeMemory || size > freeMemory - used[dev]) return CUDA_ERROR_OUT_OF_MEMORY;
    int i = vmmNewHandle(dev, size, prop->requestedHandleTypes, -1);
    if (i < 0) return CUDA_ERROR_OUT_OF_MEMORY;
    used[dev] += size;
    *handle = VMM_HANDLE_BASE + (CUmemGenericAllocationHandle) i;
    return CUDA_SUCCESS;
}

/* The fake exports fabric handles only, and only of allocations created to have one. */
EXPORT CUresult cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle, int handleType,
                                             unsigned long long flags) {
    ENTER();
    NEED_INIT();
    int i = vmmIndex(handle);
    if (shareableHandle == NULL || i < 0 || flags != 0 || handleType != MEM_HANDLE_TYPE_FABRIC) return CUDA_ERROR_INVALID_VALUE;
    if ((vmmHandles[i].handleTypes & MEM_HANDLE_TYPE_FABRIC) == 0) return CUDA_ERROR_INVALID_VALUE;
    CUmemFabricHandle out;
    memset(&out, 0, sizeof out);
    memcpy(out.data, FABRIC_TAG, sizeof FABRIC_TAG);
    int memory = vmmHandles[i].memory;
    memcpy(out.data + 32, &memory, sizeof memory);
    memcpy(shareableHandle, &out, sizeof out);
    return CUDA_SUCCESS;
}

/* A new handle to the memory the fabric handle names, which must still be held by some handle. */
EXPORT CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle, int shHandleType) {
    int memory, i, j;
    ENTER();
    NEED_INIT();
    if (handle == NULL || osHandle == NULL || shHandleType != MEM_HANDLE_TYPE_FABRIC) return CUDA_ERROR_INVALID_VALUE;
    const CUmemFabricHandle *in = (const CUmemFabricHandle *) osHandle;
    if (memcmp(in->data, FABRIC_TAG, sizeof FABRIC_TAG) != 0) return CUDA_ERROR_INVALID_VALUE;
    memcpy(&memory, in->data + 32, sizeof memory);
    if (memory < 0 || memory >= MAX_OBJECTS) return CUDA_ERROR_INVALID_VALUE;
    for (j = 0; j < MAX_OBJECTS; j++)
        if (vmmHandles[j].live && vmmHandles[j].memory == memory) break;
    if (j == MAX_OBJECTS) return CUDA_ERROR_INVALID_VALUE;
    i = vmmNewHandle(vmmHandles[j].device, vmmHandles[j].size, vmmHandles[j].handleTypes, memory);
    if (i < 0) return CUDA_ERROR_OUT_OF_MEMORY;
    *handle = VMM_HANDLE_BASE + (CUmemGenericAllocationHandle) i;
    return CUDA_SUCCESS;
}

/* cuda.h leaves a bad handle undefined; the fake says CUDA_ERROR_INVALID_VALUE, also for a second release */
EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
    int j;
    ENTER();
    NEED_INIT();
    int i = vmmIndex(handle);
    if (i < 0) return CUDA_ERROR_INVALID_VALUE;
    vmmHandles[i].live = 0;
    for (j = 0; j < MAX_OBJECTS; j++)
        if (vmmHandles[j].live && vmmHandles[j].memory == vmmHandles[i].memory) return CUDA_SUCCESS;
    used[vmmHandles[i].device] -= vmmHandles[i].size;
    return CUDA_SUCCESS;
}

/* Multicast objects (NVLS), exported only so that a call would be counted (fake_cuda_calls):
 * hostside never makes one, since creating them can take shared GPUs out of service, and
 * MulticastGuardTest fails if it ever does. Each says CUDA_ERROR_NOT_PERMITTED. */
EXPORT CUresult cuMulticastCreate(CUmemGenericAllocationHandle *mcHandle, const void *prop) {
    ENTER();
    (void) mcHandle;
    (void) prop;
    return CUDA_ERROR_NOT_PERMITTED;
}

EXPORT CUresult cuMulticastAddDevice(CUmemGenericAllocationHandle mcHandle, CUdevice dev) {
    ENTER();
    (void) mcHandle;
    (void) dev;
    return CUDA_ERROR_NOT_PERMITTED;
}

EXPORT CUresult cuMulticastBindMem(CUmemGenericAllocationHandle mcHandle, size_t mcOffset, CUmemGenericAllocationHandle memHandle,
                                   size_t memOffset, size_t size, unsigned long long flags) {
    ENTER();
    (void) mcHandle, (void) mcOffset, (void) memHandle, (void) memOffset, (void) size, (void) flags;
    return CUDA_ERROR_NOT_PERMITTED;
}

EXPORT CUresult cuMulticastBindAddr(CUmemGenericAllocationHandle mcHandle, size_t mcOffset, CUdeviceptr memptr, size_t size,
                                    unsigned long long flags) {
    ENTER();
    (void) mcHandle, (void) mcOffset, (void) memptr, (void) size, (void) flags;
    return CUDA_ERROR_NOT_PERMITTED;
}

EXPORT CUresult cuMulticastUnbind(CUmemGenericAllocationHandle mcHandle, CUdevice dev, size_t mcOffset, size_t size) {
    ENTER();
    (void) mcHandle, (void) dev, (void) mcOffset, (void) size;
    return CUDA_ERROR_NOT_PERMITTED;
}

EXPORT CUresult cuMulticastGetGranularity(size_t *granularity, const void *prop, int option) {
    ENTER();
    (void) granularity, (void) prop, (void) option;
    return CUDA_ERROR_NOT_PERMITTED;
}

/* ---- streams and events ---- */

EXPORT CUresult cuStreamCreate(fake_stream **phStream, unsigned int flags) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (phStream == NULL || (flags & ~STREAM_FLAGS) != 0) return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < MAX_OBJECTS && streams[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    streams[i].live = 1;
    streams[i].ctx = ctx;
    *phStream = &streams[i];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamDestroy_v2(fake_stream *hStream) {
    ENTER();
    NEED_INIT();
    if (hStream == NULL || !isStream(hStream)) return CUDA_ERROR_INVALID_HANDLE;
    hStream->live = 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamSynchronize(fake_stream *hStream) {
    ENTER();
    NEED_INIT();
    NEED_STREAM(hStream);
    if (hStream == NULL && currentContext() == NULL) return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_SUCCESS;
}

static int isEvent(const fake_event *e) {
    return e >= &events[0] && e < &events[MAX_OBJECTS] && e->live && contextAlive(e->ctx);
}

EXPORT CUresult cuStreamWaitEvent(fake_stream *hStream, fake_event *hEvent, unsigned int flags) {
    ENTER();
    NEED_INIT();
    NEED_STREAM(hStream);
    if (!isEvent(hEvent)) return CUDA_ERROR_INVALID_HANDLE;
    if (flags != 0 && flags != 1) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuEventCreate(fake_event **phEvent, unsigned int flags) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (phEvent == NULL || (flags & ~EVENT_FLAGS) != 0) return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < MAX_OBJECTS && events[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    events[i].live = 1;
    events[i].ctx = ctx;
    events[i].flags = flags;
    events[i].recorded = 0;
    *phEvent = &events[i];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuEventDestroy_v2(fake_event *hEvent) {
    ENTER();
    NEED_INIT();
    if (!isEvent(hEvent)) return CUDA_ERROR_INVALID_HANDLE;
    hEvent->live = 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuEventRecord(fake_event *hEvent, fake_stream *hStream) {
    ENTER();
    NEED_INIT();
    if (!isEvent(hEvent)) return CUDA_ERROR_INVALID_HANDLE;
    NEED_STREAM(hStream);
    /* cuda.h: event and stream must be of the same context (the legacy stream: the current one's) */
    if (hEvent->ctx != (hStream != NULL ? hStream->ctx : currentContext())) return CUDA_ERROR_INVALID_HANDLE;
    hEvent->recorded = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuEventSynchronize(fake_event *hEvent) {
    ENTER();
    NEED_INIT();
    if (!isEvent(hEvent)) return CUDA_ERROR_INVALID_HANDLE;
    return CUDA_SUCCESS;
}

/* only the unversioned name: drivers before 12.8 have no cuEventElapsedTime_v2 */
EXPORT CUresult cuEventElapsedTime(float *pMilliseconds, fake_event *hStart, fake_event *hEnd) {
    ENTER();
    NEED_INIT();
    if (pMilliseconds == NULL) return CUDA_ERROR_INVALID_VALUE;
    if (!isEvent(hStart) || !isEvent(hEnd)) return CUDA_ERROR_INVALID_HANDLE;
    /* cuda.h: not recorded, or created with CU_EVENT_DISABLE_TIMING, is INVALID_HANDLE */
    if (!hStart->recorded || !hEnd->recorded) return CUDA_ERROR_INVALID_HANDLE;
    if ((hStart->flags | hEnd->flags) & EVENT_DISABLE_TIMING) return CUDA_ERROR_INVALID_HANDLE;
    *pMilliseconds = elapsedMs;
    return CUDA_SUCCESS;
}

/* ---- modules and launches ---- */

static int isModule(const fake_module *m) {
    return m >= &modules[0] && m < &modules[MAX_OBJECTS] && m->live && contextAlive(m->ctx);
}

/* PTX text only: it must say its .version and .target, as ptxas wants */
EXPORT CUresult cuModuleLoadData(fake_module **module, const void *image) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    if (module == NULL || image == NULL) return CUDA_ERROR_INVALID_VALUE;
    const char *ptx = (const char *) image;
    if (strstr(ptx, ".version") == NULL || strstr(ptx, ".target") == NULL) return CUDA_ERROR_INVALID_IMAGE;
    for (i = 0; i < MAX_OBJECTS && modules[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    size_t length = strlen(ptx) + 1;
    modules[i].image = malloc(length);
    if (modules[i].image == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(modules[i].image, ptx, length);
    modules[i].live = 1;
    modules[i].ctx = ctx;
    moduleSerials[i]++;
    *module = &modules[i];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleUnload(fake_module *hmod) {
    ENTER();
    NEED_INIT();
    if (!isModule(hmod)) return CUDA_ERROR_INVALID_HANDLE;
    free(hmod->image);
    hmod->image = NULL;
    hmod->live = 0;
    return CUDA_SUCCESS;
}

/* ".entry NAME(" in the module's PTX; the number of ".param"s up to the closing parenthesis */
static int entryParams(const char *ptx, const char *name) {
    size_t n = strlen(name);
    const char *p = ptx;
    while ((p = strstr(p, ".entry")) != NULL) {
        p += 6;
        while (*p == ' ' || *p == '\t') p++;
        if (strncmp(p, name, n) != 0) continue;
        const char *q = p + n;
        while (*q == ' ' || *q == '\t') q++;
        if (*q != '(') continue;
        const char *end = strchr(q, ')');
        if (end == NULL) return -1;
        int params = 0;
        const char *r = q;
        while ((r = strstr(r, ".param")) != NULL && r < end) {
            params++;
            r += 6;
        }
        return params;
    }
    return -1;
}

EXPORT CUresult cuModuleGetFunction(fake_function **hfunc, fake_module *hmod, const char *name) {
    ENTER();
    NEED_INIT();
    if (hfunc == NULL || name == NULL) return CUDA_ERROR_INVALID_VALUE;
    if (!isModule(hmod)) return CUDA_ERROR_INVALID_HANDLE;
    int params = entryParams(hmod->image, name);
    if (params < 0) return CUDA_ERROR_NOT_FOUND;
    if (functionCount == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    fake_function *f = &functions[functionCount++];
    f->module = hmod;
    f->moduleSerial = moduleSerials[hmod - modules];
    f->params = params;
    *hfunc = f;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuLaunchKernel(fake_function *f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                               unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                               unsigned int sharedMemBytes, fake_stream *hStream, void **kernelParams, void **extra) {
    int i;
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    if (f < &functions[0] || f >= &functions[functionCount]) return CUDA_ERROR_INVALID_HANDLE;
    if (!isModule(f->module) || moduleSerials[f->module - modules] != f->moduleSerial) return CUDA_ERROR_INVALID_HANDLE;
    NEED_STREAM(hStream);
    if (f->module->ctx != ctx || (hStream != NULL && hStream->ctx != ctx)) return CUDA_ERROR_INVALID_HANDLE;
    if (gridDimX == 0 || gridDimY == 0 || gridDimZ == 0 || blockDimX == 0 || blockDimY == 0 || blockDimZ == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if ((unsigned long long) blockDimX * blockDimY * blockDimZ > 1024) return CUDA_ERROR_INVALID_VALUE;
    if (sharedMemBytes > 48 * 1024) return CUDA_ERROR_INVALID_VALUE;
    if (extra != NULL) return CUDA_ERROR_INVALID_VALUE; /* the binding never passes extra */
    if (f->params > 0 && kernelParams == NULL) return CUDA_ERROR_INVALID_VALUE;
    memset(&lastLaunch, 0, sizeof lastLaunch);
    for (i = 0; i < f->params && i < 16; i++) {
        if (kernelParams[i] == NULL) return CUDA_ERROR_INVALID_VALUE;
        memcpy(&lastLaunch.values[i], kernelParams[i], 8); /* every parameter of these kernels is .u64 */
        int owner = deviceOf((CUdeviceptr) lastLaunch.values[i]);
        if (owner >= 0 && owner != ctx->device && !peerEnabled[ctx->device][owner]) return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    lastLaunch.gridX = (int) gridDimX;
    lastLaunch.blockX = (int) blockDimX;
    lastLaunch.sharedMem = (int) sharedMemBytes;
    lastLaunch.params = f->params;
    lastLaunch.stream = hStream != NULL;
    if (hStream != NULL && hStream->capturing) hStream->captured++;
    return CUDA_SUCCESS;
}

/* ---- graphs: stream capture records launches; a launched graph "runs" its kernels at once ---- */
EXPORT CUresult cuStreamBeginCapture_v2(fake_stream *hStream, int mode) {
    ENTER();
    NEED_INIT();
    NEED_CONTEXT(ctx);
    (void) ctx;
    if (hStream == NULL || !isStream(hStream)) return CUDA_ERROR_INVALID_HANDLE; /* the legacy stream cannot capture */
    if (mode < 0 || mode > 2) return CUDA_ERROR_INVALID_VALUE;
    if (hStream->capturing) return CUDA_ERROR_ILLEGAL_STATE;
    hStream->capturing = 1;
    hStream->captured = 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamEndCapture(fake_stream *hStream, fake_graph **phGraph) {
    int i;
    ENTER();
    NEED_INIT();
    if (hStream == NULL || !isStream(hStream) || phGraph == NULL) return CUDA_ERROR_INVALID_VALUE;
    if (!hStream->capturing) return CUDA_ERROR_ILLEGAL_STATE;
    hStream->capturing = 0;
    for (i = 0; i < MAX_OBJECTS && graphs[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    graphs[i].live = 1;
    graphs[i].kernels = hStream->captured;
    *phGraph = &graphs[i];
    return CUDA_SUCCESS;
}

static int isGraph(const fake_graph *g, const fake_graph *table) {
    return g >= &table[0] && g < &table[MAX_OBJECTS] && g->live;
}

EXPORT CUresult cuGraphInstantiateWithFlags(fake_graph **phGraphExec, fake_graph *hGraph, unsigned long long flags) {
    int i;
    ENTER();
    NEED_INIT();
    if (phGraphExec == NULL || !isGraph(hGraph, graphs)) return CUDA_ERROR_INVALID_VALUE;
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < MAX_OBJECTS && graphExecs[i].live; i++) {}
    if (i == MAX_OBJECTS) return CUDA_ERROR_OUT_OF_MEMORY;
    graphExecs[i].live = 1;
    graphExecs[i].kernels = hGraph->kernels;
    *phGraphExec = &graphExecs[i];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuGraphLaunch(fake_graph *hGraphExec, fake_stream *hStream) {
    ENTER();
    NEED_INIT();
    if (!isGraph(hGraphExec, graphExecs)) return CUDA_ERROR_INVALID_VALUE;
    NEED_STREAM(hStream);
    graphKernelsRun += (unsigned long long) hGraphExec->kernels;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuGraphExecDestroy(fake_graph *hGraphExec) {
    ENTER();
    if (!isGraph(hGraphExec, graphExecs)) return CUDA_ERROR_INVALID_VALUE;
    hGraphExec->live = 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuGraphDestroy(fake_graph *hGraph) {
    ENTER();
    if (!isGraph(hGraph, graphs)) return CUDA_ERROR_INVALID_VALUE;
    hGraph->live = 0;
    return CUDA_SUCCESS;
}

/* kernels run by graph launches since the reset */
EXPORT unsigned long long fake_cuda_graph_kernels_run(void) {
    return graphKernelsRun;
}
