package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A driver older than some functions (the fake built with -DFAKE_CUDA_OLD): the binding falls
 * back to an older name where it has one, and says which function is missing where it has not.
 */
class CudaOldDriverTest extends OnFakeDriver {
    static final long MiB = 1L << 20;

    @Override
    protected List<String> flags() {
        return List.of("-DFAKE_CUDA_OLD");
    }

    @Test
    void hasIsFalseForWhatTheDriverLacks() {
        assertThat(cuda.has("cuMemcpyHtoD")).isFalse();
        assertThat(cuda.has("cuMemcpyDtoH")).isFalse();
        // the older names answer for these
        assertThat(cuda.has("cuDeviceGetUuid")).isTrue();
        assertThat(cuda.has("cuEventElapsedTime")).isTrue();
        assertThat(cuda.has("cuMemAlloc")).isTrue();
    }

    @Test
    void uuidFallsBackToTheOlderName() {
        assertThat(cuda.uuid(0)).isEqualTo("GPU-4a1bd2f4-9e3c-5a17-8f0e-2b6c7d8e9f01");
        assertThat(fake.calls("cuDeviceGetUuid")).isEqualTo(1);
    }

    @Test
    void callingAMissingFunctionIsACudaExceptionNotACrash() {
        try (Gpu gpu = new Gpu(cuda, 0); DeviceBuffer d = gpu.alloc(MiB); HostBuffer h = HostBuffer.pinned(cuda, MiB)) {
            assertThatThrownBy(() -> cuda.copyHostToDeviceSync(d, h, MiB)).isInstanceOf(CudaException.class)
                    .hasMessage("cuMemcpyHtoD: not in this driver (looked for cuMemcpyHtoD_v2)")
                    .satisfies(e -> assertThat(((CudaException) e).code()).isEqualTo(-1));
            // a failed lookup is not remembered as a success
            assertThatThrownBy(() -> cuda.copyHostToDeviceSync(d, h, MiB)).hasMessageContaining("not in this driver");
            assertThatThrownBy(() -> cuda.copyDeviceToHostSync(h, d, MiB))
                    .hasMessage("cuMemcpyDtoH: not in this driver (looked for cuMemcpyDtoH_v2)");
        }
        fake.assertNothingLive();
    }

    @Test
    void resourcesAreReleasedWhenAMissingFunctionThrowsInsideTheBlock() {
        assertThatThrownBy(() -> {
            try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); DeviceBuffer d = gpu.alloc(MiB);
                 HostBuffer h = HostBuffer.pinned(cuda, MiB)) {
                cuda.copyDeviceToHostSync(h, d, MiB);
            }
        }).isInstanceOf(CudaException.class);
        fake.assertNothingLive();
    }
}
