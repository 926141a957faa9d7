package hostside.checklist;

import java.util.List;

import hostside.gpu.nvml.NvmlActivity;
import hostside.gpu.nvml.NvmlResult;
import hostside.gpu.nvml.NvmlWatch;

/**
 * Where the sampler reads the GPUs: NVML on this machine, or a test's canned readings. A feed
 * that could not open says why in {@link #notRead()} and has no GPUs.
 */
public interface GpuFeed extends AutoCloseable {
    List<NvmlWatch.Gpu> gpus();

    NvmlActivity read(int index, NvmlActivity.Pcie pcie);

    /** Null when the GPUs are read; else why not ("no NVIDIA driver (libnvidia-ml.so.1 not found)"). */
    String notRead();

    /** Why the feed did not end cleanly, or null. */
    default String closeProblem() {
        return null;
    }

    @Override
    void close();

    static GpuFeed none(String why) {
        return new GpuFeed() {
            @Override
            public List<NvmlWatch.Gpu> gpus() {
                return List.of();
            }

            @Override
            public NvmlActivity read(int index, NvmlActivity.Pcie pcie) {
                throw new IndexOutOfBoundsException("no GPU " + index + ": " + why);
            }

            @Override
            public String notRead() {
                return why;
            }

            @Override
            public void close() {}
        };
    }

    /** NVML from {@code library}; no driver, no GPU or a driver that will not start give {@link #none}. */
    static GpuFeed nvml(String library) {
        NvmlResult<NvmlWatch> opened = NvmlWatch.open(library);
        if (!(opened instanceof NvmlResult.Known<NvmlWatch>(NvmlWatch watch))) return none(opened.why());
        return new GpuFeed() {
            @Override
            public List<NvmlWatch.Gpu> gpus() {
                return watch.gpus();
            }

            @Override
            public NvmlActivity read(int index, NvmlActivity.Pcie pcie) {
                return watch.read(index, pcie);
            }

            @Override
            public String notRead() {
                return null;
            }

            @Override
            public String closeProblem() {
                return watch.shutdownProblem();
            }

            @Override
            public void close() {
                watch.close();
            }
        };
    }
}
