package hostside.gpu.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.DetailFigures;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * nvbandwidth's host_to_all_memcpy_ce and all_to_host_memcpy_ce: each GPU's pinned copy measured
 * while every other GPU copies twice as much at the same time (so the others' traffic covers the
 * whole measured window), one GPU after another. Where the GPUs share a PCIe switch, a root port
 * or the CPU's memory bandwidth, each figure is less than the GPU alone reaches, and the sum (the
 * SUM line nvbandwidth prints under its matrix) is what the host can feed or drain at once. With
 * one GPU it is that GPU's copy, as nvbandwidth runs it too.
 */
public record AllGpus(boolean toDevice) implements TestCase<List<Target>> {

    /** One GPU's copy while the others copied too: the detail's "perGpu", joined to the PCIe tree by address. */
    public record PerGpu(String name, String pciAddress, Stats gbs) {}

    /**
     * Each GPU's copy while the others copied (its figure, nvbandwidth's matrix entry, a figure of
     * its own about that GPU), and the buffers they copied.
     *
     * @param perGpu               in CUDA order
     * @param bufferBytes          what the measured GPU copied per copy
     * @param otherGpusBufferBytes what each other GPU copied meanwhile (twice as much)
     * @param copiesPerSample      copies timed together in one sample
     */
    public record AllGpusDetail(List<PerGpu> perGpu, long bufferBytes, long otherGpusBufferBytes, int copiesPerSample) implements DetailFigures {
        public AllGpusDetail {
            perGpu = List.copyOf(perGpu);
        }

        /** One figure per GPU, about that GPU, under the case's key: the sum is the result's own figure, about the machine. */
        @Override
        public List<Figure> figures(Result r, Scope scope) {
            return perGpu.stream().map(g -> new Figure(r.key(), Scope.gpu(g.pciAddress()), g.gbs().median(), r.unit(), r.better(),
                    g.gbs().min(), g.gbs().max(), g.gbs().samples(), "this GPU's copy while every other GPU copied", r.anchor())).toList();
        }
    }

    public String key() {
        return toDevice ? "host_to_all_memcpy_ce" : "all_to_host_memcpy_ce";
    }

    public String description() {
        return (toDevice ? "host to each GPU" : "each GPU to host")
                + " while every other GPU copies too, copy engines, pinned (figure: the sum over GPUs)";
    }

    @Override
    public String anchor() {
        return "nvbandwidth " + key();
    }

    @Override
    public Class<AllGpusDetail> detailType() {
        return AllGpusDetail.class;
    }

    public Result run(List<Target> gpus) {
        int n = gpus.size();
        // the others copy twice the measured size: nvbandwidth's 512 MiB measured where every GPU's
        // pair of buffers fits inside its bounds, less where not
        long bytes = Long.MAX_VALUE;
        for (Target t : gpus) bytes = Math.min(bytes, t.hostBuffer(2 * Target.DEFAULT_BUFFER) / 2);
        bytes = bytes >= 1L << 20 ? bytes & ~((1L << 20) - 1) : Math.max(4096, bytes & ~4095L);
        final long size = bytes;
        double[][] perGpu = new double[n][];
        try (Held held = new Held()) {
            List<HostBuffer> hosts = new ArrayList<>();
            List<DeviceBuffer> devs = new ArrayList<>();
            for (Target t : gpus) {
                GpuBench b = t.bench();
                b.gpu.makeCurrent(); // allocations belong to the current context
                hosts.add(held.keep(HostBuffer.pinned(b.cuda, 2 * size)));
                devs.add(held.keep(b.gpu.alloc(2 * size)));
                devs.getLast().fill(0x5a5a5a5a);
            }
            for (int d = 0; d < n; d++) {
                List<GpuBench.Lane> lanes = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    int g = (d + k) % n; // the measured GPU's lane first
                    long copyBytes = k == 0 ? size : 2 * size;
                    HostBuffer h = hosts.get(g);
                    DeviceBuffer dev = devs.get(g);
                    lanes.add(new GpuBench.Lane(gpus.get(g).bench(), st -> {
                        for (int c = 0; c < Copies.COPIES; c++) {
                            if (toDevice) st.copyHostToDevice(dev, h, copyBytes);
                            else st.copyDeviceToHost(h, dev, copyBytes);
                        }
                    }));
                }
                perGpu[d] = Copies.SAMPLING.take(i -> Copies.gbs(size * Copies.COPIES, GpuBench.blockedTogether(lanes)[0]));
            }
        }
        List<PerGpu> each = new ArrayList<>();
        double median = 0, min = 0, max = 0;
        for (int g = 0; g < n; g++) {
            Stats s = Stats.of(perGpu[g]);
            median += s.median();
            min += s.min();
            max += s.max();
            GpuBench b = gpus.get(g).bench();
            each.add(new PerGpu(b.name, b.pciAddress, s));
        }
        int samples = Arrays.stream(perGpu).mapToInt(a -> a.length).min().orElse(0); // each GPU's loop settles on its own
        // the anchor names the measured buffer where it is not nvbandwidth's default, so that its peer runs at this size
        return Result.ok(this, Unit.GB_PER_S, new Stats(median, min, max, samples),
                "nvbandwidth's: each GPU timed while the others copy twice as much, all streams released by one host word;"
                        + " the sum of the GPUs' medians (min and max: the sums of their minima and maxima)",
                Copies.nvbandwidth(anchor(), size), new AllGpusDetail(each, size, 2 * size, Copies.COPIES));
    }
}
