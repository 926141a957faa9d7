package hostside.cpu.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import hostside.core.CpuSet;
import hostside.core.GarbageException;
import hostside.cpu.facts.CpuFacts.DeviceIrqs;
import hostside.cpu.facts.CpuFacts.Irq;
import hostside.cpu.facts.CpuFacts.Irqs;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Read;
import hostside.machine.MachineFacts;
import hostside.machine.PciDevice;
import hostside.machine.PciKind;

/**
 * Module 3's interrupts: /proc/interrupts, each GPU's, NIC's and NVMe drive's IRQs with where
 * they may run (smp_affinity, effective_affinity) and where they landed, the default affinity and
 * whether irqbalance runs. Read for {@link CpuFactsReader}, which owns the unknowns it adds to.
 */
final class IrqReader {
    private final FsRoot fs;
    private final MachineFacts machine;
    private final FactReads reads;
    private final List<String> unknowns;

    IrqReader(FsRoot fs, MachineFacts machine, FactReads reads, List<String> unknowns) {
        this.fs = fs;
        this.machine = machine;
        this.reads = reads;
        this.unknowns = unknowns;
    }

    Irqs read() {
        Read r = fs.read("/proc/interrupts");
        Interrupts table;
        if (r instanceof Read.Ok ok) {
            table = Interrupts.parse(ok.text());
            if (!table.header()) unknowns.add("/proc/interrupts: no \"CPU0 CPU1 ...\" header: columns taken as CPUs 0, 1, 2...");
            if (!table.unparsed().isEmpty()) {
                unknowns.add("/proc/interrupts: " + table.unparsed().size() + " line(s) not understood, first: \""
                        + FactReads.shown(table.unparsed().getFirst()) + "\"");
            }
        } else {
            unknowns.add(r.why());
            table = Interrupts.parse("");
        }
        Map<Integer, Interrupts.Row> rows = table.byNumber();
        List<PciDevice> devices = machine.pci() == null ? List.of() : machine.pci().stream()
                .filter(d -> d.isGpu() || d.isNic() || d.kind() == PciKind.NVME)
                .sorted(java.util.Comparator.comparing(PciDevice::kind)) // GPUs, then NICs, then NVMe drives: the enum's order
                .toList();

        Map<Integer, PciDevice> owner = new TreeMap<>();
        Map<String, Set<String>> how = new LinkedHashMap<>();
        java.util.function.BiConsumer<PciDevice, Integer> own = (d, n) -> owner.putIfAbsent(n, d);
        // 1. the kernel's own list of the device's MSI and MSI-X vectors
        for (PciDevice d : devices) {
            for (String name : fs.list("/sys/bus/pci/devices/" + d.address() + "/msi_irqs")) {
                if (!name.matches("\\d{1,9}")) continue;
                int n = Integer.parseInt(name);
                if (!owner.containsKey(n)) {
                    own.accept(d, n);
                    how.computeIfAbsent(d.address(), k -> new LinkedHashSet<>()).add("msi_irqs");
                }
            }
        }
        // 2. the device's address in the row (x86 6.2+ chips, mlx5 names, bus-wide PCI-MSI hwirqs)
        Map<String, PciDevice> byAddress = new LinkedHashMap<>();
        for (PciDevice d : devices) byAddress.put(d.address(), d);
        for (var e : rows.entrySet()) {
            if (owner.containsKey(e.getKey())) continue;
            for (String a : Interrupts.addresses(e.getValue())) {
                PciDevice d = byAddress.get(a);
                if (d != null) {
                    own.accept(d, e.getKey());
                    how.computeIfAbsent(d.address(), k -> new LinkedHashSet<>()).add("address in /proc/interrupts");
                    break;
                }
            }
        }
        // 3. the legacy interrupt line (or single MSI) in the device's irq file, when no other device's address is on the row
        for (PciDevice d : devices) {
            Integer n = reads.integer("/sys/bus/pci/devices/" + d.address() + "/irq", false, false);
            if (n == null || n <= 0 || owner.containsKey(n) || !rows.containsKey(n)) continue;
            List<String> named = Interrupts.addresses(rows.get(n));
            if (named.isEmpty() || named.contains(d.address())) {
                own.accept(d, n);
                how.computeIfAbsent(d.address(), k -> new LinkedHashSet<>()).add("irq file");
            }
        }
        // 4. handler names: interface names (eth0-TxRx-3, nvme0q1, virtio2-input.0), "nvidia" with one NVIDIA GPU
        List<PciDevice> nvidia = devices.stream().filter(d -> d.isGpu() && (d.driver().equals("nvidia") || d.vendorId().equals("0x10de"))).toList();
        Map<PciDevice, List<Pattern>> aliases = new LinkedHashMap<>();
        for (PciDevice d : devices) {
            List<String> names = new ArrayList<>(d.interfaces());
            for (String child : fs.list("/sys/bus/pci/devices/" + d.address())) if (child.matches("virtio\\d+")) names.add(child);
            aliases.put(d, names.stream().filter(s -> !s.isEmpty())
                    .map(s -> Pattern.compile("(^|[^A-Za-z0-9_])" + Pattern.quote(s) + "($|[^0-9])")).toList());
        }
        for (var e : rows.entrySet()) {
            if (owner.containsKey(e.getKey()) || !Interrupts.addresses(e.getValue()).isEmpty()) continue;
            PciDevice match = null;
            for (String action : e.getValue().actions()) {
                for (PciDevice d : devices) {
                    if (aliases.get(d).stream().anyMatch(p -> p.matcher(action).find())) match = d;
                }
                if (match == null && action.startsWith("nvidia") && nvidia.size() == 1) match = nvidia.getFirst();
                if (match != null) break;
            }
            if (match != null) {
                own.accept(match, e.getKey());
                how.computeIfAbsent(match.address(), k -> new LinkedHashSet<>()).add("name in /proc/interrupts");
            }
        }

        Map<String, TreeSet<Integer>> missingAffinity = new LinkedHashMap<>();
        List<DeviceIrqs> out = new ArrayList<>();
        for (PciDevice d : devices) {
            List<Irq> irqs = new ArrayList<>();
            CpuSet routed = CpuSet.EMPTY, landed = CpuSet.EMPTY;
            long total = 0;
            for (var e : owner.entrySet()) {
                if (e.getValue() != d) continue;
                Irq irq = irq(e.getKey(), rows.get(e.getKey()), table, missingAffinity);
                irqs.add(irq);
                routed = routed.or(irq.routedTo());
                landed = landed.or(irq.landedOn());
                total += irq.total();
            }
            out.add(new DeviceIrqs(d.label(), d.address(), d.kind(), d.numaNode(), d.localCpus(),
                    List.copyOf(how.getOrDefault(d.address(), Set.of())), List.copyOf(irqs), routed, landed, total));
        }
        missingAffinity.forEach((why, irqs) -> unknowns.add(why + " for IRQs " + CpuSet.of(irqs.stream().mapToInt(i -> i).toArray())
                + ": where they may run is unknown (where they ran comes from /proc/interrupts)"));

        CpuSet defaultAffinity = null;
        Optional<String> def = fs.text("/proc/irq/default_smp_affinity");
        if (def.isPresent()) {
            try {
                defaultAffinity = CpuSet.parseMask(def.get());
            } catch (GarbageException e) {
                reads.garbage("/proc/irq/default_smp_affinity", "not a CPU mask", def.get());
            }
        }
        Boolean irqbalance = null;
        String irqbalanceSource;
        if (fs.isLive()) {
            irqbalance = false;
            for (String p : fs.list("/proc")) {
                if (p.matches("\\d+") && fs.text("/proc/" + p + "/comm").orElse("").equals("irqbalance")) {
                    irqbalance = true;
                    break;
                }
            }
            irqbalanceSource = "/proc/*/comm";
        } else {
            irqbalanceSource = "unknown: a recording holds no process list";
        }
        return new Irqs(CpuSet.of(table.cpus().stream().mapToInt(i -> i).toArray()), defaultAffinity, irqbalance, irqbalanceSource, List.copyOf(out));
    }

