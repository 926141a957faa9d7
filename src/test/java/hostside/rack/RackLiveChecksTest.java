package hostside.rack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.Runs;
import hostside.gpu.bench.Copies;
import hostside.gpu.cuda.FabricReadiness;
import hostside.gpu.nvml.FabricHealth;
import hostside.gpu.nvml.NvmlGpu;
import hostside.harness.Result;
import hostside.machine.GpuDrill;
import hostside.testing.RuleTally;

/** The rows only a live machine answers, judged from NVML's and CUDA's typed answers. */
class RackLiveChecksTest {
    static NvmlGpu gpu(int index, Boolean persistence, NvmlGpu.Fabric fabric, NvmlGpu.Platform platform, NvmlGpu.C2c c2c) {
        return new NvmlGpu(index, "NVIDIA GB200", "GPU-" + index, "0008:0" + index + ":00.0", 5, 16, 5, 16, 5, null, CpuSet.range(0, 71), persistence,
                1980, 1980, 2619, 2619, true, true, 196L << 30, List.of(), fabric, "ATS", false, false, null, platform, c2c, List.of());
    }

    static final String UUID = "6b1a3c9e-0000-4000-8000-0000000000aa";

    static NvmlGpu.Fabric fabric(NvmlGpu.Fabric.State state, Integer status, String uuid, NvmlGpu.Fabric.HealthSummary health, Integer mask) {
        return new NvmlGpu.Fabric(state, status != null && status != 0 ? "NVML_ERROR_UNKNOWN (999)" : null, uuid, 3L, health, status,
                mask == null ? null : (long) mask, mask == null ? null : FabricHealth.decode(mask));
    }

    static final NvmlGpu.Fabric HEALTHY = fabric(NvmlGpu.Fabric.State.COMPLETED, 0, UUID, NvmlGpu.Fabric.HealthSummary.HEALTHY, 0);

