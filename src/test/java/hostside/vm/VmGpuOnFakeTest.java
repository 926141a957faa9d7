package hostside.vm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.cli.Main;
import hostside.core.Json;
import hostside.core.Unit;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.FakeDriver;
import hostside.gpu.cuda.Gpu;
import hostside.gpu.cuda.ManagedBuffer;
import hostside.gpu.cuda.OnFakeDriver;
import hostside.gpu.cuda.Stream;
import hostside.fs.FsRoot;
import hostside.harness.MemoryCap;
import hostside.harness.ProgressSink;
import hostside.harness.Skipped;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;
import hostside.harness.TestCase;
import hostside.vm.measure.ManagedMigration;

/**
 * The GPU's side of Module 2 against the fake driver: VMM granularity through a struct passed by
 * pointer, managed memory through cuMemAllocManaged and a CUmemLocation passed by value, the four
 * migration cases, and that every managed buffer is freed. No figure here says anything about a GPU.
 */
class VmGpuOnFakeTest extends OnFakeDriver {
    static final long MiB = 1L << 20;
    static final int CONCURRENT_MANAGED_ACCESS = 89;
    static final int INVALID_VALUE = 1;





    // ---- VMM granularity ----

    @Test
    void granularityOfPinnedDeviceMemoryIsTwoMiB() {
        assertThat(cuda.has("cuMemGetAllocationGranularity")).isTrue();
        assertThat(cuda.allocationGranularity(0, false)).isEqualTo(2 * MiB);
        assertThat(cuda.allocationGranularity(1, true)).isEqualTo(2 * MiB);
    }

    @Test
    void theDeviceInTheAllocationPropertiesArrives() {
        // the fake has 2 GPUs: device 5 in CUmemAllocationProp.location.id is refused, so the id is where cuda.h has it
        assertThatThrownBy(() -> cuda.allocationGranularity(5, false)).isInstanceOf(CudaException.class)
                .hasMessageContaining("cuMemGetAllocationGranularity").hasMessageContaining("CUDA_ERROR_INVALID_VALUE")
                .satisfies(e -> assertThat(((CudaException) e).code()).isEqualTo(INVALID_VALUE));
    }

    @Test
    void theViewOfEveryGpuHasItsGranularityAndUnifiedMemoryAttributes() {
        CudaFacts facts = CudaFacts.read(cuda);
        assertThat(facts.gpus()).hasSize(2);
        for (CudaFacts.CudaGpu g : facts.gpus()) {
            VmGpu.GpuView v = VmGpu.view(cuda, g);
            assertThat(v.ordinal()).isEqualTo(g.ordinal());
            assertThat(v.vmmMinimumBytes()).isEqualTo(2 * MiB);
            assertThat(v.vmmRecommendedBytes()).isEqualTo(2 * MiB);
            assertThat(v.vmmWhy()).isEmpty();
            assertThat(v.unifiedMemory()).extracting(CudaFacts.Attribute::name).isSubsetOf(VmGpu.UNIFIED_MEMORY)
                    .contains("concurrentManagedAccess", "pageableMemoryAccess");
            assertThat(v.unifiedMemory()).filteredOn(a -> a.name().equals("concurrentManagedAccess"))
                    .singleElement().extracting(CudaFacts.Attribute::value).isEqualTo(1);
        }
        assertThat(fake.calls("cuMemGetAllocationGranularity")).isEqualTo(4);
        fake.assertNothingLive();
    }

    @Test
    void aDriverThatRefusesGranularitySaysWhyAndReleasesTheContext() {
        fake.failOnce("cuMemGetAllocationGranularity", 801, 0); // CUDA_ERROR_NOT_SUPPORTED
        VmGpu.GpuView v = VmGpu.view(cuda, CudaFacts.read(cuda).gpus().getFirst());
        assertThat(v.vmmMinimumBytes()).isNull();
        assertThat(v.vmmRecommendedBytes()).isNull();
        assertThat(v.vmmWhy()).contains("CUDA_ERROR_NOT_SUPPORTED");
        fake.assertNothingLive();
    }

    // ---- managed memory ----

