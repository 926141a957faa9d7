package hostside.gpu.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Better;
import hostside.core.Json;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.libc.Sched;
import hostside.testing.CliRun;

/**
 * The launch and copy submission costs against the fake driver, on this machine's CPUs: each core
 * on a thread of its own with the GPU's context current there, the launches and submissions counted
 * by the fake (none lost, the queue synchronized between batches), and the buffers and the prepared
 * launch released on every path. No figure here says anything about a host or a GPU.
 */
class LaunchCostOnFakeTest extends OnFakeGpu {
    /** Calls of each kind per pass over a core: warm-ups and samples. */
    static final int PASS = (LaunchCost.SAMPLING.warmups() + LaunchCost.SAMPLING.samples()) * LaunchCost.CALLS;

    static int someCpu() {
        List<Integer> mine = Sched.affinity();
        return mine.getLast();
    }


    @Test
    void eachCoreLaunchesAndSubmitsFromAThreadOfItsOwn() {
        int cpu = someCpu();
        Result r = runOnGpu0(new LaunchCost().from(List.of(new LaunchCost.Core("P-core", cpu), new LaunchCost.Core("E-core", cpu)), true));
        assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
        assertThat(r.unit()).isEqualTo(Unit.NS);
        assertThat(r.better()).isEqualTo(Better.LOWER);
        LaunchCost.LaunchDetail d = (LaunchCost.LaunchDetail) r.detail();
        assertThat(d.gpu()).isEqualTo("NVIDIA H200 (0000:1a:00.0)");
        assertThat(d).extracting(LaunchCost.LaunchDetail::callsPerSample, LaunchCost.LaunchDetail::batch, LaunchCost.LaunchDetail::copyBytes)
                .containsExactly(1024, 256, 4096L);
        assertThat(d.rows()).extracting(LaunchCost.Row::kind).containsExactly("P-core", "E-core");
        assertThat(d.rows()).allSatisfy(x -> {
            assertThat(x.cpu()).isEqualTo(cpu);
            assertThat(x.launchNs().samples()).isEqualTo(9);
            assertThat(x.submitNs().samples()).isEqualTo(9);
            assertThat(x.launchNs().min()).isPositive();
            assertThat(x.submitNs().min()).isPositive();
        });
        assertThat(r.value()).as("the first core's launch").isEqualTo(d.rows().getFirst().launchNs());
        // the first core has a pass thrown away for the JIT; every launch is the empty kernel's, on the bench's stream
        assertThat(fake.calls("cuLaunchKernel")).isEqualTo(3 * PASS);
        assertThat(fake.calls("cuMemcpyHtoDAsync_v2")).isEqualTo(3 * PASS);
        assertThat(fake.lastLaunch("params")).isZero();
        assertThat(fake.lastLaunch("stream")).isEqualTo(1);
        // a synchronize after each batch of 256: never more than that many calls pending
        assertThat(fake.calls("cuStreamSynchronize")).isEqualTo(2 * 3 * PASS / LaunchCost.BATCH);
    }

    @Test
    void aDriverFailureMidwayIsAFailedResultAndLeavesNothingBehind() {
        // CUDA_ERROR_LAUNCH_FAILED inside the first core's launches
        fake.failOnce("cuLaunchKernel", 719, 5000);
        Result r = runOnGpu0(new LaunchCost().from(List.of(new LaunchCost.Core("uniform", someCpu())), true));
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.why()).isEqualTo("cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (719)");
        // it stopped there (the buffers and the prepared launch released, as runOnGpu0 checks)
        assertThat(fake.calls("cuLaunchKernel")).isEqualTo(5001);
        assertThat(fake.calls("cuMemcpyHtoDAsync_v2")).isZero();
        // and inside the copy submissions, through the prepared call
        fake.reset();
        cuda = fake.ready();
        fake.failOnce("cuMemcpyHtoDAsync_v2", 719, 5000);
        Result copy = runOnGpu0(new LaunchCost().from(List.of(new LaunchCost.Core("uniform", someCpu())), true));
        assertThat(copy.status()).isEqualTo(Status.FAILED);
        assertThat(copy.why()).isEqualTo("cuMemcpyHtoDAsync: CUDA_ERROR_LAUNCH_FAILED (719)");
    }

    @Test
    void withoutCoresOrOnAnotherGpuItDoesNotApply() {
        Result none = runOnGpu0(new LaunchCost());
        assertThat(none.status()).isEqualTo(Status.NOT_RUN);
        assertThat(none.why()).contains("no CPU");
        Result other = runOnGpu0(new LaunchCost().from(List.of(new LaunchCost.Core("uniform", someCpu())), false));
        assertThat(other.status()).isEqualTo(Status.NOT_RUN);
        assertThat(other.why()).contains("first GPU only");
        assertThat(fake.calls("cuLaunchKernel")).isZero();
    }

    @Test
    void machineRunsItOnTheFirstGpuOnlyAndListsItsFigures() throws Exception {
        fake.setFreeMemory(64 * MiB);
        fake.use();
        CliRun run = CliRun.of("machine", "--only", LaunchCost.KEY, "--json");
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(run.out());
        JsonNode gpus = j.path("gpu").path("runs");
        assertThat(gpus).hasSize(2);
        JsonNode first = gpus.get(0).path("results").get(0), second = gpus.get(1).path("results").get(0);
        assertThat(first.path("key").asText()).isEqualTo(LaunchCost.KEY);
        assertThat(first.path("status").asText()).as(first.path("why").asText()).isEqualTo("ok");
        assertThat(first.path("detail").path("rows")).isNotEmpty();
        assertThat(second.path("status").asText()).isEqualTo("not run");
        assertThat(second.path("why").asText()).contains("first GPU only");
        List<String> keys = j.path("figures").findValuesAsText("key");
        assertThat(keys).contains(LaunchCost.KEY, LaunchCost.LAUNCH, LaunchCost.SUBMIT);
        assertThat(j.path("figures").findValuesAsText("scope")).anyMatch(s -> s.startsWith("cpu:"));
        // the verdict: one line for a uniform CPU or one per smaller kind
        assertThat(gpus.get(0).path("verdicts").toString()).containsAnyOf("a kernel launch costs", "launches from", "the feeder should not run");
        fake.assertNothingLive();
        CliRun list = CliRun.of("machine", "--list");
        assertThat(list.out()).contains(LaunchCost.KEY);
    }
}
