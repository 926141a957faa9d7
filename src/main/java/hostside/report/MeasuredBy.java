package hostside.report;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.cpu.CpuDrill;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.harness.TestCase;
import hostside.io.IoDrill;
import hostside.machine.GpuDrill;
import hostside.machine.MemoryDrill;
import hostside.vm.VmDrill;

/**
 * Which drill measured a figure, by its key: the drill whose test case's key the figure's key is,
 * or begins with (a derived figure: "launch_jitter_quiet_p99" of "launch_jitter_quiet"). A report
 * records the load before each drill; this says which load a figure was measured under.
 */
public final class MeasuredBy {
    private MeasuredBy() {}

    /** Test-case keys to the drill that runs them, the longest key first so that a prefix never shadows a longer key. */
    private static final List<Map.Entry<String, String>> KEYS = keys();

    private static List<Map.Entry<String, String>> keys() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, "machine", MemoryDrill.tests());
        put(m, "machine", GpuDrill.tests());
        put(m, "machine", GpuDrill.allGpuTests());
        put(m, "vm", VmDrill.hostTests());
        put(m, "vm", VmDrill.gpuTests());
        put(m, "cpu", CpuDrill.measurements());
        put(m, "cpu", DataLoaderTarget.tests());
        put(m, "io", IoDrill.tests());
        return m.entrySet().stream().sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> -e.getKey().length())).toList();
    }

    private static void put(Map<String, String> m, String drill, List<? extends TestCase<?>> cases) {
        for (TestCase<?> c : cases) m.putIfAbsent(c.key(), drill);
    }

    /** The keys of the test cases that run on a GPU: what a GPU's clocks can move. */
    private static final List<String> ON_GPU = java.util.stream.Stream.of(GpuDrill.tests(), GpuDrill.allGpuTests(),
            VmDrill.gpuTests()).flatMap(List::stream).map(TestCase::key).sorted(Comparator.comparingInt(String::length).reversed()).toList();

    /** Whether the figure {@code key} was measured on a GPU (a copy, a launch, managed memory): what locked GPU clocks change. */
    public static boolean onGpu(String key) {
        return ON_GPU.stream().anyMatch(k -> key.equals(k) || key.startsWith(k + "_"));
    }

    /** The drill ("machine", "vm", "cpu", "io") that measured the figure {@code key}; empty for a key no drill of this version has. */
    public static Optional<String> drill(String key) {
        for (var e : KEYS) {
            if (key.equals(e.getKey()) || key.startsWith(e.getKey() + "_")) return Optional.of(e.getValue());
        }
        return Optional.empty();
    }
}
