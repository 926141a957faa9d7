package hostside.vm;

import java.util.List;
import java.util.Set;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.cuda.Gpu;
import hostside.harness.Result;

/**
 * The GPU's view of host memory, for Module 2: per GPU the unified-memory attributes and the
 * CUDA VMM allocation granularity; measurements (pinning cost, managed-memory migration) on
 * the first GPU.
 *
 * @param notRun              why there is no GPU section ("" when there is)
 * @param measuredOn          the GPU the measurements ran on, as people read it ("" when none ran)
 * @param measuredPciAddress  the same GPU's PCI address, the scope of its figures ("" when none ran)
 */
public record VmGpu(String notRun, List<GpuView> gpus, List<Result> results, String measuredOn, String measuredPciAddress) {

    /** The figures of the measurements that ran, about the GPU they ran on. */
    public List<Figure> figures() {
        if (measuredPciAddress.isEmpty()) return List.of();
        return Result.figures(results, Scope.gpu(measuredPciAddress));
    }

    /** The attributes of CudaFacts that say how a GPU treats host and managed memory. */
    static final Set<String> UNIFIED_MEMORY = Set.of("pageableMemoryAccess", "pageableMemoryAccessUsesHostPageTables",
            "concurrentManagedAccess", "directManagedMemAccessFromHost", "canUseHostPointerForRegisteredMem", "canMapHostMemory");

    /**
     * @param vmmMinimumBytes      cuMemGetAllocationGranularity, minimum (null with the reason in vmmWhy)
     * @param vmmRecommendedBytes  the same, recommended
     */
    public record GpuView(int ordinal, String name, String pciAddress, String coherence,
                          List<CudaFacts.Attribute> unifiedMemory, Long vmmMinimumBytes, Long vmmRecommendedBytes,
                          String vmmWhy) {}

    static VmGpu notRun(String why) {
        return new VmGpu(why, List.of(), List.of(), "", "");
    }

    static GpuView view(Cuda cuda, CudaFacts.CudaGpu g) {
        List<CudaFacts.Attribute> um = g.attributes().stream().filter(a -> UNIFIED_MEMORY.contains(a.name())).toList();
        Long min = null, rec = null;
        String why = "";
        // the primary context is made current: the VMM calls want one on some drivers
        try (Gpu gpu = new Gpu(cuda, g.ordinal())) {
            int dev = gpu.device();
            if (!cuda.has("cuMemGetAllocationGranularity")) {
                why = "this driver has no cuMemGetAllocationGranularity (CUDA 10.2+)";
            } else {
                min = cuda.allocationGranularity(dev, false);
                rec = cuda.allocationGranularity(dev, true);
            }
        } catch (CudaException e) {
            why = e.getMessage();
        }
        return new GpuView(g.ordinal(), g.name(), g.pciAddress(), g.coherence(), um, min, rec, why);
    }
}
