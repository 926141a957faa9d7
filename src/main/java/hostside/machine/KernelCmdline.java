package hostside.machine;

import java.util.ArrayList;
import java.util.List;

import hostside.fs.FsRoot;

/**
 * The kernel command line items that change how a GPU host behaves, each with why it matters.
 * Only the kernel's own part counts: what follows "--" goes to init.
 */
public final class KernelCmdline {

    /** One item found on the command line. {@code topic} groups them: iommu, pcie, cpu, memory. */
    public record Item(String text, String topic, String why) {}

    private record Known(String key, String topic, String why) {}

    private static final List<Known> KNOWN = List.of(
            new Known("intel_iommu", "iommu", "Intel VT-d on or off; 'on' with DMA translation makes every GPU and NIC DMA go through the IOMMU"),
            new Known("amd_iommu", "iommu", "AMD IOMMU on or off"),
            new Known("iommu", "iommu", "'pt' maps devices 1:1 (passthrough): no translation cost for GPU and NIC DMA"),
            new Known("iommu.passthrough", "iommu", "1 = passthrough by default, 0 = translate every DMA"),
            new Known("iommu.strict", "iommu", "1 = unmap at once (safer, slower DMA unmaps); 0 = lazy, batched invalidation"),
            new Known("pci", "pcie", "PCI options: realloc and ACS settings change BAR space and peer-to-peer routing"),
            new Known("pcie_aspm", "pcie", "link power management: 'off' avoids wake-up latency on GPU and NIC links"),
            new Known("pcie_acs_override", "pcie", "out-of-tree patch that splits IOMMU groups by ignoring ACS"),
            new Known("isolcpus", "cpu", "CPUs kept away from the scheduler: pin data-loader or launch threads there deliberately"),
            new Known("nohz_full", "cpu", "CPUs without the periodic tick: less jitter for a launch thread pinned there"),
            new Known("rcu_nocbs", "cpu", "CPUs whose RCU callbacks run elsewhere"),
            new Known("irqaffinity", "cpu", "default CPUs for interrupts"),
            new Known("idle", "cpu", "'poll' trades power for wake-up latency"),
            new Known("intel_idle.max_cstate", "cpu", "caps deep C-states: lower wake-up latency"),
            new Known("processor.max_cstate", "cpu", "caps deep C-states: lower wake-up latency"),
            new Known("mitigations", "cpu", "CPU vulnerability mitigations: 'off' makes syscalls and context switches cheaper"),
            new Known("transparent_hugepage", "memory", "THP default: 'never' means 4 KiB faults for every pinned buffer"),
            new Known("default_hugepagesz", "memory", "size of the preallocated huge pages"),
            new Known("hugepagesz", "memory", "huge page size reserved at boot"),
            new Known("hugepages", "memory", "huge pages reserved at boot"),
            new Known("numa_balancing", "memory", "automatic NUMA page migration: it moves pages under a running job"),
            new Known("init_on_alloc", "memory", "zeroes every page on allocation: slower first touch and pinning"),
            new Known("memhp_default_state", "memory", "how hot-added memory comes online (GPU memory as NUMA nodes uses it)"),
            new Known("swiotlb", "memory", "software bounce buffers for DMA: forced bouncing halves copy bandwidth"),
            new Known("acpi_power_meter.force_cap_on", "power", "exposes the ACPI power meter's cap (NVIDIA's Grace benchmarking guide sets it on Grace servers)"));

    private KernelCmdline() {}

    public static List<Item> read(FsRoot fs) {
        return parse(fs.text("/proc/cmdline").orElse(""));
    }

    static List<Item> parse(String cmdline) {
        List<Item> items = new ArrayList<>();
        for (String token : cmdline.strip().split("\\s+")) {
            if (token.equals("--")) break;
            String key = token.contains("=") ? token.substring(0, token.indexOf('=')) : token;
            for (Known k : KNOWN) {
                if (k.key().equals(key)) items.add(new Item(token, k.topic(), k.why()));
            }
        }
        return items;
    }
}
