package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.harness.Result;
import hostside.harness.Runner;

/** The all-GPUs-at-once copies on the fake's two GPUs: one thread per GPU, each in its own context, the sum reported. */
class AllGpusOnFakeTest extends OnFakeDriver {

    @Test
    void twoGpusSumTheirFigures() {
        fake.setElapsedMs(100f);
        try (GpuBench a = new GpuBench(cuda, 0); GpuBench b = new GpuBench(cuda, 1)) {
            List<Target> targets = List.of(new Target(a, 64L << 30, 100L << 30), new Target(b, 64L << 30, 100L << 30));
            List<Result> rs = Runner.run(List.of(new AllGpus(true), new AllGpus(false)), targets, k -> { });
            assertThat(rs).allSatisfy(r -> assertThat(r.status()).as(r.why()).isEqualTo("ok"));
            // 8 copies of 512 MiB in 100 ms on each GPU: 42.9 GB/s each, 85.9 together
            assertThat(rs.getFirst().value().median()).isCloseTo(2 * 8 * (512.0 * (1 << 20)) / 0.1 / 1e9, org.assertj.core.data.Offset.offset(0.01));
            assertThat(rs.getFirst().detail()).hasSize(2);
        }
        fake.assertNothingLive();
    }

    @Test
    void oneGpuIsNotRunWithTheReason() {
        try (GpuBench a = new GpuBench(cuda, 0)) {
            List<Result> rs = Runner.run(List.of(new AllGpus(true)), List.of(new Target(a, 64L << 30, 100L << 30)), k -> { });
            assertThat(rs.getFirst().status()).isEqualTo("not run");
            assertThat(rs.getFirst().why()).isEqualTo("one GPU in this machine");
        }
    }
}
