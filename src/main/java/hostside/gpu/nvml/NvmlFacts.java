package hostside.gpu.nvml;

import java.util.List;

/**
 * What NVML says about this machine: the system versions and one {@link NvmlGpu} per GPU, or,
 * when NVML could not be asked, {@code notRun} with the reason. No library, a driver that will
 * not initialise and no GPU are all normal states of a machine, reported here, not thrown.
 *
 * @param library           the library asked ("libnvidia-ml.so.1" or the test's path)
 * @param notRun            null when NVML answered; else why not ("no NVIDIA driver (libnvidia-ml.so.1 not
 *                          found)", "NVIDIA driver not loaded (...)", "no NVIDIA GPU (NVML counts 0)")
 * @param driverVersion     nvmlSystemGetDriverVersion, "580.95.05"
 * @param nvmlVersion       nvmlSystemGetNVMLVersion, "13.580.95.05"
 * @param cudaDriverVersion the CUDA version libcuda implements, "13.0" (nvmlSystemGetCudaDriverVersion_v2)
 * @param gpus              in NVML index order; empty when notRun
 * @param p2p               nvmlDeviceGetP2PStatus for every ordered pair of GPUs (empty with fewer than two)
 * @param unknowns          system-level fields NVML could not give, with why
 */
public record NvmlFacts(
        String library,
        String notRun,
        String driverVersion,
        String nvmlVersion,
        String cudaDriverVersion,
        List<NvmlGpu> gpus,
        List<NvmlP2p> p2p,
        List<String> unknowns) {

    /** A list a document leaves out reads as empty: hostside/1 reports predate {@code p2p}. */
    public NvmlFacts {
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
        p2p = p2p == null ? List.of() : List.copyOf(p2p);
        unknowns = unknowns == null ? List.of() : List.copyOf(unknowns);
    }

    static NvmlFacts notRun(String library, String reason) {
        return new NvmlFacts(library, reason, null, null, null, List.of(), List.of(), List.of());
    }

    /** Whether NVML answered (then {@code gpus} is not empty). */
    public boolean ran() {
        return notRun == null;
    }

    NvmlFacts withUnknown(String unknown) {
        List<String> u = new java.util.ArrayList<>(unknowns);
        u.add(unknown);
        return new NvmlFacts(library, notRun, driverVersion, nvmlVersion, cudaDriverVersion, gpus, p2p, u);
    }

    /** One line for the machine: "NVML 13.580.95.05, driver 580.95.05, CUDA 13.0: 2 GPUs" or "NVML not run: why". */
    public String headline() {
        String versions = "NVML " + q(nvmlVersion) + ", driver " + q(driverVersion) + ", CUDA " + q(cudaDriverVersion);
        if (notRun != null) {
            return driverVersion == null && nvmlVersion == null ? "NVML not run: " + notRun : versions + ": " + notRun;
        }
        return versions + ": " + gpus.size() + (gpus.size() == 1 ? " GPU" : " GPUs");
    }

    /** One human line per GPU ({@link NvmlGpu#line()}); empty when notRun. */
    public List<String> gpuLines() {
        return gpus.stream().map(NvmlGpu::line).toList();
    }

    private static String q(String s) {
        return s == null ? "?" : s;
    }
}