    /** The four cases on GPU 0, 64 MiB of host memory and 40 MiB free on the GPU: 4 MiB buffers. */
    List<Result> runCases(List<TestCase<Target>> cases) {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            Target t = new Target(b, 64 * MiB, 40 * MiB);
            List<Result> results = Runner.run(cases, t, k -> { });
            assertThat(fake.live("managed")).as("managed buffers freed: " + fake.liveSummary()).isZero();
            assertThat(fake.live("device")).as(fake.liveSummary()).isZero();
            return results;
        } finally {
            fake.assertNothingLive();
        }
    }

    @Test
    void theFourMigrationCasesRunAndFreeTheirBuffers() {
        fake.setElapsedMs(2f);
        List<Result> results = runCases(ManagedMigration.all());
        assertThat(results).extracting(Result::key)
                .containsExactly("managed_gpu_faults_h2d", "managed_cpu_faults_d2h", "managed_prefetch_h2d", "managed_prefetch_d2h");
        assertThat(results).allSatisfy(r -> {
            assertThat(r.status()).as(r.key() + ": " + r.why()).isEqualTo(Status.OK);
            assertThat(r.unit()).isEqualTo(Unit.of("GB/s"));
            assertThat(r.value().samples()).isEqualTo(5);
            ManagedMigration.MigrationDetail d = (ManagedMigration.MigrationDetail) r.detail();
            assertThat(d.bufferBytes()).isEqualTo(4 * MiB);
            assertThat(d.gpu()).isEqualTo("NVIDIA H200 (0000:1a:00.0)");
            // only the CPU case counts faults: the GPU-side cases' faults are the driver's, not this thread's
            assertThat(d.cpuFaultsCounted() == null).as(r.key()).isEqualTo(!r.key().equals("managed_cpu_faults_d2h"));
        });
        // the GPU-side cases are timed by the fake's events: 4 MiB in 2 ms
        for (int i : new int[] {0, 2, 3}) {
            assertThat(results.get(i).value().median()).as(results.get(i).key()).isCloseTo(4 * MiB / 2e6, org.assertj.core.data.Offset.offset(1e-9));
        }
        // the CPU case counts its own faults; the fake moves nothing, so once the warm-up has
        // touched the buffer no lap faults again: the figure is per lap, not a running total
        Result back = results.get(1);
        assertThat(((ManagedMigration.MigrationDetail) back.detail()).cpuFaultsCounted()).isZero();
        assertThat(back.value().median()).isPositive();
        // no fault counted is said as such: the counter did not see them, never "faults from getrusage"
        assertThat(back.method()).isEqualTo(ManagedMigration.cpuMethod(0)).contains("saw none of its faults (0 counted)")
                .doesNotContain("faults from getrusage");
        assertThat(fake.calls("cuMemAllocManaged")).isEqualTo(4);
        // six laps each (one warm-up): the CPU case and the h2d case prefetch once a lap, the d2h case twice
        assertThat(fake.calls("cuMemPrefetchAsync_v2")).isEqualTo(6 + 6 + 6 + 6);
        // the last call was the d2h case's prefetch: to the host, the whole buffer, on the measuring stream
        assertThat(fake.lastPrefetch("type")).isEqualTo(2);
        assertThat(fake.lastPrefetch("count")).isEqualTo(4 * MiB);
        assertThat(fake.lastPrefetch("flags")).isZero();
        assertThat(fake.lastPrefetch("stream")).isEqualTo(1);
    }

    @Test
    void gpuFaultsLaunchTheCopyKernelOverTheManagedBuffer() {
        List<Result> results = runCases(List.of(new ManagedMigration(ManagedMigration.Kind.GPU_FAULTS_TO_DEVICE)));
        assertThat(results.getFirst().status()).as(results.getFirst().why()).isEqualTo(Status.OK);
        assertThat(fake.lastLaunch("params")).isEqualTo(3);
        assertThat(fake.lastLaunch("gridX")).as("4 blocks per SM of the fake's 132").isEqualTo(132 * 4);
        assertThat(fake.lastLaunch("blockX")).isEqualTo(512);
        assertThat(fake.lastLaunch("stream")).isEqualTo(1);
        assertThat(fake.lastLaunchParam(2)).as("16-byte units").isEqualTo(4 * MiB / 16);
        assertThat(fake.lastLaunchParam(1)).as("source: the managed buffer").isNotZero().isNotEqualTo(fake.lastLaunchParam(0));
        assertThat(fake.lastLaunchParam(1) % 4096).isZero();
    }

    @Test
    void prefetchToTheGpuNamesTheDeviceInTheLocation() {
        runCases(List.of(new ManagedMigration(ManagedMigration.Kind.PREFETCH_TO_DEVICE)));
        assertThat(fake.lastPrefetch("type")).isEqualTo(1);
        assertThat(fake.lastPrefetch("id")).isZero();
        assertThat(fake.lastPrefetch("count")).isEqualTo(4 * MiB);
    }

    @Test
    void theLocationPassedByValueArrivesIntact() {
        try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); ManagedBuffer m = new ManagedBuffer(cuda, 2 * MiB)) {
            assertThat(m.address() % 4096).isZero();
            // real memory on the CPU side
            m.segment().set(java.lang.foreign.ValueLayout.JAVA_LONG, 2 * MiB - 8, 0x5eed_5eedL);
            assertThat(m.segment().get(java.lang.foreign.ValueLayout.JAVA_LONG, 2 * MiB - 8)).isEqualTo(0x5eed_5eedL);
            m.prefetchToDevice(1, s);
            assertThat(fake.lastPrefetch("type")).isEqualTo(1);
            assertThat(fake.lastPrefetch("id")).isEqualTo(1);
            assertThat(fake.lastPrefetch("ptr")).isEqualTo(m.address());
            assertThat(fake.lastPrefetch("count")).isEqualTo(2 * MiB);
            m.prefetchToHost(s);
            assertThat(fake.lastPrefetch("type")).isEqualTo(2);
            // a device the driver does not have: refused, so the id is not lost on the way
            assertThatThrownBy(() -> m.prefetchToDevice(7, s)).isInstanceOf(CudaException.class)
                    .hasMessageContaining("cuMemPrefetchAsync").hasMessageContaining("CUDA_ERROR_INVALID_VALUE");
            assertThat(fake.live("managed")).isEqualTo(1);
            assertThat(fake.live("device")).as("managed memory is not device memory").isZero();
        }
        fake.assertNothingLive();
    }

    @Test
    void theFakeRefusesLocationTypesOtherThanDeviceAndHost() throws Throwable {
        MethodHandle prefetch = fake.function("cuMemPrefetchAsync_v2",
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, FakeDriver.MEM_LOCATION, JAVA_INT, ADDRESS));
        try (Gpu gpu = new Gpu(cuda, 0); ManagedBuffer m = new ManagedBuffer(cuda, 2 * MiB); DeviceBuffer d = gpu.alloc(2 * MiB);
             Arena a = Arena.ofConfined()) {
            MemorySegment loc = a.allocate(FakeDriver.MEM_LOCATION);
            record Call(int type, int id, long ptr, long count, int flags, int expected) {}
            for (Call c : List.of(
                    new Call(2, 0, m.address(), 2 * MiB, 0, 0),
                    new Call(1, 0, m.address(), 2 * MiB, 0, 0),
                    new Call(1, 1, m.address() + 4096, 4096, 0, 0),
                    new Call(0, 0, m.address(), 2 * MiB, 0, INVALID_VALUE),  // CU_MEM_LOCATION_TYPE_INVALID
                    new Call(3, 0, m.address(), 2 * MiB, 0, INVALID_VALUE),  // HOST_NUMA: not this fake's
                    new Call(1, 2, m.address(), 2 * MiB, 0, INVALID_VALUE),  // no third GPU
                    new Call(1, -1, m.address(), 2 * MiB, 0, INVALID_VALUE),
                    new Call(2, 0, m.address(), 2 * MiB + 1, 0, INVALID_VALUE), // past the end
                    new Call(2, 0, m.address(), 2 * MiB, 1, INVALID_VALUE),  // flags are reserved
                    new Call(2, 0, d.address(), 2 * MiB, 0, INVALID_VALUE))) { // device memory is not managed
                loc.set(JAVA_INT, 0, c.type());
                loc.set(JAVA_INT, 4, c.id());
                int r = (int) prefetch.invokeExact(c.ptr(), c.count(), loc, c.flags(), MemorySegment.NULL);
                assertThat(r).as(c.toString()).isEqualTo(c.expected());
            }
        }
        fake.assertNothingLive();
    }

    @Test
    void managedAllocationTakesOnlyTheAttachFlagsCudaHasAndNeedsAContext() {
        try (Gpu gpu = new Gpu(cuda, 0)) {
            MethodHandle alloc = fake.function("cuMemAllocManaged", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(JAVA_LONG);
                assertThat((int) alloc.invokeExact(out, 4096L, 4)).as("CU_MEM_ATTACH_SINGLE is for streams, not allocations").isEqualTo(INVALID_VALUE);
                assertThat((int) alloc.invokeExact(out, 0L, 1)).isEqualTo(INVALID_VALUE);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        }
        // no context current: CUDA_ERROR_INVALID_CONTEXT, as for every allocation
        assertThatThrownBy(() -> new ManagedBuffer(cuda, 4096)).isInstanceOf(CudaException.class).hasMessageContaining("INVALID_CONTEXT");
        fake.assertNothingLive();
    }

    @Test
    void withoutConcurrentManagedAccessEveryCaseIsNotRun() {
        for (int value : new int[] {0, FakeDriver.UNKNOWN}) {
            fake.reset();
            cuda = fake.ready();
            fake.setAttribute(CONCURRENT_MANAGED_ACCESS, value);
            assertThat(cuda.attribute(0, CONCURRENT_MANAGED_ACCESS).isPresent()).isEqualTo(value != FakeDriver.UNKNOWN);
            List<Result> results = runCases(ManagedMigration.all());
            assertThat(results).hasSize(4).allSatisfy(r -> {
                assertThat(r.status()).isEqualTo(Status.NOT_RUN);
                assertThat(r.why()).startsWith("concurrentManagedAccess is 0").contains("page faults");
            });
            assertThat(fake.calls("cuMemAllocManaged")).as("nothing allocated for cases that do not run").isZero();
        }
    }

    @Test
    void theFakeRefusesToPrefetchToAGpuWithoutConcurrentManagedAccess() {
        fake.setAttribute(CONCURRENT_MANAGED_ACCESS, 0);
        try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); ManagedBuffer m = new ManagedBuffer(cuda, 2 * MiB)) {
            assertThatThrownBy(() -> m.prefetchToDevice(0, s)).isInstanceOf(CudaException.class).hasMessageContaining("CUDA_ERROR_INVALID_DEVICE");
            m.prefetchToHost(s); // to the host is always possible
        }
        fake.assertNothingLive();
    }

    @Test
    void aDriverFailureInACaseIsAFailedRowAndTheBufferIsStillFreed() {
        fake.failOnce("cuMemPrefetchAsync_v2", 719, 2); // CUDA_ERROR_LAUNCH_FAILED, two laps in
        List<Result> results = runCases(List.of(new ManagedMigration(ManagedMigration.Kind.PREFETCH_TO_DEVICE),
                new ManagedMigration(ManagedMigration.Kind.PREFETCH_TO_HOST)));
        assertThat(results.get(0).status()).isEqualTo(Status.FAILED);
        assertThat(results.get(0).why()).isEqualTo("cuMemPrefetchAsync: CUDA_ERROR_LAUNCH_FAILED (719)");
        assertThat(results.get(1).status()).as("the next case runs").isEqualTo(Status.OK);
        assertThat(fake.calls("cuMemAllocManaged")).isEqualTo(2);
    }

    @Test
    void aManagedAllocationThatFailsLeavesNothing() {
        fake.failOnce("cuMemAllocManaged", 2, 0); // CUDA_ERROR_OUT_OF_MEMORY
        List<Result> results = runCases(List.of(new ManagedMigration(ManagedMigration.Kind.GPU_FAULTS_TO_DEVICE)));
        assertThat(results.getFirst().status()).isEqualTo(Status.FAILED);
        assertThat(results.getFirst().why()).contains("cuMemAllocManaged").contains("CUDA_ERROR_OUT_OF_MEMORY");
    }

    @Test
    void aDriverOlderThanPrefetchV2FailsThoseCasesAndFreesTheBuffers(@TempDir Path dir) {
        FakeDriver old = FakeDriver.build(dir, List.of("-DFAKE_CUDA_OLD"));
        old.reset();
        Cuda oldCuda = old.ready();
        assertThat(oldCuda.has("cuMemPrefetchAsync")).isFalse();
        assertThat(oldCuda.has("cuMemAllocManaged")).isTrue();
        List<Result> results;
        try (GpuBench b = new GpuBench(oldCuda, 0)) {
            results = Runner.run(ManagedMigration.all(), new Target(b, 64 * MiB, 40 * MiB), k -> { });
        }
        old.assertNothingLive();
        assertThat(results.get(0).status()).as("GPU faults need no prefetch").isEqualTo(Status.OK);
        for (Result r : results.subList(1, 4)) {
            assertThat(r.status()).as(r.key()).isEqualTo(Status.FAILED);
            assertThat(r.why()).contains("cuMemPrefetchAsync").contains("not in this driver");
        }
    }

    // ---- the command with the fake as the driver ----

    @Test
    void vmMeasuresManagedMemoryOnTheFirstGpuAndShowsEveryGpu() throws Exception {
        fake.setFreeMemory(40 * MiB);
        fake.setElapsedMs(1f);
        fake.use();
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(new String[] {"vm", "--only", "managed_gpu_faults_h2d,managed_prefetch_h2d", "--json"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(out.toString());
        assertThat(j.path("host")).as("GPU keys only: no host measurement").isEmpty();
        JsonNode gpu = j.path("gpu");
        assertThat(gpu.path("notRun").asText()).isEmpty();
        assertThat(gpu.path("measuredOn").asText()).isEqualTo("GPU0: NVIDIA H200 (0000:1a:00.0)");
        assertThat(gpu.path("measuredPciAddress").asText()).isEqualTo("0000:1a:00.0");
        assertThat(j.path("figures").findValuesAsText("key")).containsExactly("managed_gpu_faults_h2d", "managed_prefetch_h2d");
        assertThat(j.path("figures").findValuesAsText("scope")).containsOnly("gpu:0000:1a:00.0");
        assertThat(gpu.path("gpus")).hasSize(2);
        assertThat(gpu.path("gpus").get(1).path("name").asText()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(gpu.path("gpus").get(0).path("vmmMinimumBytes").asLong()).isEqualTo(2 * MiB);
        assertThat(gpu.path("gpus").get(0).path("vmmRecommendedBytes").asLong()).isEqualTo(2 * MiB);
        assertThat(gpu.path("results")).hasSize(2);
        for (JsonNode r : gpu.path("results")) {
            assertThat(r.path("status").asText()).as(r.path("key").asText() + ": " + r.path("why").asText()).isEqualTo("ok");
            assertThat(r.path("detail").path("bufferBytes").asLong()).as("a tenth of the GPU's free memory, 2 MiB aligned").isEqualTo(4 * MiB);
        }
        assertThat(j.path("verdicts").toString()).contains("Managed memory reaches the GPU");
        fake.assertNothingLive();
    }

    // ---- a quick report: every case skipped ----

    @Test
    void whereEveryCaseIsSkippedNoBenchIsMade() {
        fake.use();
        String why = "--quick measures the headline figures only (the full report measures this)";
        List<TestCase<Target>> skipped = VmDrill.gpuTests().stream().map(t -> (TestCase<Target>) new Skipped<>(t, why)).toList();
        VmGpu g = VmDrill.gpu(FsRoot.live(), null, skipped, new MemoryCap(64 * MiB, "a test's"), ProgressSink.NONE, VmDrill.Reused.NONE);
        assertThat(g.results()).extracting(Result::key).containsExactlyElementsOf(VmDrill.gpuTests().stream().map(TestCase::key).toList());
        assertThat(g.results()).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(Status.NOT_RUN);
            assertThat(r.why()).isEqualTo(why);
        });
        assertThat(g.measuredOn()).isEqualTo("GPU0: NVIDIA H200 (0000:1a:00.0)");
        assertThat(g.gpus()).as("every GPU's facts still").hasSize(2);
        // a bench loads hostside's kernels and makes its streams: none of it for cases that do not run
        assertThat(fake.calls("cuModuleLoadData")).isZero();
        assertThat(fake.calls("cuStreamCreate")).isZero();
        fake.assertNothingLive();
    }
}
