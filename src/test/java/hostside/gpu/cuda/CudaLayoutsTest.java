package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * The CUDA structs the binding builds, against what gcc said of CUDA 13.0's cuda.h on the dev VM
 * (/usr/local/cuda-13.0/include): sizeof(CUmemAllocationProp) 32, offsetof type 0,
 * requestedHandleTypes 4, location 8, location.id 12, win32HandleMetaData 16, allocFlags 24;
 * sizeof(CUmemFabricHandle) 64. The fake driver asserts the same with _Static_assert, but it
 * copies the header, so a wrong copy there and here would agree; these numbers are the header's.
 */
class CudaLayoutsTest {
    @Test
    void memAllocationPropIsLaidOutAsCudaH() {
        var l = AllocationProp.LAYOUT;
        assertThat(l.byteSize()).isEqualTo(32);
        assertThat(l.byteOffset(PathElement.groupElement("type"))).isZero();
        assertThat(l.byteOffset(PathElement.groupElement("requestedHandleTypes"))).isEqualTo(4);
        assertThat(l.byteOffset(PathElement.groupElement("location"), PathElement.groupElement("type"))).isEqualTo(8);
        assertThat(l.byteOffset(PathElement.groupElement("location"), PathElement.groupElement("id"))).isEqualTo(12);
        assertThat(l.byteOffset(PathElement.groupElement("win32HandleMetaData"))).isEqualTo(16);
        assertThat(l.byteOffset(PathElement.groupElement("allocFlags"))).isEqualTo(24);
        assertThat(Cuda.FABRIC_HANDLE_SIZE).isEqualTo(64);
    }

    @Test
    void aPinnedFabricPropHasTheValuesWhereTheDriverReadsThem() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = AllocationProp.pinnedOnDevice(a, 3, Cuda.MEM_HANDLE_TYPE_FABRIC);
            assertThat(p.get(ValueLayout.JAVA_INT, 0)).isEqualTo(1);   // CU_MEM_ALLOCATION_TYPE_PINNED
            assertThat(p.get(ValueLayout.JAVA_INT, 4)).isEqualTo(0x8); // CU_MEM_HANDLE_TYPE_FABRIC
            assertThat(p.get(ValueLayout.JAVA_INT, 8)).isEqualTo(1);   // CU_MEM_LOCATION_TYPE_DEVICE
            assertThat(p.get(ValueLayout.JAVA_INT, 12)).isEqualTo(3);
            assertThat(p.get(ValueLayout.JAVA_LONG, 16)).isZero();     // win32HandleMetaData must be zero off Windows
            assertThat(p.get(ValueLayout.JAVA_LONG, 24)).isZero();
        }
    }
}
