package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Target;
import hostside.harness.DetailFigures;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;
import hostside.harness.TestCase;

/**
 * The GPU test cases' driver calls, run against the fake: every call they make is one the
 * driver accepts (handles, ranges, launch shapes), the figures follow from the event times the
 * fake reports, and nothing is left allocated. No figure here says anything about a real GPU.
 */
class CudaBenchOnFakeTest extends OnFakeDriver {
    static final long MiB = 1L << 20;


    @Test
    void benchSetsUpAndReleasesEverything() {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            assertThat(b.name).isEqualTo("NVIDIA H200");
            assertThat(b.pciAddress).isEqualTo("0000:1a:00.0");
            // context, module, two streams, the pinned flag word, four events
            assertThat(fake.live()).as(fake.liveSummary()).isEqualTo(9);
            assertThat(b.memory()[1]).isEqualTo(150754820096L);
        }
        fake.assertNothingLive();
    }

    @Test
    void blockedTimingQueuesBehindTheSpinKernel() {
        fake.setElapsedMs(4f);
        try (GpuBench b = new GpuBench(cuda, 0)) {
            double ms = b.blockedMs(b.stream, s -> { });
            assertThat(ms).isEqualTo(4.0);
            assertThat(fake.calls("cuLaunchKernel")).isEqualTo(1);
            assertThat(fake.lastLaunch("params")).isEqualTo(2);
            assertThat(fake.lastLaunchParam(1)).as("the spin kernel's timeout, ns").isEqualTo(10_000_000_000L);
            double[] two = b.blockedMs2(s -> { }, s -> { });
            assertThat(two).containsExactly(4.0, 4.0);
        }
        fake.assertNothingLive();
    }

    @Test
    void copyAndSmCasesRunOnTheFakeAndReleaseTheirBuffers() {
        fake.setElapsedMs(1f);
        List<TestCase<Target>> cases = List.of(new Copies.CePinned(true), new Copies.CePinned(false), new Copies.CeBidirectional(),
                new Copies.CePageable(true), new Copies.CePageable(false), new Copies.DeviceLocal(), new SmAccess.SmCopy(true),
                new SmAccess.SmCopy(false), new SmAccess.Latency());
        List<Result> results;
        try (GpuBench b = new GpuBench(cuda, 0)) {
            // buffers of 16 MiB: a quarter of 64 MiB of host memory
            Target t = new Target(b, 64 * MiB, 64 * MiB);
            results = Runner.run(cases, t, k -> { });
            assertThat(fake.live()).as("only the bench's own resources: " + fake.liveSummary()).isEqualTo(9);
        }
        fake.assertNothingLive();
        assertThat(results).extracting(Result::key).containsExactlyElementsOf(cases.stream().map(TestCase::key).toList());
        assertThat(results).allSatisfy(r -> assertThat(r.status()).as(r.key() + ": " + r.why()).isEqualTo(Status.OK));
        // 8 copies of 16 MiB in the 1 ms the fake's events report
        Result h2d = results.getFirst();
        assertThat(h2d.unit()).isEqualTo(Unit.of("GB/s"));
        assertThat(h2d.value().median()).isCloseTo(8 * 16 * MiB / 1e-3 / 1e9, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(h2d.value().samples()).isEqualTo(5);
        Copies.CopyDetail d = (Copies.CopyDetail) h2d.detail();
        assertThat(d.gpu()).startsWith("NVIDIA H200 (");
        assertThat(d.bufferBytes()).isEqualTo(16 * MiB);
        assertThat(d.copiesPerSample()).isEqualTo(8);
        assertThat(h2d.anchor()).as("nvbandwidth run at the buffer the case copied, not its default 512 MiB").isEqualTo("nvbandwidth host_to_device_memcpy_ce -b 16");
        // every case keeps the record it declares
        for (int i = 0; i < cases.size(); i++) assertThat(results.get(i).detail()).as(cases.get(i).key()).isInstanceOf(cases.get(i).detailType());
        // the bidirectional copy's other direction is a figure of its own
        Result bidir = results.get(2);
        assertThat(DetailFigures.of(bidir, Scope.gpu("x"))).extracting(Figure::key)
                .containsExactly("bidirectional_ce_pinned", "bidirectional_ce_pinned_device_to_host");
    }

    @Test
    void aDriverFailureInACaseIsAFailedRowAndReleasesItsBuffers() {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            Target t = new Target(b, 64 * MiB, 64 * MiB);
            fake.failOnce("cuMemcpyHtoDAsync_v2", 719, 3); // CUDA_ERROR_LAUNCH_FAILED, some copies in
            List<Result> results = Runner.run(List.of(new Copies.CePinned(true), new Copies.CePinned(false)), t, k -> { });
            assertThat(results.get(0).status()).isEqualTo(Status.FAILED);
            assertThat(results.get(0).why()).isEqualTo("cuMemcpyHtoDAsync: CUDA_ERROR_LAUNCH_FAILED (719)");
            assertThat(results.get(1).status()).isEqualTo(Status.OK);
            assertThat(fake.live()).as(fake.liveSummary()).isEqualTo(9);
        }
        fake.assertNothingLive();
    }
}
