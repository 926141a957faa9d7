package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.testing.RuleTally;

/**
 * The fabric readiness test's finding names the cause of a failure by its step (and, for the
 * allocation, its CUresult), each a rule of its own with its fix; a pass is ok, a GPU on no fabric
 * info; a report of an earlier version, whose result has no finding, gets the same one.
 */
public class FabricRulesTest {
    static FabricReadiness failed(String step, String call, String error, Integer code) {
        return new FabricReadiness(0, FabricReadiness.Outcome.NOT_READY, step, "the step failed (" + error + ")", "a fix",
                List.of(new FabricReadiness.Step(step, call, FabricReadiness.StepOutcome.FAILED, error, code, 5L)), 2L << 20, 1, null, null);
    }

    static FabricReadiness ready() {
        return new FabricReadiness(0, FabricReadiness.Outcome.READY, null, "allocated 2 MiB with a fabric handle, exported the handle and imported it again",
                null, List.of(), 2L << 20, 1, 1, FabricReadiness.IN_PROCESS);
    }

    static FabricReadiness notApplicable() {
        return new FabricReadiness(0, FabricReadiness.Outcome.NOT_APPLICABLE, null, "this GPU has no fabric handles: no multi-node NVLink", null,
                List.of(), 2L << 20, 0, 0, null);
    }

    /** One result per rule and severity: each cause, ready, not applicable, and a step no version of this one names. */
    public static List<FabricReadiness> cases() {
        List<FabricReadiness> out = new ArrayList<>();
        out.add(failed(FabricReadiness.STEP_ATTRIBUTE, "cuDeviceGetAttribute", "CUDA_ERROR_UNKNOWN", 999));
        out.add(failed(FabricReadiness.STEP_FABRIC, "nvmlDeviceGetGpuFabricInfoV", "NVML_GPU_FABRIC_STATE_IN_PROGRESS", 2));
        out.add(failed(FabricReadiness.STEP_ALLOCATE, "cuMemCreate", "CUDA_ERROR_NOT_PERMITTED", Cuda.ERROR_NOT_PERMITTED));
        out.add(failed(FabricReadiness.STEP_ALLOCATE, "cuMemCreate", "CUDA_ERROR_OUT_OF_MEMORY", Cuda.ERROR_OUT_OF_MEMORY));
        out.add(failed(FabricReadiness.STEP_EXPORT, "cuMemExportToShareableHandle", "CUDA_ERROR_NOT_SUPPORTED", Cuda.ERROR_NOT_SUPPORTED));
        out.add(failed(FabricReadiness.STEP_IMPORT, "cuMemImportFromShareableHandle", "CUDA_ERROR_INVALID_VALUE", Cuda.ERROR_INVALID_VALUE));
        out.add(failed(FabricReadiness.STEP_RELEASE, "cuMemRelease", "CUDA_ERROR_INVALID_VALUE", Cuda.ERROR_INVALID_VALUE));
        out.add(failed("a step of another version", null, null, null));
        out.add(ready());
        out.add(notApplicable());
        return out;
    }

    @Test
    void eachFailedStepIsItsCausesRuleWithItsFix() {
        assertThat(cases()).extracting(r -> r.finding().id()).containsExactly("M5-FABRIC-ATTRIBUTE", "M5-FABRIC-NOT-INITIALISED", "M5-FABRIC-NO-CHANNEL",
                "M5-FABRIC-ALLOCATE", "M5-FABRIC-IMEX", "M5-FABRIC-IMEX", "M5-FABRIC-RELEASE", "M5-FABRIC-READINESS", "M5-FABRIC-READINESS", "M5-FABRIC-READINESS");
        assertThat(cases()).extracting(r -> r.finding().severity()).containsExactly(Severity.BAD, Severity.BAD, Severity.BAD, Severity.BAD, Severity.BAD,
                Severity.BAD, Severity.BAD, Severity.BAD, Severity.OK, Severity.INFO);
        var noChannel = cases().get(2).finding();
        assertThat(noChannel.fix()).isEqualTo(FabricReadiness.FIX_CHANNEL);
        assertThat(noChannel.text()).contains("NCCL will not use multi-node NVLink here");
        assertThat(noChannel.evidence()).extracting(Object::toString).anyMatch(e -> e.contains("CUDA_ERROR_NOT_PERMITTED (800)"));
        assertThat(cases().get(1).finding().fix()).isEqualTo(FabricReadiness.FIX_FABRIC);
        assertThat(cases().get(4).finding().fix()).isEqualTo(FabricReadiness.FIX_DAEMON);
    }

    /** The causes' rules: each speaks only where its step failed. */
    static final List<Rule> CAUSES = List.of(FabricRules.ATTRIBUTE, FabricRules.NOT_INITIALISED, FabricRules.NO_CHANNEL,
            FabricRules.ALLOCATE, FabricRules.IMEX, FabricRules.RELEASE);

    @Test
    void aGpuThatPassesOrIsOnNoFabricLeavesEveryCauseQuiet() {
        for (FabricReadiness r : List.of(ready(), notApplicable())) {
            for (Rule cause : CAUSES) RuleTally.quiet(List.of(r.finding()), cause);
        }
    }

    @Test
    void aGpuThatFailsItsLastStepLeavesTheEarlierStepsCausesQuiet() {
        // the attribute read, the fabric completed, the allocation, the export and the import passed: only the release was refused
        List<Finding> f = List.of(failed(FabricReadiness.STEP_RELEASE, "cuMemRelease", "CUDA_ERROR_INVALID_VALUE", Cuda.ERROR_INVALID_VALUE).finding());
        for (Rule cause : CAUSES.subList(0, CAUSES.size() - 1)) RuleTally.quiet(f, cause);
    }

    @Test
    void anAllocationRefusedForWantOfAChannelIsNoOtherRefusalAndTheOtherWayRound() {
        RuleTally.quiet(List.of(failed(FabricReadiness.STEP_ALLOCATE, "cuMemCreate", "CUDA_ERROR_NOT_PERMITTED", Cuda.ERROR_NOT_PERMITTED).finding()),
                FabricRules.ALLOCATE);
        RuleTally.quiet(List.of(failed(FabricReadiness.STEP_ALLOCATE, "cuMemCreate", "CUDA_ERROR_OUT_OF_MEMORY", Cuda.ERROR_OUT_OF_MEMORY).finding()),
                FabricRules.NO_CHANNEL);
    }

    @Test
    void aPassAndAGpuOnNoFabricCarryNoFix() {
        assertThat(ready().finding().fix()).isEmpty();
        assertThat(notApplicable().finding().fix()).isEmpty();
        assertThat(notApplicable().finding().text()).contains("no fabric handles");
    }

    @Test
    void aResultOfAnEarlierVersionWithoutAFindingReadsWithOne() throws Exception {
        FabricReadiness r = cases().get(2);
        ObjectNode tree = Json.MAPPER.valueToTree(r);
        assertThat(tree.has("finding")).isTrue();
        tree.remove("finding");
        FabricReadiness old = Json.MAPPER.treeToValue(tree, FabricReadiness.class);
        assertThat(old.finding()).isEqualTo(r.finding());
        assertThat(Json.MAPPER.treeToValue(Json.MAPPER.valueToTree(r), FabricReadiness.class)).isEqualTo(r);
    }
}
