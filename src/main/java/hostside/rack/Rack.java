package hostside.rack;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Table;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.CudaFacts;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.machine.GpuDrill;

/** Module 5, first part: each GPU's coherence class, and copy engines against SMs reading and writing host memory. */
public final class Rack {
    private Rack() {}

    /** The copy engine and SM copies both ways: the pairs whose ratio the module is about. */
    public static List<TestCase<Target>> tests() {
        return List.of(new Copies.CePinned(true), new Copies.CePinned(false), new SmAccess.SmCopy(true), new SmAccess.SmCopy(false));
    }

    /** The text view. */
    public static String render(GpuDrill.GpuSection gpu) {
        StringBuilder sb = new StringBuilder("hostside rack: coherence and copy engine vs SMs\n\n");
        if (!gpu.notRun().isEmpty()) return sb.append("not run: ").append(gpu.notRun()).append('\n').toString();
        for (CudaFacts.CudaGpu g : gpu.cuda().gpus()) {
            sb.append(g.name()).append(" (").append(g.pciAddress()).append("): coherence class ").append(g.coherence()).append('\n');
            Table t = new Table("attribute", "value", "meaning").right(1);
            for (CudaFacts.Attribute a : g.attributes()) t.row(a.name() + " (" + a.id() + ")", a.value() == null ? "unknown" : a.value(), a.meaning());
            sb.append(t.render("  "));
            sb.append("  ").append(switch (g.coherence()) {
                case "ATS" -> "the GPU walks the CPU's page tables: any host pointer works in a kernel, at link speed";
                case "HMM" -> "the kernel mirrors page tables for the GPU: any host pointer works, pages migrate on fault";
                case "none" -> "only pinned (or managed) memory reaches this GPU directly: pageable memory goes through staging copies";
                default -> "coherence unknown: this driver does not report attribute 88";
            }).append("\n\n");
        }
        for (GpuDrill.GpuRun r : gpu.runs()) {
            Table t = new Table("direction", "copy engine GB/s", "SMs GB/s", "SMs / copy engine").right(1, 2, 3);
            for (boolean in : new boolean[] {true, false}) {
                Optional<Double> ce = Result.median(r.results(), in ? "host_to_device_ce_pinned" : "device_to_host_ce_pinned");
                Optional<Double> sm = Result.median(r.results(), in ? "host_to_device_sm" : "device_to_host_sm");
                t.row(in ? "host to device" : "device to host", ce.map(x -> String.format(Locale.ROOT, "%.1f", x)).orElse("-"),
                        sm.map(x -> String.format(Locale.ROOT, "%.1f", x)).orElse("-"),
                        ce.isPresent() && sm.isPresent() ? String.format(Locale.ROOT, "%.0f%%", 100 * sm.get() / ce.get()) : "-");
            }
            sb.append(r.gpu()).append(" (").append(r.pciAddress()).append("), pinned host memory, nvbandwidth's timing\n").append(t.render("  "));
            for (Result x : r.results()) if (!x.isOk()) sb.append("  ").append(x.key()).append(": ").append(x.status()).append(": ").append(x.why()).append('\n');
            r.verdicts().stream().filter(v -> v.startsWith("SMs")).forEach(v -> sb.append("  ").append(v).append('\n'));
            sb.append('\n');
        }
        return sb.toString();
    }
}
