package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.DEVICE_GET_COUNT_V2;
import static hostside.gpu.nvml.NvmlFunction.DEVICE_GET_NAME;
import static hostside.gpu.nvml.NvmlFunction.DEVICE_GET_PCI_INFO_V3;
import static hostside.gpu.nvml.NvmlTypes.NVML_DEVICE_NAME_V2_BUFFER_SIZE;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * NVML held open over a sampling window: the GPUs found once (index, name, PCI address, handle),
 * then {@link #read} as often as the caller samples. Opening and shutting NVML down for every
 * sample would cost more than the readings, and a GPU's handle stays valid until shutdown.
 */
public final class NvmlWatch implements AutoCloseable {
    /** A GPU as the watch found it; {@code name} or {@code pciBusId} is null where NVML would not say. */
    public record Gpu(int index, String name, String pciBusId, List<String> unknowns) {}

    private final Nvml nvml;
    private final List<Gpu> gpus;
    private final List<MemorySegment> handles;
    private String shutdownProblem;

    private NvmlWatch(Nvml nvml, List<Gpu> gpus, List<MemorySegment> handles) {
        this.nvml = nvml;
        this.gpus = List.copyOf(gpus);
        this.handles = handles;
    }

    /**
     * Opens {@code library} and finds the GPUs. No driver, a driver that will not start, no GPU
     * and a count NVML will not give are Unknown with the reason, as {@link Nvml#open} says them.
     */
    public static NvmlResult<NvmlWatch> open(String library) {
        NvmlResult<Nvml> opened = Nvml.open(library);
        if (!(opened instanceof NvmlResult.Known<Nvml>(Nvml nvml))) return NvmlResult.unknown(codeOf(opened), opened.why());
        try {
            NvmlResult<Integer> count = nvml.getInt(DEVICE_GET_COUNT_V2);
            if (!(count instanceof NvmlResult.Known<Integer>(Integer n)) || n == 0) {
                String why = count.isKnown() ? "no NVIDIA GPU (NVML counts 0)" : "NVML cannot count the GPUs (" + count.why() + ")";
                try {
                    nvml.close();
                } catch (NvmlException e) {
                    // nothing to watch either way; the reason above is the one that matters
                }
                return NvmlResult.unknown(count.isKnown() ? NvmlTypes.NVML_ERROR_NOT_FOUND : codeOf(count), why);
            }
            List<Gpu> gpus = new ArrayList<>();
            List<MemorySegment> handles = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                NvmlReader.Unknowns u = new NvmlReader.Unknowns();
                int index = i;
                MemorySegment dev = u.get("handle", () -> nvml.device(index));
                String name = dev == null ? null : u.get("name", () -> nvml.getString(DEVICE_GET_NAME, NVML_DEVICE_NAME_V2_BUFFER_SIZE, dev));
                String bus = dev == null ? null : u.get("pciBusId", () -> NvmlReader.pciBusId(nvml, DEVICE_GET_PCI_INFO_V3, dev));
                gpus.add(new Gpu(i, name, bus, u.list));
                handles.add(dev);
            }
            return NvmlResult.of(new NvmlWatch(nvml, gpus, handles));
        } catch (RuntimeException e) {
            try { nvml.close(); } catch (NvmlException suppressed) { e.addSuppressed(suppressed); }
            throw e;
        }
    }

    private static int codeOf(NvmlResult<?> r) {
        return r instanceof NvmlResult.Unknown<?> u ? u.code() : NvmlTypes.NVML_SUCCESS;
    }

    public List<Gpu> gpus() {
        return gpus;
    }

    /** What GPU {@code index} does now; a GPU without a handle gives only the reason. */
    public NvmlActivity read(int index, NvmlActivity.Pcie pcie) {
        MemorySegment dev = handles.get(index);
        if (dev == null) {
            return new NvmlActivity(index, null, null, null, null, null, null, null, null, null, null, null, null, gpus.get(index).unknowns());
        }
        return NvmlActivity.read(nvml, dev, index, pcie);
    }

    /** nvmlShutdown; a failure there is kept for {@link #shutdownProblem()}, not thrown: the readings are already taken. */
    @Override
    public void close() {
        try {
            nvml.close();
        } catch (NvmlException e) {
            shutdownProblem = "shutdown: " + e.getMessage();
        }
    }

    /** Why nvmlShutdown failed, or null. */
    public String shutdownProblem() {
        return shutdownProblem;
    }
}
