package hostside.checklist;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;

import hostside.fs.FsRoot;
import hostside.gpu.nvml.NvmlActivity;
import hostside.gpu.nvml.NvmlException;

/**
 * Samples the machine and one process at a fixed cadence, on absolute ticks (a slow read makes
 * the next wait shorter, not the window longer). It stops early when the process exits: what was
 * read until then is the window.
 */
final class Sampler {
    /** Twice a second: short enough to see a thread's state change, long enough that reading costs little. */
    static final Duration INTERVAL = Duration.ofMillis(500);

    /**
     * The samples and what could not be read.
     *
     * @param exitedAtNanos when the process was first seen gone (on the ticker), or null
     */
    record Sampling(List<Sample> samples, Long exitedAtNanos, Set<String> unknowns) {
        Sampling {
            samples = List.copyOf(samples);
            unknowns = Set.copyOf(unknowns);
        }

        boolean exited() {
            return exitedAtNanos != null;
        }
    }

    private Sampler() {}

    /**
     * Takes up to {@code count} samples {@code interval} apart; {@code onSample} hears each
     * sample's number as it is taken (for progress).
     */
    static Sampling run(FsRoot fs, long pid, int count, Duration interval, Ticker ticker, GpuFeed gpus, IntConsumer onSample)
            throws InterruptedException {
        Set<String> unknowns = new LinkedHashSet<>();
        SampleReader reader = new SampleReader(fs, pid, unknowns);
        List<Sample> samples = new ArrayList<>();
        long start = ticker.nanoTime();
        for (int i = 0; i < count; i++) {
            if (i > 0) ticker.sleepUntil(start + i * interval.toNanos());
            long at = ticker.nanoTime();
            Sample s = reader.read(at);
            if (s.process() == null) return new Sampling(samples, at, unknowns);
            samples.add(s.withGpus(readGpus(gpus, i, unknowns)));
            onSample.accept(i);
        }
        return new Sampling(samples, null, unknowns);
    }

    /**
     * Each GPU's activity. PCIe throughput holds NVML for 20 ms per counter and GPU, so one
     * counter is read per tick, TX and RX in turn: eight GPUs cost 160 ms of a 500 ms tick, not 320.
     */
    private static List<NvmlActivity> readGpus(GpuFeed gpus, int tick, Set<String> unknowns) {
        List<NvmlActivity> out = new ArrayList<>();
        NvmlActivity.Pcie pcie = tick % 2 == 0 ? NvmlActivity.Pcie.TX : NvmlActivity.Pcie.RX;
        for (int g = 0; g < gpus.gpus().size(); g++) {
            try {
                NvmlActivity a = gpus.read(g, pcie);
                for (String u : a.unknowns()) unknowns.add("GPU" + g + " " + u);
                out.add(a);
            } catch (NvmlException e) {
                unknowns.add("GPU" + g + ": " + e.getMessage());
            }
        }
        return out;
    }
}
