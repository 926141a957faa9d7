package hostside.rack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import hostside.core.Finding;
import hostside.cpu.facts.CpuFacts;
import hostside.machine.PciDevice;
import hostside.rack.RackChecklist.Inputs;

/**
 * The rack checklist's host settings: the CPU frequency governor, the power meter cap, the IOMMU
 * and PCI runtime power.
 */
final class HostChecks {
    private HostChecks() {}

    // ---- 9. CPU frequency: cppc_cpufreq + performance on Grace (benchmarking guide) ----

    static RackCheck governor(Inputs in) {
        RackItem item = RackItem.CPU_GOVERNOR;
        CpuFacts.Frequency f = in.cpu().frequency();
        if (f == null || f.governors() == null || f.governors().isEmpty()) {
            return RackCheck.of(item, RackVerdict.INFO, f == null ? "unknown" : f.status(), "no cpufreq: the hypervisor or the firmware sets the clock, and nothing here can change it", "");
        }
        String value = shares(f.governors()) + (f.drivers() == null || f.drivers().isEmpty() ? "" : " (" + shares(f.drivers()) + ")");
        boolean allPerformance = f.governors().stream().allMatch(s -> s.value().equals("performance"));
        if (allPerformance) return RackCheck.ok(item, value, "the clock stays high between bursts: the feeder's latency does not wait for a ramp-up");
        if (in.platform().grace()) {
            return RackCheck.of(item, RackVerdict.WARN, value, "NVIDIA's Grace benchmarking guide runs the performance governor: others ramp the clock up after a burst has started, and launch and copy-submission latencies vary with it",
                    "cpupower frequency-set -g performance");
        }
        boolean hwp = f.drivers() != null && f.drivers().stream().anyMatch(s -> s.value().equals("intel_pstate") || s.value().startsWith("amd-pstate"));
        return RackCheck.of(item, RackVerdict.INFO, value,
                hwp ? "with " + shares(f.drivers()).split(" ")[0] + " the hardware picks the clock within the policy; performance keeps it at the top (less latency variation for launch threads)"
                        : "the clock follows load: a feeder's first microseconds after idle run slower",
                "cpupower frequency-set -g performance, for benchmarks and latency-bound feeders");
    }

    private static String shares(List<CpuFacts.Share> s) {
        if (s.size() == 1) return s.get(0).value();
        List<String> parts = new ArrayList<>();
        for (CpuFacts.Share x : s) parts.add(x.value() + " on " + x.cpus().toList());
        return String.join(", ", parts);
    }

    // ---- 10. power meter cap: acpi_power_meter.force_cap_on=y on Grace servers ----

    static RackCheck powerMeterCap(Inputs in) {
        RackItem item = RackItem.POWER_METER_CAP;
        if (!in.platform().grace()) return RackCheck.na(item, "a Grace server setting (NVIDIA's Grace benchmarking guide)");
        String v = RackChecklist.cmdline(in, "acpi_power_meter.force_cap_on");
        if (v != null && (v.equals("y") || v.equals("1"))) return RackCheck.ok(item, "acpi_power_meter.force_cap_on=" + v, "the power meter's cap is exposed, so the platform's power limit is managed as the guide expects");
        return RackCheck.of(item, RackVerdict.INFO, v == null ? "not on the command line" : "acpi_power_meter.force_cap_on=" + v,
                "NVIDIA's Grace benchmarking guide boots with acpi_power_meter.force_cap_on=y: without it the kernel does not expose the power meter's cap, and the platform's power capping is not managed from the OS",
                "acpi_power_meter.force_cap_on=y on the kernel command line");
    }

    // ---- 11. IOMMU: arm-smmu-v3 before 6.11 with passthrough breaks ATS/SVA ----

    static RackCheck iommu(Inputs in) {
        RackItem item = RackItem.IOMMU;
        var io = in.machine().iommu();
        if (io == null) return RackCheck.unknown(item, "no IOMMU reading", "");
        String value = io.state() + (io.cmdline().isEmpty() ? "" : " (" + String.join(" ", io.cmdline()) + ")");
        if (in.platform().grace()) {
            boolean pt = io.cmdline().contains("iommu.passthrough=1") || io.cmdline().contains("iommu.passthrough=on") || "passthrough".equals(io.state());
            int[] v = RackChecklist.kernel(in);
            if (pt && v != null && (v[0] < 6 || (v[0] == 6 && v[1] < 11))) {
                // info, not warn: the caveat is from this project's research notes (design/rack.md,
                // item 11), not yet confirmed against the kernel's history; it is worth a look, not an alarm
                return RackCheck.of(item, RackVerdict.INFO, value + ", kernel " + v[0] + "." + v[1],
                        "reported for arm-smmu-v3 before Linux 6.11: passthrough (identity) domains leave ATS and SVA off for devices; if a GPU's coherent access to pageable memory or SVA fails, this is a suspect",
                        "a kernel of 6.11 or later, or drop iommu.passthrough=1 where the platform's guide allows");
            }
            return RackCheck.ok(item, value, "no known conflict with ATS on this kernel");
        }
        return switch (io.state()) {
            case "translating" -> RackCheck.of(item, RackVerdict.INFO, value, "every GPU and NIC DMA is translated: pinning large buffers costs IOMMU mappings, and some P2P paths need ACS settings", "iommu=pt (passthrough) where isolation between devices is not needed");
            case "off", "passthrough" -> RackCheck.ok(item, value, "device DMA uses physical addresses: no translation cost for copies");
            default -> RackCheck.of(item, RackVerdict.INFO, value, io.evidence(), "");
        };
    }

    // ---- 12. PCI runtime power: power/control=on for GPUs and NICs (benchmarking guide) ----

    static RackCheck pciPower(Inputs in) {
        RackItem item = RackItem.PCI_POWER;
        Map<String, String> p = in.rack().pciPower();
        List<PciDevice> devices = in.machine().pci().stream().filter(d -> d.isGpu() || d.isNic()).toList();
        if (devices.isEmpty()) return RackCheck.na(item, "no GPU or NIC");
        if (p.isEmpty()) return RackCheck.unknown(item, "no power/control file for any GPU or NIC (a VM's devices often have none)", "");
        Map<String, List<String>> by = new TreeMap<>();
        for (PciDevice d : devices) by.computeIfAbsent(p.getOrDefault(d.address(), "unreadable"), k -> new ArrayList<>()).add(d.label());
        List<String> parts = new ArrayList<>();
        by.forEach((v, names) -> parts.add(v + ": " + Finding.some(names)));
        String value = String.join("; ", parts);
        List<String> auto = by.getOrDefault("auto", List.of());
        if (auto.isEmpty()) return RackCheck.ok(item, value, "runtime power management cannot suspend them between uses");
        return RackCheck.of(item, in.platform().grace() ? RackVerdict.WARN : RackVerdict.INFO, value,
                "runtime power management may suspend " + Finding.some(auto) + " when idle: the first access after that waits for the wake-up" + (in.platform().grace() ? "; NVIDIA's Grace benchmarking guide sets every PCI device to on" : ""),
                "for d in /sys/bus/pci/devices/*/power/control; do echo on > $d; done (a udev rule keeps it)");
    }

}
