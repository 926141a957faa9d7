package hostside.gpu.cuda;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.OK;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 5's rules on the fabric readiness test ({@link FabricReadiness}): whether a GPU can share
 * memory over multi-node NVLink the way NCCL finds out before it turns MNNVL on, and, where it
 * cannot, the cause, each its own rule with its own fix: the fabric not initialised, no IMEX
 * channel, the IMEX daemon, an allocation refused for another reason, a release refused.
 */
public final class FabricRules {
    private FabricRules() {}

    static final Source NCCL_MNNVL = Source.source("NVIDIA/nccl src/mnnvl.cc, ncclMnnvlCheck: cuMem enabled, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED,"
            + " every rank's NVML fabric state completed, then a trial cuMemCreate with CU_MEM_HANDLE_TYPE_FABRIC, exported and imported; MNNVL stays"
            + " off where any step fails");
    static final Source IMEX_CHANNELS = Source.document("NVIDIA IMEX Service for NVLink Networks User's Guide, IMEX Channels: channels \"are not"
            + " created by default\", CUDA APIs that need one fail with an insufficient permission error, and they \"will not persist through a reboot\"");
    static final Source IMEX_DAEMON = Source.document("NVIDIA IMEX Service for NVLink Networks User's Guide, Getting Started and IMEX Service Command"
            + " Service: nodes_config.cfg lists every node's address; nvidia-imex-ctl -N shows each node's connection");
    static final Source NVML_FABRIC = Source.document("NVML API Reference, nvmlDeviceGetGpuFabricInfoV: NVML_GPU_FABRIC_STATE_NOT_STARTED,"
            + " _IN_PROGRESS and _COMPLETED; the fabric manager (HGX) or the NVLink switch trays (GB200 NVL) complete it");

    public static final Rule READINESS = Rule.of("M5-FABRIC-READINESS", "whether a GPU can share memory over multi-node NVLink, tested as NCCL tests it",
            EnumSet.of(BAD, INFO, OK),
            "a GPU that fails the test gets no multi-node NVLink from NCCL: its collectives across nodes go over the network instead, at a fraction of"
                    + " NVLink's rate; the cause is the failed step's own rule (M5-FABRIC-*), with its fix. A pass proves the channel and the driver in"
                    + " this process; an import in another process or node can still fail",
            "the failed step's fix: M5-FABRIC-NOT-INITIALISED, M5-FABRIC-NO-CHANNEL, M5-FABRIC-IMEX, M5-FABRIC-ALLOCATE or M5-FABRIC-RELEASE",
            NCCL_MNNVL, IMEX_CHANNELS);
    public static final Rule ATTRIBUTE = Rule.of("M5-FABRIC-ATTRIBUTE", "the driver failed to say whether a GPU has fabric handles (attribute 128)",
            EnumSet.of(BAD), "NCCL reads the same attribute first: a driver that fails to answer it gives no multi-node NVLink",
            "check the driver's installation (nvidia-smi, the kernel log) and that its version matches the CUDA user-mode driver (libcuda)", NCCL_MNNVL);
    public static final Rule NOT_INITIALISED = Rule.of("M5-FABRIC-NOT-INITIALISED", "a GPU whose NVLink fabric registration has not completed",
            EnumSet.of(BAD), "NCCL requires every rank's fabric state completed before it turns multi-node NVLink on",
            FabricReadiness.FIX_FABRIC, NVML_FABRIC, NCCL_MNNVL);
    public static final Rule NO_CHANNEL = Rule.of("M5-FABRIC-NO-CHANNEL", "an allocation with a fabric handle refused for want of an IMEX channel",
            EnumSet.of(BAD), "cuMemCreate with a fabric handle answers CUDA_ERROR_NOT_PERMITTED where the process has no IMEX channel: every job that"
                    + " shares memory over the fabric fails the same way", FabricReadiness.FIX_CHANNEL, IMEX_CHANNELS, NCCL_MNNVL);
    public static final Rule ALLOCATE = Rule.of("M5-FABRIC-ALLOCATE", "an allocation with a fabric handle refused for another reason than the channel",
            EnumSet.of(BAD), "NCCL gives the channel advice for any failed trial allocation; the error here says what else refused it (no memory"
                    + " free on the GPU, a driver fault)",
            "free the GPU's memory and run the check before the job; where the error is neither CUDA_ERROR_OUT_OF_MEMORY nor CUDA_ERROR_NOT_PERMITTED, "
                    + FabricReadiness.FIX_CHANNEL, NCCL_MNNVL);
    public static final Rule IMEX = Rule.of("M5-FABRIC-IMEX", "a fabric handle that could not be exported or imported",
            EnumSet.of(BAD), "export and import of fabric handles go through the IMEX daemon: where it is down or its nodes do not agree, memory cannot"
                    + " be shared across the domain", FabricReadiness.FIX_DAEMON, IMEX_DAEMON, NCCL_MNNVL);
    public static final Rule RELEASE = Rule.of("M5-FABRIC-RELEASE", "the driver refused to release a fabric handle it gave out",
            EnumSet.of(BAD), "the memory stays held until the process exits: a job that allocates and frees fabric memory leaks it",
            FabricReadiness.FIX_RELEASE, Source.document("CUDA Driver API, cuMemRelease: releases the memory handle made by cuMemCreate or imported"),
            Source.reasoned("hostside's own: a refused release is named as the test's failure, since NCCL's check would leak the same way"));

