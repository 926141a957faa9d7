package hostside.gpu.cuda;

import static hostside.gpu.cuda.FabricReadiness.STEP_ALLOCATE;
import static hostside.gpu.cuda.FabricReadiness.STEP_ATTRIBUTE;
import static hostside.gpu.cuda.FabricReadiness.STEP_EXPORT;
import static hostside.gpu.cuda.FabricReadiness.STEP_FABRIC;
import static hostside.gpu.cuda.FabricReadiness.STEP_IMPORT;
import static hostside.gpu.cuda.FabricReadiness.STEP_RELEASE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import hostside.gpu.cuda.FabricReadiness.Fabric;
import hostside.gpu.cuda.FabricReadiness.Outcome;
import hostside.gpu.cuda.FabricReadiness.Step;
import hostside.gpu.cuda.FabricReadiness.StepOutcome;

/**
 * The fabric readiness check against the fake driver, which by default is the H200 VM as it
 * answered: attribute 128 is 1, 132 is 0, and there is no IMEX channel.
 */
class FabricReadinessOnFakeTest extends OnFakeDriver {
    static final Fabric COMPLETE = new Fabric(Fabric.State.COMPLETED, true, 4);

    /** Every path releases what it made, the context included: the fake counts VMM handles as live. */
    @AfterEach
    void nothingLeftBehind() {
        fake.assertNothingLive();
    }

