package hostside.gpu.nvml;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static hostside.gpu.nvml.NvmlTypes.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The binding against the fake libnvidia-ml.so.1: opening, error naming, lazy lookup, shutdown. */
class NvmlBindingTest {

    private static Nvml openFake() {
        NvmlResult<Nvml> r = Nvml.open(FakeNvml.library());
        assertThat(r.why()).isNull();
        return r.orNull();
    }

    @Test
    void opensInitialisesAndShutsDownOnClose() {
        int before = FakeNvml.initCount(CURRENT);
        try (Nvml a = openFake(); Nvml b = openFake()) {
            assertThat(FakeNvml.initCount(CURRENT)).isEqualTo(before + 2);
            assertThat(a.library()).isEqualTo(FakeNvml.library());
            assertThat(b.getInt(NvmlFunction.DEVICE_GET_COUNT_V2).orNull()).isEqualTo(2);
        }
        assertThat(FakeNvml.initCount(CURRENT)).isEqualTo(before);
    }

    @Test
    void closeIsIdempotentAndCallsAfterCloseAreRefused() {
        Nvml nvml = openFake();
        int open = FakeNvml.initCount(CURRENT);
        nvml.close();
        nvml.close();
        assertThat(FakeNvml.initCount(CURRENT)).isEqualTo(open - 1);
        assertThatThrownBy(() -> nvml.call(NvmlFunction.DEVICE_GET_COUNT_V2, MemorySegment.NULL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("nvmlDeviceGetCount_v2");
        // the error words need no init
        assertThat(nvml.errorString(NVML_ERROR_NOT_SUPPORTED)).isEqualTo("Not Supported");
    }

    @Test
    void aMissingLibraryIsAReasonNotAnException() {
        NvmlResult<Nvml> r = Nvml.open("/nonexistent/dir/libnvidia-ml.so.1");
        assertThat(r.isKnown()).isFalse();
        assertThat(r.why()).isEqualTo("no NVIDIA driver (/nonexistent/dir/libnvidia-ml.so.1 not found)");
        assertThat(((NvmlResult.Unknown<Nvml>) r).code()).isEqualTo(NVML_ERROR_LIBRARY_NOT_FOUND);

        // a bare name goes through the loader's search path, as libnvidia-ml.so.1 does on a machine without a driver
        assertThat(Nvml.open("libnvidia-ml-hostside-absent.so.1").why())
                .isEqualTo("no NVIDIA driver (libnvidia-ml-hostside-absent.so.1 not found)");
    }

    @Test
    void aLibraryWithoutNvmlInitIsAReason() {
        // libc is loadable and surely has no nvmlInit_v2
        NvmlResult<Nvml> r = Nvml.open("libc.so.6");
        assertThat(r.why()).startsWith("libc.so.6 has no nvmlInit_v2");
    }

    @Test
    void theSystemPropertyChoosesTheLibrary() {
        String old = System.getProperty(Nvml.LIBRARY_PROPERTY);
        try {
            System.clearProperty(Nvml.LIBRARY_PROPERTY);
            assertThat(Nvml.defaultLibrary()).isEqualTo("libnvidia-ml.so.1");
            System.setProperty(Nvml.LIBRARY_PROPERTY, "/nonexistent/libnvidia-ml.so.1");
            assertThat(Nvml.open().why()).isEqualTo("no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
            System.setProperty(Nvml.LIBRARY_PROPERTY, FakeNvml.library());
            try (Nvml nvml = Nvml.open().orNull()) {
                assertThat(nvml).isNotNull();
                assertThat(nvml.library()).isEqualTo(FakeNvml.library());
            }
        } finally {
            if (old == null) System.clearProperty(Nvml.LIBRARY_PROPERTY);
            else System.setProperty(Nvml.LIBRARY_PROPERTY, old);
        }
    }

    @Test
    void initFailuresAreReasonsWithNvmlsWords() {
        int before = FakeNvml.initCount(CURRENT);
        try {
            FakeNvml.setInitResult(CURRENT, NVML_ERROR_DRIVER_NOT_LOADED);
            NvmlResult<Nvml> r = Nvml.open(FakeNvml.library());
            assertThat(r.why()).isEqualTo("NVIDIA driver not loaded (nvmlInit_v2: Driver Not Loaded (9))");
            assertThat(((NvmlResult.Unknown<Nvml>) r).code()).isEqualTo(NVML_ERROR_DRIVER_NOT_LOADED);

            FakeNvml.setInitResult(CURRENT, NVML_ERROR_LIB_RM_VERSION_MISMATCH);
            assertThat(Nvml.open(FakeNvml.library()).why())
                    .startsWith("NVML library and kernel driver versions differ")
                    .endsWith("(nvmlInit_v2: RM has detected an NVML/RM version mismatch. (18))");

            FakeNvml.setInitResult(CURRENT, NVML_ERROR_UNKNOWN);
            assertThat(Nvml.open(FakeNvml.library()).why()).isEqualTo("NVML did not initialise (nvmlInit_v2: Unknown Error (999))");
        } finally {
            FakeNvml.setInitResult(CURRENT, NVML_SUCCESS);
        }
        assertThat(FakeNvml.initCount(CURRENT)).isEqualTo(before);
    }

    @Test
    void failuresNameTheCallTheReasonAndTheCode() {
        try (Nvml nvml = openFake()) {
            MemorySegment gpu1 = nvml.device(1).orNull();
            assertThatThrownBy(() -> nvml.check(NvmlFunction.DEVICE_GET_NUMA_NODE_ID, gpu1, MemorySegment.NULL))
                    .isInstanceOf(NvmlException.class)
                    .hasMessage("nvmlDeviceGetNumaNodeId: Invalid Argument (2)");

            NvmlException e = nvml.failure(NvmlFunction.DEVICE_GET_NUMA_NODE_ID, NVML_ERROR_NOT_SUPPORTED);
            assertThat(e.getMessage()).isEqualTo("nvmlDeviceGetNumaNodeId: Not Supported (3)");
            assertThat(e.function()).isEqualTo("nvmlDeviceGetNumaNodeId");
            assertThat(e.code()).isEqualTo(3);
            assertThat(e.reason()).isEqualTo("Not Supported (3)");
            assertThat(e.isNormalState()).isTrue();

            // a normal state is an Unknown with the same words
            NvmlResult<Integer> numa = nvml.getInt(NvmlFunction.DEVICE_GET_NUMA_NODE_ID, gpu1);
            assertThat(numa.isKnown()).isFalse();
            assertThat(numa.why()).isEqualTo("nvmlDeviceGetNumaNodeId: Not Supported (3)");
            assertThat(nvml.getInt(NvmlFunction.DEVICE_GET_PERSISTENCE_MODE, gpu1).why())
                    .isEqualTo("nvmlDeviceGetPersistenceMode: Insufficient Permissions (4)");

            // a fault is an exception: GPU 5 does not exist
            assertThatThrownBy(() -> nvml.device(5))
                    .isInstanceOf(NvmlException.class)
                    .hasMessage("nvmlDeviceGetHandleByIndex_v2: Invalid Argument (2)")
                    .satisfies(t -> assertThat(((NvmlException) t).isNormalState()).isFalse());

            // a buffer too short for the answer is checked too, not read as garbage
            MemorySegment gpu0 = nvml.device(0).orNull();
            assertThatThrownBy(() -> nvml.getString(NvmlFunction.DEVICE_GET_NAME, 4, gpu0))
                    .hasMessage("nvmlDeviceGetName: Insufficient Size (7)");
        }
    }

    @Test
    void aMissingSymbolIsLookedUpLazilyAndMeansNotSupportedByThisDriver() {
        try (Nvml nvml = openFake()) {
            NvmlFunction absent = NvmlFunction.DEVICE_GET_GPU_MAX_PCIE_LINK_GENERATION;
            assertThat(nvml.has(absent)).isFalse();
            assertThat(nvml.has(NvmlFunction.DEVICE_GET_MAX_PCIE_LINK_GENERATION)).isTrue();
            MemorySegment gpu0 = nvml.device(0).orNull();

            assertThat(nvml.call(absent, gpu0, MemorySegment.NULL)).isEqualTo(NVML_ERROR_FUNCTION_NOT_FOUND);
            NvmlResult<Integer> r = nvml.getInt(absent, gpu0);
            assertThat(r.why()).isEqualTo(
                    "not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetGpuMaxPcieLinkGeneration)");
            assertThat(((NvmlResult.Unknown<Integer>) r).code()).isEqualTo(NVML_ERROR_FUNCTION_NOT_FOUND);
            assertThatThrownBy(() -> nvml.check(absent, gpu0, MemorySegment.NULL))
                    .isInstanceOf(NvmlException.class)
                    .hasMessage("nvmlDeviceGetGpuMaxPcieLinkGeneration: not supported by this driver "
                            + "(libnvidia-ml.so.1 has no nvmlDeviceGetGpuMaxPcieLinkGeneration)");

            // the binding still works after the miss
            assertThat(nvml.getInt(NvmlFunction.DEVICE_GET_MAX_PCIE_LINK_GENERATION, gpu0).orNull()).isEqualTo(5);
        }
    }

    @Test
    void argumentsThatDoNotFitTheDescriptorFailInJavaNotInC() {
        try (Nvml nvml = openFake()) {
            assertThatThrownBy(() -> nvml.call(NvmlFunction.DEVICE_GET_COUNT_V2))
                    .isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> nvml.call(NvmlFunction.ERROR_STRING, 3))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void resultMapsKnownValuesAndKeepsReasons() {
        NvmlResult<Integer> k = NvmlResult.of(13000);
        assertThat(k.map(v -> v / 1000).orNull()).isEqualTo(13);
        NvmlResult<Integer> u = NvmlResult.unknown(3, "why");
        assertThat(u.map(v -> v / 1000).why()).isEqualTo("why");
        assertThat(u.map(v -> v / 1000).orNull()).isNull();
    }
}
