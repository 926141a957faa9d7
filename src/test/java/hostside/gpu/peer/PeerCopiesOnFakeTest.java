package hostside.gpu.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import hostside.core.Unit;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.fs.FsRoot;
import hostside.gpu.cuda.OnFakeDriver;
import hostside.harness.MemoryCap;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Skipped;
import hostside.harness.Status;
import hostside.harness.TestCase;
import hostside.machine.GpuDrill;
import hostside.machine.MachineReader;

/**
 * The peer-to-peer test cases on the fake's 2 and 4 GPUs: every driver call they make is one the
 * fake accepts (kernels that touch another GPU's memory only with peer access on, events on
 * their own context's streams), each gives an n x n matrix with nothing on the diagonal, pairs
 * without peer access are left out and said so, and peer access and buffers are released after
 * every case. No figure here says anything about a real GPU.
 */
class PeerCopiesOnFakeTest extends OnFakeDriver {
    static final long MiB = 1L << 20;
    /** Each GpuBench holds its context, module, two streams, the flag word and four events. */
    static final int PER_BENCH = 9;

    /** Runs {@code cases} on {@code n} GPUs with 64 MiB of host and GPU memory each (buffers of 16 MiB). */
    private List<Result> runOn(int n, List<TestCase<List<Target>>> cases) {
        fake.configure(0, n);
        List<GpuBench> benches = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) benches.add(new GpuBench(cuda, i));
            List<Target> targets = benches.stream().map(b -> new Target(b, 64 * MiB, 64 * MiB)).toList();
            List<Result> rs = Runner.run(cases, targets, k -> { });
            assertThat(fake.live("peers")).as("peer access left enabled").isZero();
            assertThat(fake.live()).as("only the benches' own resources: " + fake.liveSummary()).isEqualTo(PER_BENCH * n);
            return rs;
        } finally {
            for (GpuBench b : benches) b.close();
            fake.assertNothingLive();
        }
    }

    private static PeerDetail detail(Result r) {
        return (PeerDetail) r.detail();
    }

    @Test
    void everyCaseGivesASquareMatrixOnTwoAndFourGpus() {
        for (int n : new int[] {2, 4}) {
            fake.reset();
            cuda = fake.ready();
            fake.setElapsedMs(2f);
            List<Result> rs = runOn(n, PeerCopies.all());
            assertThat(rs).extracting(Result::key).containsExactly("device_to_device_memcpy_read_ce", "device_to_device_memcpy_write_ce",
                    "device_to_device_bidirectional_memcpy_read_ce", "device_to_device_bidirectional_memcpy_write_ce",
                    "device_to_device_memcpy_read_sm", "device_to_device_memcpy_write_sm", "device_to_device_latency_sm",
                    "device_to_device_memcpy_staged_ce");
            for (Result r : rs) {
                assertThat(r.status()).as(r.key() + ": " + r.why()).isEqualTo(Status.OK);
                List<List<Double>> m = detail(r).main().values();
                assertThat(m).as(r.key()).hasSize(n).allSatisfy(row -> assertThat(row).hasSize(n));
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        if (i == j) assertThat(m.get(i).get(j)).as("the diagonal").isNull();
                        else assertThat(m.get(i).get(j)).as(r.key() + " " + i + "->" + j).isNotNull();
                    }
                }
                assertThat(r.value().samples()).as("one figure per ordered pair").isEqualTo(n * (n - 1));
                assertThat(detail(r).main().gpus()).hasSize(n);
                assertThat(r.detail()).as(r.key() + "'s declared record")
                        .isInstanceOf(PeerCopies.all().stream().filter(t -> t.key().equals(r.key())).findFirst().orElseThrow().detailType());
            }
            // nvbandwidth's copies per sample (--loopCount) of 16 MiB in the 2 ms the fake's events report
            double one = Pairs.COPIES * 16 * MiB / 2e-3 / 1e9;
            Result write = rs.get(1);
            assertThat(write.unit()).isEqualTo(Unit.of("GB/s"));
            PeerDetail.OneWay w = (PeerDetail.OneWay) write.detail();
            assertThat(w.copiesPerSample()).isEqualTo(Pairs.COPIES);
            assertThat(w.bufferBytes()).isEqualTo(16 * MiB);
            assertThat(write.value().median()).isCloseTo(one, Offset.offset(1e-6));
            assertThat(w.sum()).isCloseTo(one * n * (n - 1), Offset.offset(1e-6));
            // bidirectional: two buffers per GPU of 8 MiB, each direction its own figure, the total their sum
            Result bidir = rs.get(2);
            double half = Pairs.COPIES * 8 * MiB / 2e-3 / 1e9;
            PeerDetail.BidirectionalRead b = (PeerDetail.BidirectionalRead) bidir.detail();
            assertThat(b.read1().values().get(0).get(1)).isCloseTo(half, Offset.offset(1e-6));
            assertThat(b.read2().values().get(1).get(0)).isCloseTo(half, Offset.offset(1e-6));
            assertThat(bidir.value().median()).isCloseTo(2 * half, Offset.offset(1e-6));
            assertThat(rs.get(3).detail()).isInstanceOf(PeerDetail.BidirectionalWrite.class);
            assertThat(((PeerDetail) rs.get(3).detail()).others()).containsExactly("write1", "write2");
            assertThat(rs.get(6).unit()).isEqualTo(Unit.of("ns"));
            assertThat(detail(rs.get(6)).sum()).as("no SUM of latencies").isNull();
            // the staged copies went between GPUs without peer access, the others with it
            assertThat(fake.copies("staged")).as("staged copies").isEqualTo((long) n * (n - 1) * (1 + Pairs.SAMPLES) * PeerCe.Staged.COPIES);
            assertThat(fake.copies("peer")).as("direct copies").isPositive();
        }
    }

    @Test
    void pairsThatCannotReachTheirPeerAreLeftOutAndNamed() {
        fake.configure(0, 4);
        fake.setPeer(0, 3, false, false, false, 0);
        fake.setPeer(3, 0, false, false, false, 0);
        fake.setPeer(1, 2, false, false, false, 0);
        List<Result> rs = runOn(4, List.of(new PeerCe.Unidirectional(false), new PeerSm.Latency()));
        for (Result r : rs) {
            assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
            List<List<Double>> m = detail(r).main().values();
            assertThat(m.get(0).get(3)).isNull();
            assertThat(m.get(3).get(0)).isNull();
            assertThat(m.get(1).get(2)).isNull();
            assertThat(m.get(2).get(1)).as("one way only").isNotNull();
            assertThat(r.value().samples()).isEqualTo(12 - 3);
            List<NotMeasured> left = detail(r).notMeasured();
            assertThat(left).hasSize(3).contains(new NotMeasured(0, 3, "cuDeviceCanAccessPeer is 0"));
        }
    }

    @Test
    void theLatencyChainLiesInTheColumnGpusMemory() {
        fake.configure(0, 2);
        try (GpuBench a = new GpuBench(cuda, 0); GpuBench b = new GpuBench(cuda, 1)) {
            List<Target> ts = List.of(new Target(a, 64 * MiB, 64 * MiB), new Target(b, 64 * MiB, 64 * MiB));
            // the last pair run is GPU1 chasing through GPU0's memory; without peer access that launch is an illegal address
            Result r = new PeerSm.Latency().run(ts);
            assertThat(((PeerDetail.Latency) r.detail()).chainBytes()).isEqualTo(16 * MiB);
            assertThat(fake.lastLaunch("params")).isEqualTo(3);
            assertThat(fake.lastLaunchParam(1)).as("steps").isEqualTo(50_000L);
        }
        fake.assertNothingLive();
    }

    @Test
    void oneGpuIsNotRunAndSaysSoExceptTheHostCopies() {
        List<Result> rs = runOn(1, GpuDrill.allGpuTests());
        assertThat(rs.stream().filter(r -> r.key().startsWith("device_to_device"))).hasSize(8)
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(Status.NOT_RUN);
                    assertThat(r.why()).isEqualTo("one GPU in this machine");
                });
        assertThat(rs.stream().filter(r -> r.key().contains("_all") || r.key().startsWith("all_")))
                .extracting(Result::key, Result::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("host_to_all_memcpy_ce", Status.OK),
                        org.assertj.core.groups.Tuple.tuple("all_to_host_memcpy_ce", Status.OK));
    }

    @Test
    void noPairWithPeerAccessLeavesOnlyTheStagedCopy() {
        fake.configure(0, 2);
        fake.setPeer(0, 1, false, false, false, 0);
        fake.setPeer(1, 0, false, false, false, 0);
        List<Result> rs = runOn(2, PeerCopies.all());
        Function<Result, String> state = r -> r.key() + " " + r.status();
        assertThat(rs.stream().filter(r -> !r.key().equals("device_to_device_memcpy_staged_ce")))
                .allSatisfy(r -> assertThat(r.why()).isEqualTo(Pairs.NO_PEERS));
        assertThat(rs).extracting(state).contains("device_to_device_memcpy_staged_ce ok");
        assertThat(fake.calls("cuCtxEnablePeerAccess")).as("never tried where the driver says no").isZero();
    }

    @Test
    void peerAccessFoundOnIsLeftOnAfterTheStagedCopy() {
        fake.configure(0, 2);
        try (GpuBench a = new GpuBench(cuda, 0); GpuBench b = new GpuBench(cuda, 1)) {
            a.gpu.enablePeerAccess(b.gpu);
            List<Target> ts = List.of(new Target(a, 64 * MiB, 64 * MiB), new Target(b, 64 * MiB, 64 * MiB));
            Result r = new PeerCe.Staged().run(ts);
            assertThat(r.isOk()).isTrue();
            assertThat(fake.copies("peer")).as("peer access was off while it copied").isZero();
            assertThat(fake.live("peers")).as("and on again after").isEqualTo(1);
            a.gpu.disablePeerAccess(b.gpu);
        }
        fake.assertNothingLive();
    }

    @Test
    void aDriverFailureMidwayIsAFailedRowAndLeavesNoPeerAccessOrBuffers() {
        fake.failOnce("cuMemcpyAsync", 719, 20); // CUDA_ERROR_LAUNCH_FAILED, some pairs in
        List<Result> rs = runOn(2, List.of(new PeerCe.Unidirectional(true), new PeerCe.Unidirectional(false)));
        assertThat(rs.get(0).status()).isEqualTo(Status.FAILED);
        assertThat(rs.get(0).why()).isEqualTo("cuMemcpyAsync: CUDA_ERROR_LAUNCH_FAILED (719)");
        assertThat(rs.get(1).status()).isEqualTo(Status.OK);
        assertThat(rs.get(1).value().samples()).as("both ordered pairs").isEqualTo(2);
    }

    /** A quick report skips every all-GPU case: the drill makes no bench on any GPU for them. */
    @Test
    void casesAllSkippedMakeNoBench() {
        fake.configure(0, 2);
        fake.use();
        String why = "--quick measures the headline figures only (the full report measures this)";
        List<TestCase<List<Target>>> skipped = GpuDrill.allGpuTests().stream().map(t -> (TestCase<List<Target>>) new Skipped<>(t, why)).toList();
        GpuDrill.GpuSection s = GpuDrill.run(FsRoot.live(), MachineReader.read(FsRoot.live()), List.of(), skipped,
                new MemoryCap(64 * MiB, "a test's"), ProgressSink.NONE, null);
        assertThat(s.allGpus()).extracting(Result::key).containsExactlyElementsOf(GpuDrill.allGpuTests().stream().map(TestCase::key).toList());
        assertThat(s.allGpus()).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(Status.NOT_RUN);
            assertThat(r.why()).isEqualTo(why);
        });
        // a bench loads hostside's kernels and makes its streams: none of it for cases that do not run
        assertThat(fake.calls("cuModuleLoadData")).isZero();
        assertThat(fake.calls("cuStreamCreate")).isZero();
        fake.assertNothingLive();
    }

    /** ... and where they run, the drill makes a bench on every GPU for them and releases every one after. */
    @Test
    void casesThatRunGetABenchOnEveryGpuReleasedAfter() {
        fake.configure(0, 2);
        fake.setFreeMemory(64 * MiB);
        fake.setElapsedMs(2f);
        fake.use();
        GpuDrill.GpuSection s = GpuDrill.run(FsRoot.live(), MachineReader.read(FsRoot.live()), List.of(), GpuDrill.allGpuTests(),
                new MemoryCap(64 * MiB, "a test's"), ProgressSink.NONE, null);
        assertThat(s.allGpus()).extracting(Result::key).containsExactlyElementsOf(GpuDrill.allGpuTests().stream().map(TestCase::key).toList());
        assertThat(s.allGpus()).filteredOn(r -> r.status() == Status.OK).as("measured on the fake's two GPUs").isNotEmpty();
        assertThat(fake.calls("cuModuleLoadData")).as("one bench a GPU").isEqualTo(2);
        fake.assertNothingLive();
    }
}