    public static List<Rule> all() {
        return List.of(READINESS, ATTRIBUTE, NOT_INITIALISED, NO_CHANNEL, ALLOCATE, IMEX, RELEASE);
    }

    /** The cause's rule of a test that failed at {@code step}, the failed call's CUresult {@code error} (null when none). */
    static Rule cause(String step, Integer error) {
        if (step == null) return READINESS;
        return switch (step) {
            case FabricReadiness.STEP_ATTRIBUTE -> ATTRIBUTE;
            case FabricReadiness.STEP_FABRIC -> NOT_INITIALISED;
            case FabricReadiness.STEP_ALLOCATE -> Integer.valueOf(Cuda.ERROR_NOT_PERMITTED).equals(error) ? NO_CHANNEL : ALLOCATE;
            case FabricReadiness.STEP_EXPORT, FabricReadiness.STEP_IMPORT -> IMEX;
            case FabricReadiness.STEP_RELEASE -> RELEASE;
            default -> READINESS;
        };
    }

    /**
     * The finding of one GPU's test: the cause's rule where it failed (bad), readiness's where it
     * passed (ok) or does not apply (info). The text is the test's own sentence.
     */
    static Finding finding(int ordinal, FabricReadiness.Outcome outcome, String failedStep, String why, List<FabricReadiness.Step> steps) {
        String subject = "GPU" + ordinal;
        List<Evidence> ev = new java.util.ArrayList<>();
        ev.add(Evidence.fact("fabric_readiness.outcome", outcome.name().toLowerCase(java.util.Locale.ROOT)));
        Integer error = null;
        if (failedStep != null) {
            ev.add(Evidence.fact("fabric_readiness.failed_step", failedStep));
            for (FabricReadiness.Step s : steps == null ? List.<FabricReadiness.Step>of() : steps) {
                if (s.name().equals(failedStep) && s.error() != null) {
                    ev.add(Evidence.fact(s.call() == null ? failedStep : s.call(), s.error() + (s.errorCode() == null ? "" : " (" + s.errorCode() + ")")));
                    error = s.errorCode();
                }
            }
        }
        String text = why == null ? "" : why;
        return switch (outcome) {
            case NOT_READY -> cause(failedStep, error).finding(BAD, subject, text + "; NCCL will not use multi-node NVLink here", ev);
            case READY -> READINESS.finding(OK, subject, text, ev);
            case NOT_APPLICABLE -> READINESS.finding(INFO, subject, text, ev);
        };
    }
}
