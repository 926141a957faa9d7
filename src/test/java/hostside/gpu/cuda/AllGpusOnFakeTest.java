package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;

/**
 * nvbandwidth's host_to_all and all_to_host copies on the fake: each GPU timed in turn while the
 * others copy twice as much, all from one thread, each GPU's streams in its own context; the
 * figure is the sum over GPUs, each GPU's own figure in the detail.
 */
class AllGpusOnFakeTest extends OnFakeDriver {
    static final long MiB = 1L << 20;

    private List<Result> runOn(int n) {
        fake.configure(0, n);
        List<GpuBench> benches = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) benches.add(new GpuBench(cuda, i));
            List<Target> targets = benches.stream().map(b -> new Target(b, 512 * MiB, 512 * MiB)).toList();
            List<Result> rs = Runner.run(List.of(new AllGpus(true), new AllGpus(false)), targets, k -> { });
            assertThat(fake.live()).as(fake.liveSummary()).isEqualTo(9 * n);
            return rs;
        } finally {
            for (GpuBench b : benches) b.close();
            fake.assertNothingLive();
        }
    }

    @Test
    void eachGpuIsTimedWhileTheOthersCopyAndTheFigureIsTheSum() {
        fake.setElapsedMs(100f);
        for (int n : new int[] {2, 4}) {
            fake.reset();
            cuda = fake.ready();
            fake.setElapsedMs(100f);
            List<Result> rs = runOn(n);
            assertThat(rs).extracting(Result::key).containsExactly("host_to_all_memcpy_ce", "all_to_host_memcpy_ce");
            assertThat(rs).allSatisfy(r -> assertThat(r.status()).as(r.why()).isEqualTo(Status.OK));
            // buffers of 128 MiB (a quarter of the host's 512 MiB): each GPU copies half, the others all of it;
            // 8 copies of 64 MiB in 100 ms on each GPU
            double each = 8 * 64.0 * MiB / 0.1 / 1e9;
            assertThat(rs.getFirst().value().median()).isCloseTo(n * each, Offset.offset(1e-6));
            AllGpus.AllGpusDetail d = (AllGpus.AllGpusDetail) rs.getFirst().detail();
            List<AllGpus.PerGpu> perGpu = d.perGpu();
            assertThat(perGpu).hasSize(n).extracting(AllGpus.PerGpu::pciAddress).doesNotHaveDuplicates();
            assertThat(perGpu).allSatisfy(g -> assertThat(g.gbs().median()).isCloseTo(each, Offset.offset(1e-6)));
            assertThat(d.bufferBytes()).isEqualTo(64 * MiB);
            assertThat(d.otherGpusBufferBytes()).isEqualTo(128 * MiB);
            // per GPU measured: the spin kernel and a start event on every GPU's stream, the others waiting for the first's
            assertThat(fake.calls("cuStreamWaitEvent")).isEqualTo(2 * n * (n - 1) * (1 + 5));
        }
    }

    @Test
    void oneGpuRunsAsNvbandwidthRunsIt() {
        List<Result> rs = runOn(1);
        assertThat(rs).allSatisfy(r -> assertThat(r.status()).as(r.why()).isEqualTo(Status.OK));
        assertThat(fake.calls("cuStreamWaitEvent")).as("nothing to wait for").isZero();
    }
}
