package hostside.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.fs.FsRoot;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.gpu.cuda.CudaFacts;
import hostside.machine.GpuDrill;
import hostside.machine.PciKind;
import hostside.machine.PciLink;

/**
 * Reads again, while host-to-device copies run (about 40 ms at Gen5), the link of every GPU that
 * sat below its maximum at rest: the one thing node health measures, and only where it must. A GPU
 * at its maximum at rest opens no CUDA context.
 */
final class LinkLoad {
    private LinkLoad() {}

    static List<DeviceLink> underLoad(FsRoot fs, List<DeviceLink> links) {
        if (links.stream().noneMatch(LinkLoad::needsLoad)) return links;
        if (!fs.isLive()) return mark(links, "a recorded machine: nothing is measured under --root");
        Cuda.Open open = Cuda.open();
        if (open instanceof Cuda.Open.NotRun n) return mark(links, n.why());
        Cuda cuda = ((Cuda.Open.Ready) open).cuda();
        CudaFacts facts;
        try {
            facts = CudaFacts.read(cuda);
        } catch (CudaException e) {
            return mark(links, "the CUDA driver could not describe its GPUs: " + e.getMessage());
        }
        List<DeviceLink> out = new ArrayList<>();
        for (DeviceLink l : links) {
            if (!needsLoad(l)) {
                out.add(l);
                continue;
            }
            Optional<CudaFacts.CudaGpu> g = facts.gpus().stream().filter(c -> l.address().equals(c.pciAddress())).findFirst();
            if (g.isEmpty()) {
                out.add(l.withoutLoad("CUDA does not list this GPU (CUDA_VISIBLE_DEVICES, MIG or a container's device list)"));
                continue;
            }
            try (GpuBench bench = new GpuBench(cuda, g.get().ordinal())) {
                PciLink loaded = GpuDrill.linkUnderLoad(fs, bench, l.address(), l.idle());
                out.add(loaded == null ? l.withoutLoad("the copies could not run") : l.withLoad(loaded));
            } catch (CudaException e) {
                out.add(l.withoutLoad("the GPU could not be used: " + e.getMessage()));
            }
        }
        return out;
    }

    /** A GPU below its maximum at rest whose link was not yet read under load. */
    static boolean needsLoad(DeviceLink l) {
        return l.kind() == PciKind.GPU && l.belowMaxAtRest() && l.underLoad() == null;
    }

    private static List<DeviceLink> mark(List<DeviceLink> links, String why) {
        return links.stream().map(l -> needsLoad(l) ? l.withoutLoad(why) : l).toList();
    }
}
