package hostside.gpu.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.OnFakeDriver;
import hostside.harness.DetailFigures;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;

/**
 * The peer cases as self-checks of one GPU: the same code with the GPU as both ends, which needs
 * no peer access (the driver refuses a GPU as its own peer) and leaves nothing behind.
 */
class LoopbackOnFakeTest extends OnFakeDriver {
    static final long MiB = 1L << 20;

    @Test
    void everyPeerCaseButTheStagedCopyRunsOnOneGpu() {
        fake.configure(0, 1);
        fake.setElapsedMs(2f);
        List<Result> rs;
        try (GpuBench b = new GpuBench(cuda, 0)) {
            rs = Runner.run(PeerCopies.loopbacks(), new Target(b, 64 * MiB, 64 * MiB), k -> { });
            assertThat(fake.live("peers")).isZero();
        }
        fake.assertNothingLive();
        assertThat(rs).extracting(Result::key).containsExactly("device_to_device_memcpy_read_ce_loopback",
                "device_to_device_memcpy_write_ce_loopback", "device_to_device_bidirectional_memcpy_read_ce_loopback",
                "device_to_device_bidirectional_memcpy_write_ce_loopback", "device_to_device_memcpy_read_sm_loopback",
                "device_to_device_memcpy_write_sm_loopback", "device_to_device_latency_sm_loopback");
        assertThat(rs).allSatisfy(r -> {
            assertThat(r.status()).as(r.key() + ": " + r.why()).isEqualTo(Status.OK);
            assertThat(r.method()).endsWith("; both ends the same GPU");
            assertThat(r.anchor()).as("no tool pairs a GPU with itself").isNull();
            // a GPU paired with itself is no pair: no figure per pair, only the summary
            assertThat(DetailFigures.of(r, Scope.gpu("0000:1a:00.0"))).extracting(Figure::key)
                    .doesNotHaveDuplicates().allSatisfy(k -> assertThat(k).startsWith(r.key()));
            assertThat(r.value().samples()).as("the GPU twice: one figure each way").isEqualTo(2);
        });
        assertThat(fake.calls("cuCtxEnablePeerAccess")).as("a GPU is not its own peer").isZero();
        assertThat(fake.calls("cuDeviceCanAccessPeer")).as("nor asked whether it is").isZero();
        PeerMatrix m = ((PeerDetail) rs.getFirst().detail()).main();
        assertThat(m.addresses()).containsExactly("0000:1a:00.0", "0000:1a:00.0");
        assertThat(rs.getFirst().value().median()).isCloseTo(Pairs.COPIES * 16 * MiB / 2e-3 / 1e9, Offset.offset(1e-6));
    }
}
