package hostside.gpu.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;

/**
 * nvbandwidth's host_to_all and all_to_host cases against the fake driver, one GPU: the anchor names
 * the buffer the measured GPU copied, so that the bench runs nvbandwidth at that size and not at its
 * own 512 MiB (a report's buffers are 128 MiB: its figure and its peer's were of different sizes).
 */
class AllGpusOnFakeTest extends OnFakeGpu {

    @Test
    void theAnchorNamesTheBufferWhereItIsNotNvbandwidthsDefault() {
        fake.setElapsedMs(1f);
        for (boolean toDevice : new boolean[] {true, false}) {
            try (GpuBench b = new GpuBench(cuda, 0)) {
                Result r = Runner.run(List.of(new AllGpus(toDevice)), List.of(new Target(b, 64 * MiB, 64 * MiB)), k -> { }).getFirst();
                assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
                AllGpus.AllGpusDetail d = (AllGpus.AllGpusDetail) r.detail();
                // 64 MiB of host memory: the measured GPU's buffer and the others' twice as large within a quarter of it
                assertThat(d.bufferBytes()).isEqualTo(8 * MiB);
                String case_ = toDevice ? "host_to_all_memcpy_ce" : "all_to_host_memcpy_ce";
                assertThat(r.anchor()).isEqualTo("nvbandwidth " + case_ + " -b 8");
                List<Figure> perGpu = d.figures(r, Scope.MACHINE);
                assertThat(perGpu).hasSize(1);
                assertThat(perGpu.getFirst().anchor()).as("each GPU's figure names the same job").isEqualTo(r.anchor());
            } finally {
                fake.assertNothingLive();
            }
        }
    }

    @Test
    void nvbandwidthsOwnBufferIsNotNamed() {
        assertThat(Copies.nvbandwidth("nvbandwidth host_to_all_memcpy_ce", Copies.NVBANDWIDTH_BUFFER)).isEqualTo("nvbandwidth host_to_all_memcpy_ce");
        assertThat(Copies.nvbandwidth("nvbandwidth host_to_all_memcpy_ce", 128 * MiB)).isEqualTo("nvbandwidth host_to_all_memcpy_ce -b 128");
    }
}
