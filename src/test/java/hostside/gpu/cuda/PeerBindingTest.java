package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The peer-to-peer calls against the fake driver: cuDeviceCanAccessPeer, cuDeviceGetP2PAttribute,
 * cuCtxEnablePeerAccess and cuCtxDisablePeerAccess with the driver's own errors, cuMemcpyAsync
 * between GPUs (direct with peer access, staged without) and cuStreamWaitEvent across GPUs.
 */
class PeerBindingTest extends OnFakeDriver {
    static final long MiB = 1L << 20;

    @Test
    void theDriverAnswersForEachOrderedPair() {
        fake.configure(0, 4);
        fake.setPeer(0, 3, false, false, false, 0);
        fake.setPeer(1, 2, true, false, true, 2);
        assertThat(cuda.canAccessPeer(0, 1)).isEqualTo(new Cuda.Answer(1, null));
        assertThat(cuda.canAccessPeer(0, 3).value()).isZero();
        assertThat(cuda.canAccessPeer(3, 0).value()).as("one way only").isEqualTo(1);
        assertThat(cuda.canAccessPeer(2, 2).value()).as("a GPU and itself").isZero();
        assertThat(cuda.p2pAttribute(Cuda.P2P_PERFORMANCE_RANK, 1, 2).value()).isEqualTo(2);
        assertThat(cuda.p2pAttribute(Cuda.P2P_NATIVE_ATOMIC_SUPPORTED, 1, 2).value()).isZero();
        assertThat(cuda.p2pAttribute(Cuda.P2P_CUDA_ARRAY_ACCESS_SUPPORTED, 1, 2).value()).isEqualTo(1);
        assertThat(cuda.p2pAttribute(Cuda.P2P_ACCESS_SUPPORTED, 0, 3).value()).isZero();
        assertThat(cuda.p2pAttribute(Cuda.P2P_ACCESS_SUPPORTED, 0, 0))
                .isEqualTo(new Cuda.Answer(null, "CUDA_ERROR_INVALID_DEVICE (101)"));
        assertThat(cuda.p2pAttribute(99, 0, 1).error()).isEqualTo("CUDA_ERROR_INVALID_VALUE (1)");
        assertThat(cuda.canAccessPeer(0, 8).error()).isEqualTo("CUDA_ERROR_INVALID_DEVICE (101)");
        assertThat(fake.calls("cuDeviceCanAccessPeer")).isEqualTo(5);
        assertThat(fake.calls("cuDeviceGetP2PAttribute")).isEqualTo(6);
    }

    @Test
    void enablingAndDisablingFollowTheDriversErrors() {
        try (Gpu a = new Gpu(cuda, 0); Gpu b = new Gpu(cuda, 1)) {
            assertThat(a.enablePeerAccess(b)).isTrue();
            assertThat(fake.live("peers")).isEqualTo(1);
            assertThat(a.enablePeerAccess(b)).as("PEER_ACCESS_ALREADY_ENABLED").isFalse();
            assertThat(b.enablePeerAccess(a)).as("the other way is its own").isTrue();
            assertThat(fake.live("peers")).isEqualTo(2);
            assertThat(a.disablePeerAccess(b)).isTrue();
            assertThat(a.disablePeerAccess(b)).as("PEER_ACCESS_NOT_ENABLED").isFalse();
            assertThat(b.disablePeerAccess(a)).isTrue();
            assertThat(fake.live("peers")).isZero();
            assertThatThrownBy(() -> a.enablePeerAccess(a)).hasMessage("cuCtxEnablePeerAccess: CUDA_ERROR_INVALID_CONTEXT (201)");
            fake.setPeer(0, 1, false, false, false, 0);
            assertThatThrownBy(() -> a.enablePeerAccess(b)).isInstanceOf(CudaException.class)
                    .hasMessage("cuCtxEnablePeerAccess: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (217)");
            assertThat(b.enablePeerAccess(a)).isTrue();
        }
        // releasing the contexts unmaps what was left enabled, as the driver does
        assertThat(fake.live("peers")).isZero();
        fake.assertNothingLive();
        assertThat(fake.calls("cuCtxEnablePeerAccess")).isEqualTo(6);
        assertThat(fake.calls("cuCtxDisablePeerAccess")).isEqualTo(3);
    }

    @Test
    void copiesBetweenGpusAreDirectOnlyWithPeerAccess() {
        try (Gpu a = new Gpu(cuda, 0); Gpu b = new Gpu(cuda, 1)) {
            b.makeCurrent();
            try (DeviceBuffer onB = b.alloc(MiB)) {
                a.makeCurrent();
                try (DeviceBuffer onA = a.alloc(MiB); Stream s = a.stream()) {
                    s.copy(onB, onA, MiB);
                    assertThat(fake.copies("staged")).isEqualTo(1);
                    a.enablePeerAccess(b);
                    s.copy(onB, onA, MiB);
                    s.copy(onA, onB, MiB);
                    assertThat(fake.copies("peer")).isEqualTo(2);
                    assertThatThrownBy(() -> s.copy(onB, onA, 2 * MiB)).hasMessage("cuMemcpyAsync: CUDA_ERROR_INVALID_VALUE (1)");
                    a.disablePeerAccess(b);
                }
            }
        }
        fake.assertNothingLive();
        assertThat(fake.calls("cuMemcpyAsync")).isEqualTo(4);
    }

    @Test
    void aStreamWaitsForAnotherGpusEventButRecordsOnlyItsOwn() {
        try (Gpu a = new Gpu(cuda, 0); Gpu b = new Gpu(cuda, 1)) {
            a.makeCurrent();
            try (Stream sa = a.stream(); Event ea = a.event()) {
                b.makeCurrent();
                try (Stream sb = b.stream(); Event eb = b.event()) {
                    sb.record(eb);
                    a.makeCurrent();
                    sa.record(ea);
                    sa.waitFor(eb);
                    assertThatThrownBy(() -> sa.record(eb)).hasMessage("cuEventRecord: CUDA_ERROR_INVALID_HANDLE (400)");
                }
            }
        }
        fake.assertNothingLive();
        assertThat(fake.calls("cuStreamWaitEvent")).isEqualTo(1);
    }
}
