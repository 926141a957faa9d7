package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import hostside.core.Finding;

/**
 * Whether one GPU can share memory over multi-node NVLink, found the way NCCL finds it before it
 * turns MNNVL on (ncclMnnvlCheck, NVIDIA/nccl src/mnnvl.cc): the fabric handle attribute, the
 * fabric state NVML reports, then a real 2 MiB allocation with a fabric handle, exported and
 * imported again. The attribute alone proves nothing: the H200 VM says 1 for it and still
 * refuses the allocation (CUDA_ERROR_NOT_PERMITTED) because it has no IMEX channel.
 *
 * <p>The import is in this process, as NCCL's check is: it proves the channel and the driver,
 * not that another process or node can import the handle ({@link #IN_PROCESS}).
 *
 * <p>Multicast (NVLS) is read from attribute 132 and only reported. hostside never creates a
 * multicast object: doing so can take GPUs shared with other jobs out of service, and
 * MulticastGuardTest fails the build if any multicast function is ever looked up.
 *
 * @param ordinal                   the GPU, as CUDA numbers it
 * @param outcome                   ready, not ready (see {@code failedStep}) or not applicable (see {@code why})
 * @param failedStep                the name of the step that failed, null unless not ready
 * @param why                       one sentence: what was found
 * @param fix                       what to do, null when ready or not applicable
 * @param steps                     every step in order, those not run included
 * @param allocationBytes           the size allocated, or that would have been
 * @param handleTypeFabricSupported attribute 128, null when the driver does not know it
 * @param multicastSupported        attribute 132 (NVLS), null when the driver does not know it; report only
 * @param caveat                    {@link #IN_PROCESS} when the import ran, else null
 * @param finding                   the test's finding by its rule ({@link FabricRules}): the failed step's cause (bad),
 *                                  ready (ok) or not applicable (info); made from the rest where a report of an earlier
 *                                  version has none
 */