    /**
     * {@code NAME_list} as read ({@code list}: the kernel's list), else {@code NAME} (its hex mask,
     * older kernels); null when neither reads or the text is garbage (said in the unknowns).
     */
    private CpuSet listOrMask(String base, String name, Read list) {
        if (list instanceof Read.Ok ok) return parseList(base + name + "_list", ok.text());
        if (fs.read(base + name) instanceof Read.Ok ok) return parseMask(base + name, ok.text());
        return null;
    }

    private Irq irq(int n, Interrupts.Row row, Interrupts table, Map<String, TreeSet<Integer>> missing) {
        String base = "/proc/irq/" + n + "/";
        Read list = fs.read(base + "smp_affinity_list");
        CpuSet affinity = listOrMask(base, "smp_affinity", list);
        if (affinity == null && list instanceof Read.Failed failed) {
            String why = fs.exists("/proc/irq") ? "/proc/irq/N/smp_affinity_list: " + failed.reason() : "/proc/irq: missing";
            missing.computeIfAbsent(why, k -> new TreeSet<>()).add(n);
        }
        CpuSet effective = listOrMask(base, "effective_affinity", fs.read(base + "effective_affinity_list"));
        Map<Integer, Long> perCpu = row == null ? Map.of() : table.perCpu(row);
        CpuSet landed = CpuSet.of(perCpu.keySet().stream().mapToInt(i -> i).toArray());
        CpuSet routed = effective != null && !effective.isEmpty() ? effective
                : !landed.isEmpty() ? landed : affinity != null ? affinity : CpuSet.EMPTY;
        return new Irq(n, row == null ? "" : row.name(), row == null ? "" : row.chip(), affinity, effective, landed, routed,
                row == null ? 0 : row.total(), perCpu);
    }

    /** /proc/irq's text, parsed here once; garbage is an unknown and null. */
    private CpuSet parseList(String path, String text) {
        try {
            return CpuSet.parseList(text);
        } catch (GarbageException e) {
            reads.garbage(path, "not a CPU list", text);
            return null;
        }
    }

    private CpuSet parseMask(String path, String text) {
        try {
            return CpuSet.parseMask(text);
        } catch (GarbageException e) {
            reads.garbage(path, "not a CPU mask", text);
            return null;
        }
    }
}
