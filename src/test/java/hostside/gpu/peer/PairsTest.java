package hostside.gpu.peer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.gpu.bench.Target;

/** Buffer sizes of the peer cases: nvbandwidth's where the bounds allow, a share of the bounds where not. */
class PairsTest {
    static final long MiB = 1L << 20, GiB = 1L << 30;

    @Test
    void roomyGpusGetNvbandwidthsBufferForEveryCopy() {
        Target h200 = new Target(null, 120 * GiB, 140 * GiB);
        assertThat(Pairs.bytes(h200, h200, 1)).isEqualTo(512 * MiB);
        assertThat(Pairs.bytes(h200, h200, 2)).as("bidirectional: four buffers of 512 MiB, as nvbandwidth").isEqualTo(512 * MiB);
    }

    @Test
    void theTighterGpuBoundsBothAndSharesAreWholeMebibytesOrPages() {
        Target roomy = new Target(null, 120 * GiB, 140 * GiB), busy = new Target(null, 120 * GiB, 301 * MiB);
        assertThat(Pairs.bytes(roomy, busy, 1)).isEqualTo(150 * MiB); // half the free memory, in whole MiB
        assertThat(Pairs.bytes(roomy, busy, 2)).isEqualTo(75 * MiB);
        Target tiny = new Target(null, 120 * GiB, 24 * 1024);
        assertThat(Pairs.bytes(roomy, tiny, 2)).isEqualTo(4096);
    }
}
