package hostside.gpu.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Json;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.libc.Sched;
import hostside.testing.CliRun;

/**
 * The copies from each NUMA node against the fake driver, on this machine's CPUs: the buffer
 * mapped, bound and registered in place from a thread of its own with the GPU's context current
 * there, the pinned copies timed by the fake's events, the pageable ones by the host's clock, and
 * everything unregistered and unmapped after, on every path. No figure here says anything about a GPU.
 */
class NodeCopiesOnFakeTest extends OnFakeGpu {

    static CpuSet mine() {
        return CpuSet.of(Sched.affinity().stream().mapToInt(Integer::intValue).toArray());
    }


    @Test
    void nodeZeroIsMeasuredFromARegisteredBufferOnAThreadOfItsOwn() {
        fake.setElapsedMs(1f);
        Result r = runOnGpu0(new NodeCopies().from(List.of(new NodeCopies.From(0, mine())), 0));
        assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
        assertThat(r.unit()).isEqualTo(Unit.PERCENT);
        assertThat(r.better()).isEqualTo(Better.HIGHER);
        assertThat(r.value().median()).as("one node: the share of itself").isEqualTo(100.0);
        NodeCopies.NodeDetail d = (NodeCopies.NodeDetail) r.detail();
        assertThat(d.gpu()).isEqualTo("NVIDIA H200 (0000:1a:00.0)");
        assertThat(d.pinnedBufferBytes()).isEqualTo(16 * MiB);
        assertThat(d.pageableBufferBytes()).isEqualTo(16 * MiB);
        assertThat(d.ownNode()).isZero();
        NodeCopies.Row row = d.rows().getFirst();
        assertThat(row.node()).isZero();
        // 8 copies of 16 MiB in the 1 ms the fake's events report, as host_to_device_ce_pinned
        assertThat(row.h2dPinned().median()).isCloseTo(8 * 16 * MiB / 1e-3 / 1e9, Offset.offset(1e-9));
        assertThat(row.d2hPinned().samples()).as("the fake's events say 1 ms every time: settled at the least samples").isEqualTo(5);
        // the pageable copies are timed on the host's clock around the fake's calls, which is noise alone
        assertThat(row.h2dPageable().samples()).isBetween(5, 10);
        // every page on node 0, wherever mbind and move_pages are allowed (a seccomp profile may refuse them)
        if (row.unbound().isEmpty() && row.onNode() != null) assertThat(row.onNode()).isEqualTo(1.0);
        // registered once, in place, and unregistered on close; the pinned copies ran on the registered pages
        assertThat(fake.calls("cuMemHostRegister_v2")).isEqualTo(1);
        assertThat(fake.calls("cuMemHostUnregister")).isEqualTo(1);
        assertThat(fake.calls("cuMemHostAlloc")).as("only the bench's flag word").isEqualTo(1);
    }

    @Test
    void aNodeTheKernelRefusesIsPlacedByFirstTouchAndSaysSo() {
        // this machine has no node 1000: mbind refuses it, the pages come from the touching CPU's node
        fake.setElapsedMs(1f);
        Result r = runOnGpu0(new NodeCopies().from(List.of(new NodeCopies.From(1000, mine())), null));
        assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
        NodeCopies.Row row = ((NodeCopies.NodeDetail) r.detail()).rows().getFirst();
        assertThat(row.unbound()).startsWith("mbind to node 1000: ");
        if (row.onNode() != null) assertThat(row.onNode()).as("no page on a node that does not exist").isZero();
    }

    @Test
    void aDriverFailureMidwayIsAFailedRowAndLeavesNothingRegisteredOrMapped() {
        fake.setElapsedMs(1f);
        // CUDA_ERROR_LAUNCH_FAILED inside the pinned device-to-host copies: the pageable ones before them make
        // 24 to 44 such calls (1 warm-up and 5 to 10 samples of 4 copies, as their host-clocked samples settle),
        // the pinned ones at least 48 more (1 warm-up and 5 samples of 8)
        fake.failOnce("cuMemcpyDtoHAsync_v2", 719, 65);
        Result r = runOnGpu0(new NodeCopies().from(List.of(new NodeCopies.From(0, mine())), 0));
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.why()).isEqualTo("cuMemcpyDtoHAsync: CUDA_ERROR_LAUNCH_FAILED (719)");
        assertThat(fake.calls("cuMemHostRegister_v2")).as("it failed after the registration").isEqualTo(1);
        assertThat(fake.live("registered")).isZero();
    }

    @Test
    void withoutNodesItDoesNotApply() {
        Result r = runOnGpu0(new NodeCopies());
        assertThat(r.status()).isEqualTo(Status.NOT_RUN);
        assertThat(r.why()).contains("NUMA node");
    }

    @Test
    void machineRunsItOnEveryGpuWithThisMachinesNodesAndListsItsFigures() throws Exception {
        fake.setFreeMemory(64 * MiB);
        fake.setElapsedMs(1f);
        fake.use();
        CliRun run = CliRun.of("machine", "--only", NodeCopies.KEY, "--json");
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(run.out());
        JsonNode gpus = j.path("gpu").path("runs");
        assertThat(gpus).hasSize(2);
        for (JsonNode g : gpus) {
            JsonNode r = g.path("results").get(0);
            assertThat(r.path("key").asText()).isEqualTo(NodeCopies.KEY);
            assertThat(r.path("status").asText()).as(r.path("why").asText()).isEqualTo("ok");
            assertThat(r.path("detail").path("rows")).isNotEmpty();
        }
        List<String> scopes = j.path("figures").findValuesAsText("scope");
        assertThat(scopes).contains("gpu:0000:1a:00.0").anyMatch(s -> s.startsWith("gpunode:0000:1a:00.0,"));
        assertThat(j.path("figures").findValuesAsText("key")).contains(NodeCopies.KEY, NodeCopies.H2D_PINNED, NodeCopies.D2H_PINNED,
                NodeCopies.H2D_PAGEABLE, NodeCopies.D2H_PAGEABLE);
        fake.assertNothingLive();
        CliRun list = CliRun.of("machine", "--list");
        assertThat(list.out()).contains(NodeCopies.KEY);
    }
}