    @Test
    void persistenceOffIsAWarningWithTheDaemonAsTheFix() {
        RackCheck c = RackLiveChecks.persistence(List.of(gpu(0, true, HEALTHY, null, null), gpu(1, false, HEALTHY, null, null)));
        assertThat(c.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(c.value()).isEqualTo("off: GPU1; on: GPU0");
        assertThat(c.fix()).contains("nvidia-persistenced");
        assertThat(RackLiveChecks.persistence(List.of(gpu(0, true, HEALTHY, null, null))).verdict()).isEqualTo(RackVerdict.OK);
        assertThat(RackLiveChecks.persistence(List.of(gpu(0, null, HEALTHY, null, null))).verdict()).isEqualTo(RackVerdict.UNKNOWN);
    }

    @Test
    void fabricStateNeedsCompletedSuccessAUuidAndHealth() {
        assertThat(RackLiveChecks.fabricState(List.of(gpu(0, true, HEALTHY, null, null))).verdict()).isEqualTo(RackVerdict.OK);
        // the H200: NVML answers "not supported"
        NvmlGpu pcie = gpu(0, true, new NvmlGpu.Fabric(NvmlGpu.Fabric.State.NOT_SUPPORTED, null, null, null, null), null, null);
        assertThat(RackLiveChecks.fabricState(List.of(pcie)).verdict()).isEqualTo(RackVerdict.NA);

        RackCheck inProgress = RackLiveChecks.fabricState(List.of(gpu(0, true, fabric(NvmlGpu.Fabric.State.IN_PROGRESS, null, null, null, null), null, null)));
        assertThat(inProgress.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(inProgress.why()).contains("fabric manager is down");
        assertThat(inProgress.fix()).contains("nvidia-fabricmanager");

        RackCheck noUuid = RackLiveChecks.fabricState(List.of(gpu(0, true, fabric(NvmlGpu.Fabric.State.COMPLETED, 0, "00000000-0000-0000-0000-000000000000",
                NvmlGpu.Fabric.HealthSummary.HEALTHY, 0), null, null)));
        assertThat(noUuid.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(noUuid.why()).contains("NCCL turns multi-node NVLink off");

        RackCheck failed = RackLiveChecks.fabricState(List.of(gpu(0, true, fabric(NvmlGpu.Fabric.State.COMPLETED, 999, UUID, null, null), null, null)));
        assertThat(failed.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(failed.why()).contains("completed with NVML_ERROR_UNKNOWN");

        // degraded bandwidth: bits 0-1 = 1 (true) in NVML's mask
        RackCheck degraded = RackLiveChecks.fabricState(List.of(gpu(0, true, fabric(NvmlGpu.Fabric.State.COMPLETED, 0, UUID,
                NvmlGpu.Fabric.HealthSummary.LIMITED_CAPACITY, 1), null, null)));
        assertThat(degraded.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(degraded.why()).contains("degraded bandwidth").contains("limited capacity");
    }

    static FabricReadiness.Step step(String name, FabricReadiness.StepOutcome o, String error, Integer code, Long us) {
        return new FabricReadiness.Step(name, o == FabricReadiness.StepOutcome.NOT_RUN ? null : "cuMemCreate", o, error, code, us);
    }

    static FabricReadiness noChannel(int ordinal, Integer multicast) {
        return new FabricReadiness(ordinal, FabricReadiness.Outcome.NOT_READY, FabricReadiness.STEP_ALLOCATE,
                "the driver would not allocate 2 MiB with a fabric handle (cuMemCreate: CUDA_ERROR_NOT_PERMITTED (800))", "no IMEX channel ...",
                List.of(step(FabricReadiness.STEP_ATTRIBUTE, FabricReadiness.StepOutcome.OK, null, null, 3L),
                        step(FabricReadiness.STEP_ALLOCATE, FabricReadiness.StepOutcome.FAILED, "CUDA_ERROR_NOT_PERMITTED", 800, 41L)),
                2L << 20, 1, multicast, null);
    }

    static FabricReadiness ready(int ordinal) {
        return new FabricReadiness(ordinal, FabricReadiness.Outcome.READY, null, "allocated 2 MiB with a fabric handle, exported the handle and imported it again",
                null, List.of(step(FabricReadiness.STEP_ATTRIBUTE, FabricReadiness.StepOutcome.OK, null, null, 2L),
                step(FabricReadiness.STEP_ALLOCATE, FabricReadiness.StepOutcome.OK, null, null, 120L),
                step(FabricReadiness.STEP_EXPORT, FabricReadiness.StepOutcome.OK, null, null, 15L),
                step(FabricReadiness.STEP_IMPORT, FabricReadiness.StepOutcome.OK, null, null, 30L)), 2L << 20, 1, 1, FabricReadiness.IN_PROCESS);
    }

    @Test
    void onlyAFailedReadinessTestIsBadAndItNamesTheStep() {
        RackCheck bad = RackLiveChecks.readiness(List.of(ready(0), noChannel(1, 1)));
        assertThat(bad.verdict()).isEqualTo(RackVerdict.BAD);
        assertThat(bad.value()).isEqualTo("not ready on 1 of 2 GPUs: allocate with a fabric handle (cuMemCreate: CUDA_ERROR_NOT_PERMITTED 800)");
        assertThat(bad.fix()).startsWith("no IMEX channel");

        RackCheck ok = RackLiveChecks.readiness(List.of(ready(0), ready(1)));
        assertThat(ok.verdict()).isEqualTo(RackVerdict.OK);
        assertThat(ok.value()).contains("ready on 2 of 2 GPUs").contains("allocate with a fabric handle 120 us").contains("import the fabric handle 30 us");
        assertThat(ok.why()).contains("another process or on another node can still fail");

        FabricReadiness na = new FabricReadiness(0, FabricReadiness.Outcome.NOT_APPLICABLE, null, "NVML says this GPU is on no NVLink fabric (NVML_GPU_FABRIC_STATE_NOT_SUPPORTED)",
                null, List.of(), 2L << 20, 1, 0, null);
        RackCheck n = RackLiveChecks.readiness(List.of(na));
        assertThat(n.verdict()).isEqualTo(RackVerdict.NA);
        assertThat(n.why()).contains("no NVLink fabric");
    }

    @Test
    void nvlsIsQuietWhereNoGpuSupportsMulticast() {
        // two GPUs whose fabric test passed, on a fabric without NVLink SHARP: attribute 132 is 0 on both
        FabricReadiness a = ready(0), b = ready(1);
        List<FabricReadiness> noMulticast = List.of(
                new FabricReadiness(0, a.outcome(), null, a.why(), null, a.steps(), a.allocationBytes(), 1, 0, a.caveat()),
                new FabricReadiness(1, b.outcome(), null, b.why(), null, b.steps(), b.allocationBytes(), 1, 0, b.caveat()));
        RackCheck c = RackLiveChecks.nvls(noMulticast);
        RuleTally.quiet(c.finding() == null ? List.of() : List.of(c.finding()), RackRules.NVLS);
    }

    @Test
    void nvlsIsReportedNeverTried() {
        RackCheck c = RackLiveChecks.nvls(List.of(ready(0)));
        assertThat(c.verdict()).isEqualTo(RackVerdict.INFO);
        assertThat(c.why()).contains("never creates a multicast object");
        assertThat(c.fix()).contains("maintenance window").contains("NCCL_NVLS_ENABLE=0");
    }

    @Test
    void c2cDisabledOrWithALinkDownIsAWarning() {
        NvmlGpu.C2c up = new NvmlGpu.C2c(NvmlGpu.C2c.Mode.ENABLED, 2, List.of(new NvmlGpu.C2cLink(0, true, 225_000L), new NvmlGpu.C2cLink(1, true, 225_000L)));
        NvmlGpu.C2c oneDown = new NvmlGpu.C2c(NvmlGpu.C2c.Mode.ENABLED, 2, List.of(new NvmlGpu.C2cLink(0, true, 225_000L), new NvmlGpu.C2cLink(1, false, 225_000L)));
        Platform gh200 = new Platform(Platform.Kind.GRACE_HOPPER, "test");
        RackCheck ok = RackLiveChecks.c2c(gh200, List.of(gpu(0, true, HEALTHY, null, up)), null);
        assertThat(ok.verdict()).isEqualTo(RackVerdict.OK);
        assertThat(ok.value()).isEqualTo("GPU0 enabled, 2 of 2 links up, 450 GB/s at most");
        RackCheck down = RackLiveChecks.c2c(gh200, List.of(gpu(0, true, HEALTHY, null, oneDown)), null);
        assertThat(down.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(down.why()).contains("1 C2C link(s) down");
        RackCheck disabled = RackLiveChecks.c2c(gh200, List.of(gpu(0, true, HEALTHY, null, new NvmlGpu.C2c(NvmlGpu.C2c.Mode.DISABLED, null, null))), null);
        assertThat(disabled.verdict()).isEqualTo(RackVerdict.WARN);
    }

    @Test
    void aGh200sCopyIsNeverJudgedAgainstOneUsersFigure() {
        // 346 GB/s is one user's nvbandwidth run with unknown clocks (nvbandwidth#23): quoted, never a floor (platforms.md's corrections)
        NvmlGpu.C2c up = new NvmlGpu.C2c(NvmlGpu.C2c.Mode.ENABLED, 2, List.of(new NvmlGpu.C2cLink(0, true, 225_000L), new NvmlGpu.C2cLink(1, true, 225_000L)));
        Platform gh200 = new Platform(Platform.Kind.GRACE_HOPPER, "test");
        Result h2d = Runs.ok(new Copies.CePinned(true).key(), Unit.GB_PER_S,
                Stats.of(120.0), null);
        var section = new GpuDrill.GpuSection("", null, null,
                List.of(new GpuDrill.GpuRun("GPU0", "0008:00:00.0", List.of(h2d), List.of(), null)), List.of(), List.of());
        RackCheck c = RackLiveChecks.c2c(gh200, List.of(gpu(0, true, HEALTHY, null, up)), section);
        assertThat(c.verdict()).as("120 GB/s is a third of 346, and still no warning rests on one user's figure").isEqualTo(RackVerdict.OK);
        assertThat(c.value()).contains("host to device 120.0 GB/s");
        assertThat(c.why()).contains("single user's run with unknown clocks").contains("not judged against it");
    }

    @Test
    void failureDomainShowsTheChassisByHashOnly() {
        NvmlGpu.Platform p = new NvmlGpu.Platform(true, 2, "9f86d081884c7d65", 4, 7, 1, 0, 2);
        RackCheck c = RackLiveChecks.failureDomain(RackFixturesTest.judgeFacts("gb200-tray"), List.of(gpu(0, true, HEALTHY, p, null)));
        assertThat(c.verdict()).isEqualTo(RackVerdict.INFO);
        assertThat(c.value()).contains("GPU0: chassis 9f86d081, tray 7, slot 4, host 1").contains("GPU0, GPU1 share node 0").contains("GPU2, GPU3 share node 1");
        assertThat(c.why()).contains("hash of its serial number");
    }
}
