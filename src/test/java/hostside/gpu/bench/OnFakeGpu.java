package hostside.gpu.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import hostside.gpu.cuda.OnFakeDriver;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;

/** A GPU case run alone against the fake driver's first GPU, with every resource it made released after, on every path. */
abstract class OnFakeGpu extends OnFakeDriver {
    static final long MiB = 1L << 20;

    /** {@code c} on GPU 0 with 64 MiB of host and GPU memory (its buffers a quarter of that, 16 MiB). */
    Result runOnGpu0(TestCase<Target> c) {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            Result r = Runner.run(List.of(c), new Target(b, 64 * MiB, 64 * MiB), k -> { }).getFirst();
            assertThat(fake.live()).as("only the bench's own resources: " + fake.liveSummary()).isEqualTo(9);
            return r;
        } finally {
            fake.assertNothingLive();
        }
    }
}
