package hostside.gpu.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * What the CUDA driver says about each GPU, above all how the GPU sees host memory.
 *
 * @param cudaVersion the newest CUDA the driver supports, "13.0"
 */
public record CudaFacts(String cudaVersion, List<CudaGpu> gpus) {

    /**
     * @param coherence ATS (the GPU uses the CPU's page tables), HMM (the kernel migrates pages
     *                  for it), or none (only pinned or managed memory): from attributes 88 and 100
     */
    public record CudaGpu(int ordinal, String name, String uuid, String pciAddress, Integer smCount, long memoryBytes,
                          String computeCapability, String coherence, List<Attribute> attributes) {}

    /** One device attribute; {@code value} null when this driver does not know the attribute. */
    public record Attribute(String name, int id, Integer value, String meaning) {}

    private record Known(String name, int id, String meaning) {}

    /** The attributes that decide how a GPU reaches host memory; ids from CUDA 13.0's cuda.h. */
    private static final List<Known> HOST_MEMORY = List.of(
            new Known("pageableMemoryAccess", 88, "reads and writes pageable host memory without registering it"),
            new Known("pageableMemoryAccessUsesHostPageTables", 100, "walks the CPU's page tables (ATS) rather than mirroring them"),
            new Known("concurrentManagedAccess", 89, "managed memory usable by CPU and GPU at the same time"),
            new Known("hostNativeAtomicSupported", 86, "atomics on host memory work natively over the link"),
            new Known("canUseHostPointerForRegisteredMem", 91, "registered host memory has the same address on the GPU"),
            new Known("directManagedMemAccessFromHost", 101, "the CPU reads managed memory on the GPU without migrating it"),
            new Known("handleTypeFabricSupported", 128, "memory can be exported as a fabric handle (multi-node NVLink)"),
            new Known("multicastSupported", 132, "NVLink switch multicast (read only; hostside never creates one)"),
            new Known("gpuDirectRdmaSupported", 116, "NICs can DMA straight into this GPU's memory"),
            new Known("asyncEngineCount", 40, "copy engines: how many copies can run beside kernels"),
            new Known("canMapHostMemory", 19, "pinned host memory can be mapped into the GPU's address space"),
            new Known("integrated", 18, "shares memory with the CPU (Jetson, DGX Spark)"));

    static final int SM_COUNT = 16, CC_MAJOR = 75, CC_MINOR = 76;

    public static CudaFacts read(Cuda cuda) {
        int v = cuda.driverVersion();
        List<CudaGpu> gpus = new ArrayList<>();
        for (int i = 0; i < cuda.deviceCount(); i++) {
            int dev = cuda.device(i);
            List<Attribute> attrs = new ArrayList<>();
            for (Known k : HOST_MEMORY) {
                OptionalInt x = cuda.attribute(dev, k.id());
                attrs.add(new Attribute(k.name(), k.id(), x.isPresent() ? x.getAsInt() : null, k.meaning()));
            }
            OptionalInt major = cuda.attribute(dev, CC_MAJOR), minor = cuda.attribute(dev, CC_MINOR);
            OptionalInt sms = cuda.attribute(dev, SM_COUNT);
            gpus.add(new CudaGpu(i, cuda.deviceName(dev), cuda.uuid(dev), cuda.pciBusId(dev),
                    sms.isPresent() ? sms.getAsInt() : null, cuda.totalMemory(dev),
                    major.isPresent() && minor.isPresent() ? major.getAsInt() + "." + minor.getAsInt() : "unknown",
                    coherence(attrs), attrs));
        }
        return new CudaFacts(v / 1000 + "." + (v % 1000) / 10, gpus);
    }

    /** DOMAIN.md: ATS when 88 and 100, HMM when only 88, none when neither; unknown when unread. */
    static String coherence(List<Attribute> attrs) {
        Integer pageable = value(attrs, 88), tables = value(attrs, 100);
        if (pageable == null) return "unknown";
        if (pageable == 0) return "none";
        if (tables == null) return "HMM or ATS";
        return tables != 0 ? "ATS" : "HMM";
    }

    private static Integer value(List<Attribute> attrs, int id) {
        return attrs.stream().filter(a -> a.id() == id).findFirst().map(Attribute::value).orElse(null);
    }
}
