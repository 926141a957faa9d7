package hostside.report;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.harness.Result;
import hostside.machine.GpuDrill;
import hostside.machine.MachineFacts;
import hostside.machine.PciDevice;
import hostside.machine.Topology;
import hostside.vm.VmRun;
import hostside.vm.measure.AnonTouch;

/**
 * The report's headline figures: the machine's shape and link from Module 1's facts, its copies,
 * and Module 2's fault, THP and TLB figures, each in three significant figures with its range.
 */
final class Headlines {
    private Headlines() {}

    /**
     * A headline figure: three significant figures, one unit per kind (latencies in us, whatever
     * unit they were measured in), the range of its samples beside it: "55.3 GB/s (54.9-55.4)".
     */
    static String headline(Stats v, Unit unit) {
        double k = unit == Unit.NS ? 1e-3 : 1;
        String shown = unit == Unit.NS ? Unit.US.toString() : unit.toString();
        return Units.sig3(v.median() * k) + " " + shown + " (" + Units.sig3(v.min() * k) + "-" + Units.sig3(v.max() * k) + ")";
    }

    static List<Report.Headline> of(MachineFacts m, GpuDrill.GpuSection gpu) {
        List<Report.Headline> h = new ArrayList<>();
        Topology t = m.topology();
        h.add(new Report.Headline("CPU", ReportBuilder.plural(t.packages(), "package") + ", " + ReportBuilder.plural(t.cores(), "core") + ", "
                + ReportBuilder.plural(t.threads(), "thread"), "sysfs topology"));
        long withCpus = t.numaNodes().stream().filter(x -> !x.cpus().isEmpty()).count();
        long gpuNodes = t.numaNodes().stream().filter(Topology.NumaNode::gpuMemory).count();
        h.add(new Report.Headline("NUMA nodes", t.numaNodes().size() + " (" + withCpus + " with CPUs" + (gpuNodes > 0 ? ", " + gpuNodes + " GPU memory" : "") + ")", "sysfs node"));
        long nodeMem = t.numaNodes().stream().filter(x -> !x.gpuMemory() && x.memTotalBytes() != null).mapToLong(Topology.NumaNode::memTotalBytes).sum();
        Long all = t.whole().memTotalBytes();
        h.add(new Report.Headline("host memory", Units.bytes(all != null ? all : nodeMem)
                + (all != null && Math.abs(all - nodeMem) > all / 20 ? " (NUMA nodes show " + Units.bytes(nodeMem) + ")" : ""),
                all != null ? "/proc/meminfo" : "node meminfo"));
        for (PciDevice g : m.gpus()) {
            h.add(new Report.Headline(g.label() + " link", g.link() == null ? "unknown"
                    : g.link().current() + " now, " + g.link().max() + " max = " + Units.gbps(g.link().maxGBs()) + " per direction", "sysfs PCIe link"));
        }
        for (GpuDrill.GpuRun r : gpu.runs()) {
            for (String key : List.of("host_to_device_ce_pinned", "device_to_host_ce_pinned", "host_to_device_ce_pageable",
                    "device_to_host_ce_pageable", "host_to_device_sm", "host_device_latency_sm")) {
                r.results().stream().filter(x -> x.key().equals(key) && x.isOk()).findFirst().ifPresent(x -> h.add(new Report.Headline(
                        r.gpu() + " " + key.replace('_', ' '), headline(x.value(), x.unit()), x.method())));
            }
        }
        h.add(new Report.Headline("IOMMU", m.iommu().state(), m.iommu().evidence()));
        return h;
    }

    /** Module 2's figures worth a line at the top: the cost of a fault, whether THP works, TLB reach, managed memory. */
    static List<Report.Headline> vm(VmRun vm) {
        List<Report.Headline> h = new ArrayList<>();
        var f = vm.facts();
        if (f.pageSize() != null && f.pageSize().bytes() != null) {
            String thp = f.thp() != null && f.thp().available() && f.thp().enabled() != null ? ", THP " + f.thp().enabled().selected() : ", THP unavailable";
            h.add(new Report.Headline("base page", Units.bytes(f.pageSize().bytes()) + thp, "sysconf, /sys/kernel/mm"));
        }
        List<Result> all = new ArrayList<>(vm.host());
        all.addAll(vm.gpu().results());
        for (Result r : all) {
            if (!r.isOk()) continue;
            switch (r.key()) {
                case "anon_first_touch_base" -> {
                    if (r.detail() instanceof AnonTouch.TouchDetail d && d.usPerFault() != null) {
                        h.add(new Report.Headline("first-touch fault", String.format(Locale.ROOT, "%.2f us per %s page", d.usPerFault(),
                                Units.bytes(d.pageSize())), r.method()));
                    }
                }
                case "anon_first_touch_thp" -> h.add(new Report.Headline("first touch with THP", String.format(Locale.ROOT, "%.0f ms per GiB, %s huge", r.value().median(),
                        r.detail() instanceof AnonTouch.TouchDetail d && d.hugePercent() != null
                                ? String.format(Locale.ROOT, "%.0f%%", d.hugePercent()) : "unknown share"), r.method()));
                case "tlb_reach_base", "tlb_reach_huge", "managed_gpu_faults_h2d", "managed_prefetch_h2d" ->
                        h.add(new Report.Headline(r.key().replace('_', ' '), headline(r.value(), r.unit()), r.method()));
                // Module 2's own file, read to compare read() with mmap: named so, not to be taken for Module 4's checkpoint read
                case "file_read_cold", "file_mmap_cold" -> h.add(new Report.Headline(r.key().replace('_', ' ') + " (Module 2's read-vs-mmap file)",
                        headline(r.value(), r.unit()), r.method()));
                default -> { }
            }
        }
        return h;
    }
}
