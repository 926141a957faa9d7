package hostside.gpu.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Result;
import hostside.harness.Stats;
import hostside.harness.TestCase;

/**
 * Pinned copies to (or from) every GPU at once, one host thread per GPU released together:
 * where the GPUs share a PCIe switch, a root port or the CPU's memory bandwidth, the sum is
 * less than the GPUs measured one by one.
 */
public record AllGpus(boolean toDevice) implements TestCase<List<Target>> {
    public String key() {
        return toDevice ? "host_to_device_ce_pinned_all_gpus" : "device_to_host_ce_pinned_all_gpus";
    }

    public String description() {
        return (toDevice ? "host to device" : "device to host") + " on every GPU at once, copy engines, pinned (figure: the sum)";
    }

    @Override
    public Optional<String> notApplicable(List<Target> gpus) {
        return gpus.size() < 2 ? Optional.of("one GPU in this machine") : Optional.empty();
    }

    public Result run(List<Target> gpus) {
        int n = gpus.size();
        double[][] perGpu = new double[n][Copies.SAMPLES];
        CyclicBarrier together = new CyclicBarrier(n);
        List<Thread> threads = new ArrayList<>();
        RuntimeException[] failure = new RuntimeException[1];
        for (int g = 0; g < n; g++) {
            final int gi = g;
            threads.add(Thread.ofPlatform().start(() -> {
                Target t = gpus.get(gi);
                GpuBench b = t.bench();
                b.gpu.makeCurrent(); // contexts are per thread
                long bytes = t.buffer(Target.DEFAULT_BUFFER);
                try (HostBuffer host = HostBuffer.pinned(b.cuda, bytes); DeviceBuffer dev = b.gpu.alloc(bytes)) {
                    for (int i = -Copies.WARMUPS; i < Copies.SAMPLES; i++) {
                        together.await();
                        double ms = b.blockedMs(b.stream, st -> {
                            for (int c = 0; c < Copies.COPIES; c++) {
                                if (toDevice) st.copyHostToDevice(dev, host, bytes);
                                else st.copyDeviceToHost(host, dev, bytes);
                            }
                        });
                        if (i >= 0) perGpu[gi][i] = Copies.gbs(bytes * Copies.COPIES, ms);
                    }
                } catch (InterruptedException | BrokenBarrierException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                    together.reset();
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure[0] != null) throw failure[0];
        double[] sums = new double[Copies.SAMPLES];
        Map<String, Object> d = new LinkedHashMap<>();
        for (int g = 0; g < n; g++) {
            for (int i = 0; i < sums.length; i++) sums[i] += perGpu[g][i];
            GpuBench b = gpus.get(g).bench();
            d.put(b.name + " (" + b.pciAddress + ")", Stats.of(perGpu[g]));
        }
        return Result.ok(this, "GB/s", Stats.of(sums), "nvbandwidth's timing on each GPU, one host thread per GPU, started together", d);
    }
}