public record FabricReadiness(int ordinal, Outcome outcome, String failedStep, String why, String fix, List<Step> steps,
                              long allocationBytes, Integer handleTypeFabricSupported, Integer multicastSupported,
                              String caveat, Finding finding) {

    public FabricReadiness {
        if (finding == null && outcome != null) finding = FabricRules.finding(ordinal, outcome, failedStep, why, steps);
    }

    /** A result whose finding is drawn from its outcome by {@link FabricRules}. */
    public FabricReadiness(int ordinal, Outcome outcome, String failedStep, String why, String fix, List<Step> steps,
                           long allocationBytes, Integer handleTypeFabricSupported, Integer multicastSupported, String caveat) {
        this(ordinal, outcome, failedStep, why, fix, steps, allocationBytes, handleTypeFabricSupported, multicastSupported, caveat, null);
    }

    public enum Outcome { READY, NOT_READY, NOT_APPLICABLE }

    public enum StepOutcome { OK, FAILED, NOT_RUN }

    /**
     * One step. {@code error} and {@code errorCode} are the CUresult's name and number when a
     * CUDA call failed (the NVML state's name and value for the fabric step); {@code micros} is
     * the step's wall time, null when it did not run.
     *
     * @param call the function whose answer decided the step ("cuMemCreate"), null when not run
     */
    public record Step(String name, String call, StepOutcome outcome, String error, Integer errorCode, Long micros) {}

    /**
     * What NVML says of this GPU's fabric (nvmlDeviceGetGpuFabricInfoV, read by the caller: this
     * class binds no NVML). Null as a whole when it was not read: the allocation then runs anyway.
     *
     * @param state          NVML_GPU_FABRIC_STATE_*
     * @param clusterUuidSet the clusterUuid is not all zero
     * @param cliqueMembers  GPUs with this GPU's clusterUuid and cliqueId across all nodes, null when
     *                       unknown; this node's GPUs alone can under-count (GH200 NVL32 has one per node)
     */
    public record Fabric(State state, boolean clusterUuidSet, Integer cliqueMembers) {
        /** nvmlGpuFabricState_t: NVML_GPU_FABRIC_STATE_NOT_SUPPORTED 0 ... COMPLETED 3. */
        public enum State {
            NOT_SUPPORTED, NOT_STARTED, IN_PROGRESS, COMPLETED;

            public static State ofNvml(int value) {
                if (value < 0 || value >= values().length) throw new IllegalArgumentException("nvmlGpuFabricState_t " + value);
                return values()[value];
            }

            String nvmlName() {
                return "NVML_GPU_FABRIC_STATE_" + name();
            }
        }
    }

    public static final String STEP_ATTRIBUTE = "fabric handles supported (attribute 128)";
    public static final String STEP_FABRIC = "fabric state (NVML)";
    public static final String STEP_ALLOCATE = "allocate with a fabric handle";
    public static final String STEP_EXPORT = "export the fabric handle";
    public static final String STEP_IMPORT = "import the fabric handle";
    public static final String STEP_RELEASE = "release";

    /** CUDA_IPC_MIN in NCCL: the size of its trial allocation. */
    static final long TRIAL_BYTES = 2L << 20;

    public static final String IN_PROCESS = "the handle was imported by the process that exported it; "
            + "an import in another process or on another node can still fail (kubernetes-sigs/dra-driver-nvidia-gpu#294)";

    /** The IMEX guide: channels are "not created by default" and "will not persist through a reboot". */
    static final String FIX_CHANNEL = "no IMEX channel (/dev/nvidia-caps-imex-channels/channel0): create it "
            + "(nvidia-modprobe -i 0:1, or mknod with the major number of nvidia-caps-imex-channels in /proc/devices, "
            + "or the open kernel module's parameter NVreg_CreateImexChannel0=1) or run inside a job whose prolog does";
    static final String FIX_DAEMON = "the IMEX daemon: check nvidia-imex-ctl -N (every node connected) and systemctl status "
            + "nvidia-imex; /etc/nvidia-imex/nodes_config.cfg must list the same addresses on every node";
    static final String FIX_FABRIC = "fabric not initialised: on HGX start nvidia-fabricmanager of the driver's version; "
            + "on GB200 NVL the switch trays set it up (ask the operator); in progress for minutes means the fabric manager is down";
    static final String FIX_RELEASE = "the driver refused to release a handle it gave out: that memory stays held until "
            + "this process exits; report it with the driver version";

    /**
     * Runs the steps on GPU {@code ordinal}, with its primary context current on this thread (as
     * NCCL has). Every handle made is released, whatever fails; nothing is mapped or touched.
     * {@code fabric} is null when NVML was not read: the allocation then runs anyway.
     */
    public static FabricReadiness check(Cuda cuda, int ordinal, Fabric fabric) {
        return new Run(cuda, ordinal).run(fabric);
    }

    /** The steps in the order they run; every result lists all of them. */
    static final List<String> STEPS = List.of(STEP_ATTRIBUTE, STEP_FABRIC, STEP_ALLOCATE, STEP_EXPORT, STEP_IMPORT, STEP_RELEASE);

    /** What one check found, before its steps are collected into the result. */
    private record Verdict(Outcome outcome, String failedStep, String why, String fix, String caveat) {
        static Verdict notApplicable(String why) {
            return new Verdict(Outcome.NOT_APPLICABLE, null, why, null, null);
        }

        static Verdict notReady(String step, String why, String fix) {
            return new Verdict(Outcome.NOT_READY, step, why, fix, null);
        }
    }

    /** One check: the steps fill their slots as they run; those left empty did not run. */
    private static final class Run {
        private final Cuda cuda;
        private final int ordinal;
        private final Step[] steps = new Step[STEPS.size()];
        private Integer handleTypeFabricSupported, multicastSupported;
        private long bytes = TRIAL_BYTES;

        Run(Cuda cuda, int ordinal) {
            this.cuda = cuda;
            this.ordinal = ordinal;
        }

        FabricReadiness run(Fabric fabric) {
            Verdict v = verdict(fabric);
            List<Step> all = new ArrayList<>();
            for (int i = 0; i < steps.length; i++)
                all.add(steps[i] != null ? steps[i] : new Step(STEPS.get(i), null, StepOutcome.NOT_RUN, null, null, null));
            return new FabricReadiness(ordinal, v.outcome(), v.failedStep(), v.why(), v.fix(), List.copyOf(all), bytes,
                    handleTypeFabricSupported, multicastSupported, v.caveat());
        }

        private Verdict verdict(Fabric fabric) {
            int device = cuda.device(ordinal);
            multicastSupported = attribute(device, Cuda.ATTRIBUTE_MULTICAST_SUPPORTED).value();

            long t0 = System.nanoTime();
            Answer attr = attribute(device, Cuda.ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED);
            handleTypeFabricSupported = attr.value();
            if (attr.failed()) {
                failed(STEP_ATTRIBUTE, "cuDeviceGetAttribute", attr.code(), t0);
                return Verdict.notReady(STEP_ATTRIBUTE, "the driver would not say whether this GPU has fabric handles ("
                        + errorText(attr.code()) + ")", "the driver refused a device attribute query: check the driver (nvidia-smi) first");
            }
            ok(STEP_ATTRIBUTE, "cuDeviceGetAttribute", t0);
            if (handleTypeFabricSupported == null)
                return Verdict.notApplicable("this driver does not know fabric handles (attribute 128, CUDA 12.3+): no multi-node NVLink");
            if (handleTypeFabricSupported == 0) return Verdict.notApplicable("this GPU has no fabric handles: no multi-node NVLink");

            if (fabric != null) {
                // NCCL's order: the fabric must be complete before the clique is looked at
                String state = fabric.state().nvmlName();
                long t1 = System.nanoTime();
                switch (fabric.state()) {
                    case NOT_SUPPORTED -> {
                        ok(STEP_FABRIC, "nvmlDeviceGetGpuFabricInfoV", t1);
                        return Verdict.notApplicable("NVML says this GPU is on no NVLink fabric (" + state + ")");
                    }
                    case NOT_STARTED, IN_PROGRESS -> {
                        steps[STEPS.indexOf(STEP_FABRIC)] = new Step(STEP_FABRIC, "nvmlDeviceGetGpuFabricInfoV", StepOutcome.FAILED,
                                state, fabric.state().ordinal(), micros(t1));
                        return Verdict.notReady(STEP_FABRIC, "the NVLink fabric is not initialised (" + state + ")", FIX_FABRIC);
                    }
                    case COMPLETED -> ok(STEP_FABRIC, "nvmlDeviceGetGpuFabricInfoV", t1);
                }
                if (!fabric.clusterUuidSet()) return Verdict.notApplicable("no multi-node NVLink fabric info (NVML's clusterUuid is zero)");
                if (fabric.cliqueMembers() != null && fabric.cliqueMembers() <= 1)
                    return Verdict.notApplicable("this GPU is alone in its NVLink clique: no other GPU to share memory with");
            }

            Gpu gpu;
            long tc = System.nanoTime();
            try {
                gpu = new Gpu(cuda, ordinal);
            } catch (CudaException e) {
                // no context, so nothing was allocated and nothing is left to release
                steps[STEPS.indexOf(STEP_ALLOCATE)] = new Step(STEP_ALLOCATE, "cuDevicePrimaryCtxRetain", StepOutcome.FAILED,
                        e.code() > 0 ? cuda.errorName(e.code()) : e.getMessage(), e.code() > 0 ? e.code() : null, micros(tc));
                return Verdict.notReady(STEP_ALLOCATE, "no CUDA context on this GPU: " + e.getMessage(),
                        "the GPU could not start a context: check nvidia-smi and the kernel log (Xid)");
            }
            try (gpu) {
                return allocateExportImport(gpu.device());
            }
        }

        private Verdict allocateExportImport(int device) {
            List<Long> handles = new ArrayList<>();
            Verdict v;
            try (Arena a = Arena.ofConfined()) {
                v = allocateExportImport(a, device, handles);
            } finally {
                // every handle, on every path, the imported one too (NCCL's check leaks that one)
                release(handles);
            }
            Step released = steps[STEPS.indexOf(STEP_RELEASE)];
            if (v.outcome() == Outcome.READY && released != null && released.outcome() == StepOutcome.FAILED)
                return Verdict.notReady(STEP_RELEASE, "the test worked but cuMemRelease refused a handle (" + released.error() + ")",
                        FIX_RELEASE);
            return v;
        }

        private Verdict allocateExportImport(Arena a, int device, List<Long> handles) {
            MemorySegment prop = AllocationProp.pinnedOnDevice(a, device, Cuda.MEM_HANDLE_TYPE_FABRIC);
            long t = System.nanoTime();
            MemorySegment granularity = a.allocate(JAVA_LONG);
            int r = raw("cuMemGetAllocationGranularity", granularity, prop, 0);
            if (r != 0) {
                failed(STEP_ALLOCATE, "cuMemGetAllocationGranularity", r, t);
                return allocationFailed(r, "cuMemGetAllocationGranularity");
            }
            long g = granularity.get(JAVA_LONG, 0);
            if (g > 0) bytes = (TRIAL_BYTES + g - 1) / g * g; // cuMemCreate takes whole granules only

            MemorySegment handle = a.allocate(JAVA_LONG);
            r = raw("cuMemCreate", handle, bytes, prop, 0L);
            if (r != 0) {
                failed(STEP_ALLOCATE, "cuMemCreate", r, t);
                return allocationFailed(r, "cuMemCreate");
            }
            handles.add(handle.get(JAVA_LONG, 0));
            ok(STEP_ALLOCATE, "cuMemCreate", t);

            t = System.nanoTime();
            MemorySegment fabricHandle = a.allocate(Cuda.FABRIC_HANDLE_SIZE, 8);
            r = raw("cuMemExportToShareableHandle", fabricHandle, handles.getFirst(), Cuda.MEM_HANDLE_TYPE_FABRIC, 0L);
            if (r != 0) {
                failed(STEP_EXPORT, "cuMemExportToShareableHandle", r, t);
                return Verdict.notReady(STEP_EXPORT, "the allocation was made but its fabric handle could not be exported ("
                        + errorText(r) + ")", FIX_DAEMON);
            }
            ok(STEP_EXPORT, "cuMemExportToShareableHandle", t);

            t = System.nanoTime();
            MemorySegment imported = a.allocate(JAVA_LONG);
            r = raw("cuMemImportFromShareableHandle", imported, fabricHandle, Cuda.MEM_HANDLE_TYPE_FABRIC);
            if (r != 0) {
                failed(STEP_IMPORT, "cuMemImportFromShareableHandle", r, t);
                return Verdict.notReady(STEP_IMPORT, "the fabric handle was exported but could not be imported ("
                        + errorText(r) + ")", FIX_DAEMON);
            }
            handles.add(imported.get(JAVA_LONG, 0));
            ok(STEP_IMPORT, "cuMemImportFromShareableHandle", t);
            return new Verdict(Outcome.READY, null, String.format(Locale.ROOT,
                    "allocated %d MiB with a fabric handle, exported the handle and imported it again", bytes >> 20), null, IN_PROCESS);
        }

        /** The release step: every handle, newest first; the first refusal is the step's error. */
        private void release(List<Long> handles) {
            if (handles.isEmpty()) return;
            long t = System.nanoTime();
            int first = 0;
            for (int i = handles.size() - 1; i >= 0; i--) {
                int r = raw("cuMemRelease", handles.get(i));
                if (r != 0 && first == 0) first = r;
            }
            if (first != 0) failed(STEP_RELEASE, "cuMemRelease", first, t);
            else ok(STEP_RELEASE, "cuMemRelease", t);
        }

        private Verdict allocationFailed(int r, String call) {
            String why = "the driver would not allocate " + (bytes >> 20) + " MiB with a fabric handle (" + call + ": "
                    + errorText(r) + ")";
            String fix = switch (r) {
                case Cuda.ERROR_NOT_PERMITTED -> FIX_CHANNEL;
                case Cuda.ERROR_OUT_OF_MEMORY -> "the GPU has no " + (bytes >> 20) + " MiB free: run the check before the job";
                // NCCL gives the channel advice for any failed allocation; say that this is not the usual answer
                default -> "not the no-channel answer (CUDA_ERROR_NOT_PERMITTED), but NCCL would say the same: " + FIX_CHANNEL;
            };
            return Verdict.notReady(STEP_ALLOCATE, why, fix);
        }

        private record Answer(Integer value, int code) {
            /** INVALID_VALUE is an attribute this driver does not know: an answer, not a failure. */
            boolean failed() {
                return code != 0 && code != Cuda.ERROR_INVALID_VALUE;
            }
        }

        private Answer attribute(int device, int attribute) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(JAVA_INT);
                int r = raw("cuDeviceGetAttribute", out, attribute, device);
                return new Answer(r == 0 ? out.get(JAVA_INT, 0) : null, r);
            }
        }

        /** The CUresult, or {@link #NOT_IN_DRIVER} when the binding could not call the function at all. */
        private int raw(String function, Object... args) {
            try {
                return cuda.raw(function, args);
            } catch (CudaException e) {
                return e.code() > 0 ? e.code() : NOT_IN_DRIVER;
            }
        }

        private String errorText(int r) {
            return r == NOT_IN_DRIVER ? "not in this driver" : cuda.errorName(r) + " (" + r + ")";
        }

        private void ok(String name, String call, long t0) {
            steps[STEPS.indexOf(name)] = new Step(name, call, StepOutcome.OK, null, null, micros(t0));
        }

        private void failed(String name, String call, int r, long t0) {
            steps[STEPS.indexOf(name)] = new Step(name, call, StepOutcome.FAILED,
                    r == NOT_IN_DRIVER ? "not in this driver" : cuda.errorName(r), r == NOT_IN_DRIVER ? null : r, micros(t0));
        }
    }

    /** Not a CUresult: the binding could not find the function in this driver. */
    private static final int NOT_IN_DRIVER = -1;

    private static long micros(long t0) {
        return (System.nanoTime() - t0) / 1_000;
    }
}