    private static Step step(FabricReadiness r, String name) {
        return r.steps().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<StepOutcome> outcomes(FabricReadiness r) {
        return r.steps().stream().map(Step::outcome).toList();
    }

    @Test
    void aGpuWithoutFabricHandlesIsNotApplicableAndNothingIsAllocated() {
        fake.setAttribute(Cuda.ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, 0);
        FabricReadiness r = FabricReadiness.check(cuda, 0, COMPLETE);
        assertThat(r.outcome()).isEqualTo(Outcome.NOT_APPLICABLE);
        assertThat(r.why()).isEqualTo("this GPU has no fabric handles: no multi-node NVLink");
        assertThat(r.fix()).isNull();
        assertThat(r.handleTypeFabricSupported()).isZero();
        assertThat(outcomes(r)).containsExactly(StepOutcome.OK, StepOutcome.NOT_RUN, StepOutcome.NOT_RUN,
                StepOutcome.NOT_RUN, StepOutcome.NOT_RUN, StepOutcome.NOT_RUN);
        assertThat(fake.calls("cuMemCreate")).isZero();
    }

    @Test
    void aDriverThatDoesNotKnowTheAttributeIsNotApplicableWithNullNotZero() {
        fake.setAttribute(Cuda.ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, FakeDriver.UNKNOWN);
        FabricReadiness r = FabricReadiness.check(cuda, 0, null);
        assertThat(r.outcome()).isEqualTo(Outcome.NOT_APPLICABLE);
        assertThat(r.handleTypeFabricSupported()).isNull();
        assertThat(r.why()).contains("does not know fabric handles");
    }

    @Test
    void withoutAnImexChannelTheAllocationIsRefusedAndTheFixNamesTheChannel() {
        FabricReadiness r = FabricReadiness.check(cuda, 0, null);
        assertThat(r.outcome()).isEqualTo(Outcome.NOT_READY);
        assertThat(r.failedStep()).isEqualTo(STEP_ALLOCATE);
        Step alloc = step(r, STEP_ALLOCATE);
        assertThat(alloc).extracting(Step::call, Step::outcome, Step::error, Step::errorCode)
                .containsExactly("cuMemCreate", StepOutcome.FAILED, "CUDA_ERROR_NOT_PERMITTED", 800);
        assertThat(alloc.micros()).isNotNull().isNotNegative();
        assertThat(r.why()).contains("2 MiB", "CUDA_ERROR_NOT_PERMITTED (800)");
        assertThat(r.fix()).contains("/dev/nvidia-caps-imex-channels/channel0", "nvidia-modprobe -i 0:1",
                "NVreg_CreateImexChannel0=1", "prolog");
        // NVML was not read: said so, and the allocation ran anyway
        assertThat(step(r, STEP_FABRIC).outcome()).isEqualTo(StepOutcome.NOT_RUN);
        assertThat(outcomes(r).subList(3, 6)).containsOnly(StepOutcome.NOT_RUN);
        assertThat(r.caveat()).isNull();
        assertThat(fake.calls("cuMemCreate")).isEqualTo(1);
    }

    @Test
    void notSupportedIsStillTheAllocationStepButNotCalledTheMissingChannel() {
        fake.setImexChannel(true);
        fake.failOnce("cuMemCreate", Cuda.ERROR_NOT_SUPPORTED, 0);
        FabricReadiness r = FabricReadiness.check(cuda, 0, COMPLETE);
        assertThat(r.failedStep()).isEqualTo(STEP_ALLOCATE);
        assertThat(step(r, STEP_ALLOCATE).errorCode()).isEqualTo(801);
        assertThat(r.fix()).startsWith("not the no-channel answer");
    }

    @Test
    void anExportTheDriverRefusesIsTheImexDaemonAndTheAllocationIsReleased() {
        fake.setImexChannel(true);
        fake.failOnce("cuMemExportToShareableHandle", Cuda.ERROR_NOT_SUPPORTED, 0);
        FabricReadiness r = FabricReadiness.check(cuda, 0, COMPLETE);
        assertThat(r.outcome()).isEqualTo(Outcome.NOT_READY);
        assertThat(r.failedStep()).isEqualTo(STEP_EXPORT);
        assertThat(step(r, STEP_EXPORT)).extracting(Step::error, Step::errorCode)
                .containsExactly("CUDA_ERROR_NOT_SUPPORTED", 801);
        assertThat(r.fix()).contains("nvidia-imex-ctl -N");
        assertThat(outcomes(r)).containsExactly(StepOutcome.OK, StepOutcome.OK, StepOutcome.OK, StepOutcome.FAILED,
                StepOutcome.NOT_RUN, StepOutcome.OK);
        assertThat(fake.calls("cuMemRelease")).isEqualTo(1);
    }

    @Test
    void anImportTheDriverRefusesIsTheImexDaemonToo() {
        fake.setImexChannel(true);
        // what a GB200 with a stuck daemon answered (kubernetes-sigs/dra-driver-nvidia-gpu#1417)
        fake.failOnce("cuMemImportFromShareableHandle", 400, 0);
        FabricReadiness r = FabricReadiness.check(cuda, 0, COMPLETE);
        assertThat(r.failedStep()).isEqualTo(STEP_IMPORT);
        assertThat(step(r, STEP_IMPORT).error()).isEqualTo("CUDA_ERROR_INVALID_HANDLE");
        assertThat(r.fix()).contains("nvidia-imex-ctl -N");
        assertThat(step(r, STEP_RELEASE).outcome()).isEqualTo(StepOutcome.OK);
    }

    @Test
    void withAChannelEveryStepWorksAndBothHandlesAreReleased() {
        fake.setImexChannel(true);
        FabricReadiness r = FabricReadiness.check(cuda, 0, COMPLETE);
        assertThat(r.outcome()).isEqualTo(Outcome.READY);
        assertThat(r.failedStep()).isNull();
        assertThat(r.fix()).isNull();
        assertThat(r.allocationBytes()).isEqualTo(2L << 20);
        assertThat(r.caveat()).isEqualTo(FabricReadiness.IN_PROCESS).contains("another process");
        assertThat(r.multicastSupported()).isZero();
        assertThat(r.steps()).extracting(Step::name)
                .containsExactly(STEP_ATTRIBUTE, STEP_FABRIC, STEP_ALLOCATE, STEP_EXPORT, STEP_IMPORT, STEP_RELEASE);
        assertThat(r.steps()).allSatisfy(s -> {
            assertThat(s.outcome()).isEqualTo(StepOutcome.OK);
            assertThat(s.micros()).as(s.name()).isNotNull().isNotNegative();
            assertThat(s.error()).isNull();
        });
        // the created handle and the imported one
        assertThat(fake.calls("cuMemRelease")).isEqualTo(2);
    }

    @Test
    void aReleaseTheDriverRefusesMakesAWorkingTestNotReady() {
        fake.setImexChannel(true);
        fake.failOnce("cuMemRelease", 999, 0);
        FabricReadiness r = FabricReadiness.check(cuda, 0, COMPLETE);
        assertThat(r.outcome()).isEqualTo(Outcome.NOT_READY);
        assertThat(r.failedStep()).isEqualTo(STEP_RELEASE);
        assertThat(step(r, STEP_RELEASE).error()).isEqualTo("CUDA_ERROR_UNKNOWN");
        // the other handle was still released; the refused one is what the fake still holds
        assertThat(fake.calls("cuMemRelease")).isEqualTo(2);
        assertThat(fake.live("vmm")).isEqualTo(1);
        fake.reset(); // for nothingLeftBehind: the refusal was injected
    }

    @Test
    void aFabricNotYetInitialisedIsNotReadyBeforeAnythingIsAllocated() {
        fake.setImexChannel(true);
        FabricReadiness r = FabricReadiness.check(cuda, 0, new Fabric(Fabric.State.IN_PROGRESS, false, null));
        assertThat(r.outcome()).isEqualTo(Outcome.NOT_READY);
        assertThat(r.failedStep()).isEqualTo(STEP_FABRIC);
        assertThat(step(r, STEP_FABRIC)).extracting(Step::error, Step::errorCode)
                .containsExactly("NVML_GPU_FABRIC_STATE_IN_PROGRESS", 2);
        assertThat(r.fix()).startsWith("fabric not initialised");
        assertThat(fake.calls("cuMemCreate")).isZero();
    }

    @Test
    void nvmlCanMakeItNotApplicableBeforeAllocating() {
        fake.setImexChannel(true);
        assertThat(FabricReadiness.check(cuda, 0, new Fabric(Fabric.State.NOT_SUPPORTED, false, null)).why())
                .contains("NVML_GPU_FABRIC_STATE_NOT_SUPPORTED");
        assertThat(FabricReadiness.check(cuda, 0, new Fabric(Fabric.State.COMPLETED, false, null)).why())
                .contains("clusterUuid is zero");
        FabricReadiness alone = FabricReadiness.check(cuda, 0, new Fabric(Fabric.State.COMPLETED, true, 1));
        assertThat(alone.outcome()).isEqualTo(Outcome.NOT_APPLICABLE);
        assertThat(alone.why()).contains("alone in its NVLink clique");
        assertThat(fake.calls("cuMemCreate")).isZero();
        // a clique of unknown size is not judged: the allocation runs
        assertThat(FabricReadiness.check(cuda, 0, new Fabric(Fabric.State.COMPLETED, true, null)).outcome())
                .isEqualTo(Outcome.READY);
    }

    @Test
    void aContextThatWillNotStartFailsTheAllocationStepWithNothingToRelease() {
        fake.setImexChannel(true);
        fake.failOnce("cuDevicePrimaryCtxRetain", Cuda.ERROR_OUT_OF_MEMORY, 0);
        FabricReadiness r = FabricReadiness.check(cuda, 0, COMPLETE);
        assertThat(r.failedStep()).isEqualTo(STEP_ALLOCATE);
        assertThat(step(r, STEP_ALLOCATE)).extracting(Step::call, Step::error, Step::errorCode)
                .containsExactly("cuDevicePrimaryCtxRetain", "CUDA_ERROR_OUT_OF_MEMORY", 2);
        assertThat(step(r, STEP_RELEASE).outcome()).isEqualTo(StepOutcome.NOT_RUN);
        assertThat(fake.calls("cuMemCreate")).isZero();
    }

    @Test
    void nvmlStatesMapByValue() {
        assertThat(Fabric.State.ofNvml(3)).isEqualTo(Fabric.State.COMPLETED);
        assertThat(Fabric.State.ofNvml(0)).isEqualTo(Fabric.State.NOT_SUPPORTED);
    }
}
