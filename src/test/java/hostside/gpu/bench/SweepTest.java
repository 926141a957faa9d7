package hostside.gpu.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SweepTest {
    @Test
    void halfPeakIsTheSmallestSizeAtHalfThePeak() {
        long[] sizes = {4096, 16384, 65536, 262144, 1 << 20};
        assertThat(Sweep.halfPeak(sizes, new double[] {1.6, 5.8, 17.1, 35.2, 47.7})).isEqualTo(262144); // 17.1 < 23.85 <= 35.2
        assertThat(Sweep.halfPeak(sizes, new double[] {1.6, 5.8, 24.0, 35.2, 47.7})).isEqualTo(65536);
    }

    @Test
    void aPeakInTheMiddleCountsAsThePeak() {
        // pageable copies on the H200 peak at 1 MiB and fall for larger sizes
        long[] sizes = {4096, 65536, 1 << 20, 64 << 20};
        assertThat(Sweep.halfPeak(sizes, new double[] {0.6, 6.2, 14.0, 6.6})).isEqualTo(1 << 20);
        assertThat(Sweep.halfPeak(sizes, new double[] {0.6, 7.0, 14.0, 6.6})).isEqualTo(65536);
        assertThat(Sweep.halfPeak(new long[0], new double[0])).isEqualTo(-1);
    }
}
