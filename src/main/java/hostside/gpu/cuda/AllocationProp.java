package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Arrays;

/**
 * CUmemAllocationProp, the description of a CUDA VMM allocation (cuMemCreate,
 * cuMemGetAllocationGranularity): its layout, checked against CUDA 13.0's cuda.h by
 * CudaLayoutsTest, and the one kind hostside asks for, pinned memory on a GPU.
 */
final class AllocationProp {
    private AllocationProp() {}

    /**
     * 32 bytes: type, requestedHandleTypes, location {type, id}, win32HandleMetaData, allocFlags
     * {compressionType, gpuDirectRDMACapable, usage, reserved[4]}.
     */
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("type"), JAVA_INT.withName("requestedHandleTypes"), Cuda.MEM_LOCATION.withName("location"),
            ADDRESS.withName("win32HandleMetaData"), JAVA_LONG.withName("allocFlags"));

    private static final long PROP_TYPE = offset("type"), PROP_HANDLE_TYPES = offset("requestedHandleTypes"),
            PROP_LOCATION_TYPE = offset("location", "type"), PROP_LOCATION_ID = offset("location", "id");

    private static long offset(String... path) {
        return LAYOUT.byteOffset(Arrays.stream(path)
                .map(MemoryLayout.PathElement::groupElement).toArray(MemoryLayout.PathElement[]::new));
    }

    /**
     * A CUmemAllocationProp for pinned memory on {@code device}, exportable as {@code handleTypes}
     * (a CU_MEM_HANDLE_TYPE_ mask, 0 for none); the rest zero, as cuda.h requires of
     * win32HandleMetaData off Windows.
     */
    static MemorySegment pinnedOnDevice(Arena arena, int device, int handleTypes) {
        MemorySegment prop = arena.allocate(LAYOUT); // zeroed
        prop.set(JAVA_INT, PROP_TYPE, Cuda.MEM_ALLOCATION_TYPE_PINNED);
        prop.set(JAVA_INT, PROP_HANDLE_TYPES, handleTypes);
        prop.set(JAVA_INT, PROP_LOCATION_TYPE, Cuda.MEM_LOCATION_TYPE_DEVICE);
        prop.set(JAVA_INT, PROP_LOCATION_ID, device);
        return prop;
    }

}
