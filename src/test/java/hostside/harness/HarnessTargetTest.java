package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.gpu.bench.Target;

/** Target.buffer: the bounds every GPU test case's buffers keep to (no GPU needed to compute them). */
class HarnessTargetTest {
    static final long MiB = 1L << 20, GiB = 1L << 30;

    @Test
    void plentyOfMemoryGivesWhatIsWanted() {
        Target t = new Target(null, 512 * GiB, 140 * GiB);
        assertThat(t.buffer(Target.DEFAULT_BUFFER)).isEqualTo(512 * MiB);
    }

    @Test
    void aQuarterOfTheHostsAvailableMemory() {
        Target t = new Target(null, 1 * GiB, 140 * GiB);
        assertThat(t.buffer(Target.DEFAULT_BUFFER)).isEqualTo(256 * MiB);
    }

    @Test
    void halfOfTheGpusFreeMemory() {
        Target t = new Target(null, 512 * GiB, 300 * MiB);
        assertThat(t.buffer(Target.DEFAULT_BUFFER)).isEqualTo(150 * MiB);
    }

    @Test
    void theSmallerBoundWins() {
        assertThat(new Target(null, 800 * MiB, 300 * MiB).buffer(Target.DEFAULT_BUFFER)).isEqualTo(150 * MiB);
        assertThat(new Target(null, 400 * MiB, 300 * MiB).buffer(Target.DEFAULT_BUFFER)).isEqualTo(100 * MiB);
    }

    @Test
    void roundedDownToWholeMebibytes() {
        // a quarter of 1000 MiB + 12345 bytes is 250 MiB and change
        Target t = new Target(null, 1000 * MiB + 12345, 140 * GiB);
        long b = t.buffer(Target.DEFAULT_BUFFER);
        assertThat(b).isEqualTo(250 * MiB);
        assertThat(b % MiB).isZero();
        assertThat(new Target(null, 512 * GiB, 140 * GiB).buffer(3 * MiB + 5)).isEqualTo(3 * MiB);
    }

    @Test
    void neverAboveEitherBound() {
        long[] hosts = {64 * MiB, 1 * GiB + 7, 3 * GiB + 4096, 512 * GiB};
        long[] gpus = {8 * MiB, 1 * GiB - 1, 80 * GiB, 140 * GiB + 123};
        for (long host : hosts) {
            for (long gpu : gpus) {
                long b = new Target(null, host, gpu).buffer(Target.DEFAULT_BUFFER);
                assertThat(b).as("host %d, gpu %d", host, gpu).isLessThanOrEqualTo(host / 4).isLessThanOrEqualTo(gpu / 2)
                        .isLessThanOrEqualTo(Target.DEFAULT_BUFFER).isPositive();
                assertThat(b % MiB).isZero();
            }
        }
    }

    @Test
    void belowOneMebibyteTheBoundsStillHold() {
        // the bounds allow 512 KiB: whole pages of it, not a mebibyte beyond them
        assertThat(new Target(null, 2 * MiB, 140 * GiB).buffer(Target.DEFAULT_BUFFER)).isEqualTo(512 * 1024);
        assertThat(new Target(null, 2 * MiB + 4100, 140 * GiB).buffer(Target.DEFAULT_BUFFER)).isEqualTo(512 * 1024 + 1024 - 1024);
        assertThat(new Target(null, 4096, 140 * GiB).buffer(Target.DEFAULT_BUFFER)).isEqualTo(4096);
    }

    @Test
    void aCapBoundsTheHostBuffersOfOneCaseTogetherButNotAGpuOnlyBuffer() {
        MemoryCap cap = new MemoryCap(256 * MiB, "the report's share");
        Target t = new Target(null, 512 * GiB, 140 * GiB, cap);
        assertThat(t.hostBuffer(Target.DEFAULT_BUFFER)).isEqualTo(256 * MiB);
        assertThat(t.hostBuffers(Target.DEFAULT_BUFFER, 2)).as("a bidirectional copy's two").isEqualTo(128 * MiB);
        assertThat(t.buffer(Target.DEFAULT_BUFFER)).as("GPU memory only: a peer copy's").isEqualTo(512 * MiB);
        assertThat(t.hostBudgetBytes()).isEqualTo(256 * MiB);
        Target alone = new Target(null, 512 * GiB, 140 * GiB);
        assertThat(alone.hostBuffers(Target.DEFAULT_BUFFER, 2)).as("no cap: each buffer as nvbandwidth's").isEqualTo(512 * MiB);
        assertThat(alone.hostBudgetBytes()).isEqualTo(128 * GiB);
    }

    @Test
    void gpusSharingTheHostShareTheCap() {
        Target t = Target.sharing(null, 64 * GiB, 140 * GiB, new MemoryCap(256 * MiB, "the report's share"), 8);
        assertThat(t.hostAvailableBytes()).isEqualTo(8 * GiB);
        assertThat(t.hostBuffer(2 * Target.DEFAULT_BUFFER)).isEqualTo(32 * MiB);
        assertThat(t.cap().why()).endsWith("shared by 8 GPUs");
        assertThat(Target.sharing(null, 64 * GiB, 140 * GiB, null, 8).cap()).isNull();
    }
}
