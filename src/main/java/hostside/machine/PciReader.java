package hostside.machine;

import java.util.Locale;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;

/** Reads every PCI function from /sys/bus/pci/devices and places it in the PCIe tree. */
public final class PciReader {
    private static final String DEVICES = "/sys/bus/pci/devices";
    private static final Pattern BDF = Pattern.compile("[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
    private static final Pattern HOST_BRIDGE = Pattern.compile("pci[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}");

    private final FsRoot fs;
    private final List<String> unknowns;
    private final Facts facts;

    public PciReader(FsRoot fs, List<String> unknowns) {
        this.fs = fs;
        this.unknowns = unknowns;
        this.facts = new Facts(fs, unknowns);
    }

    public List<PciDevice> read() {
        Map<String, PciDevice> byAddress = new LinkedHashMap<>();
        for (String address : fs.list(DEVICES)) {
            if (!BDF.matcher(address).matches()) continue;
            byAddress.put(address.toLowerCase(), device(address));
        }
        return cutWhereLooping(name(new ArrayList<>(byAddress.values())));
    }

    /**
     * The tree with every chain of upstream bridges ending at a root bus. On a machine sysfs nests
     * each function's folder in its bridge's, so the chain always ends; a recording's links can
     * nest a function under itself or under a function below it, and every walk up the tree would
     * go round for ever. Where a chain does not end ({@link UpstreamChain}), its topmost function
     * loses its place (no upstream, host bridge unknown) and an unknown says where: one cut per
     * cycle, and the facts, the report written from them and its read-back never hold one.
     */
    private List<PciDevice> cutWhereLooping(List<PciDevice> devices) {
        Map<String, PciDevice> byAddress = new LinkedHashMap<>();
        for (PciDevice d : devices) byAddress.put(d.address(), d);
        for (PciDevice d : devices) {
            UpstreamChain chain = UpstreamChain.of(byAddress.get(d.address()), byAddress);
            if (chain.fault() == null) continue;
            PciDevice top = byAddress.get(chain.addresses().getFirst());
            byAddress.put(top.address(), new PciDevice(top.address(), top.kind(), top.name(), top.classCode(), top.vendorId(), top.deviceId(),
                    top.description(), top.driver(), top.numaNode(), top.localCpus(), top.link(), null, null, top.interfaces(),
                    top.netSpeedMbps(), top.rdma(), top.iommuGroup()));
            unknowns.add("PCIe tree: " + chain.fault() + " in " + (fs.isLive() ? "" : "the recording's ") + "/sys/devices; "
                    + top.address() + " is shown under an unknown host bridge");
        }
        return new ArrayList<>(byAddress.values());
    }

    /**
     * One PCI function by address ("0000:3b:00.0"), for readers that start from a block device or
     * a network interface; unnamed (name ""). Empty when sysfs has no such function.
     */
    public Optional<PciDevice> function(String address) {
        if (!BDF.matcher(address).matches() || !fs.isDirectory(DEVICES + "/" + address)) return Optional.empty();
        return Optional.of(device(address));
    }

    private PciDevice device(String address) {
        String dir = DEVICES + "/" + address;
        String classText = fs.text(dir + "/class").orElse(null);
        int classCode = PciClass.parse(classText);
        if (classText != null && classCode < 0) unknowns.add(dir + "/class: not a class code: \"" + classText + "\"");
        int vendor = PciClass.parse(fs.text(dir + "/vendor").orElse(null));
        String driver = fs.readLink(dir + "/driver").map(t -> t.substring(t.lastIndexOf('/') + 1)).orElse("");
        boolean nvidiaGpu = fs.isDirectory("/proc/driver/nvidia/gpus/" + address);
        boolean gpuDriver = nvidiaGpu || driver.equals("nvidia") || driver.equals("amdgpu") || driver.equals("xe");
        PciKind kind = PciClass.kind(classCode, vendor, gpuDriver && (classCode >> 16) == 0x03 || nvidiaGpu);

        // Where the device sits: the chain of bridges in its /sys/devices path.
        String upstream = null, hostBridge = null;
        Optional<String> real = fs.realPath(dir);
        if (real.isPresent() && !real.get().equals(dir)) {
            String[] parts = real.get().split("/");
            for (int i = 0; i < parts.length; i++) {
                if (HOST_BRIDGE.matcher(parts[i]).matches()) {
                    hostBridge = parts[i];
                    upstream = null;
                } else if (hostBridge != null && BDF.matcher(parts[i]).matches() && i < parts.length - 1) {
                    upstream = parts[i].toLowerCase();
                }
            }
        }

        Integer numa = fs.text(dir + "/numa_node").flatMap(PciReader::integer).filter(n -> n >= 0).orElse(null);
        CpuSet local = facts.cpuList(dir + "/local_cpulist").or(() -> facts.cpuMask(dir + "/local_cpus")).orElse(CpuSet.EMPTY);
        PciLink link = null;
        Optional<String> speed = fs.text(dir + "/current_link_speed");
        Optional<String> maxSpeed = fs.text(dir + "/max_link_speed");
        if (speed.isPresent() || maxSpeed.isPresent()) {
            link = new PciLink(PciLink.parseSpeed(speed.orElse(null)), PciLink.parseWidth(fs.text(dir + "/current_link_width").orElse(null)),
                    PciLink.parseSpeed(maxSpeed.orElse(null)), PciLink.parseWidth(fs.text(dir + "/max_link_width").orElse(null)));
        }
        String group = fs.readLink(dir + "/iommu_group").map(t -> t.substring(t.lastIndexOf('/') + 1)).orElse(null);
        String description = describe(classCode, vendor, address);
        List<String> interfaces = interfaces(dir);
        boolean rdma = !fs.list(dir + "/infiniband").isEmpty();
        Integer netSpeed = null;
        if (kind == PciKind.NIC) {
            for (String i : interfaces) {
                Optional<Integer> s = fs.text("/sys/class/net/" + i + "/speed").flatMap(PciReader::integer).filter(x -> x > 0);
                if (s.isPresent()) {
                    netSpeed = s.get();
                    break;
                }
            }
        }
        return new PciDevice(address.toLowerCase(), kind, "", classCode < 0 ? "" : String.format(Locale.ROOT, "0x%06x", classCode),
                vendor < 0 ? "" : String.format(Locale.ROOT, "0x%04x", vendor),
                fs.text(dir + "/device").orElse(""), description, driver, numa, local, link, upstream, hostBridge,
                interfaces, netSpeed, rdma, group);
    }

    private String describe(int classCode, int vendor, String address) {
        // The NVIDIA driver names its GPUs ("Model: NVIDIA H200").
        for (String line : fs.text("/proc/driver/nvidia/gpus/" + address + "/information").orElse("").split("\n")) {
            if (line.startsWith("Model:")) return line.substring(6).strip();
        }
        String v = vendor < 0 && fs.isDirectory("/proc/driver/nvidia/gpus/" + address) ? "NVIDIA" : PciClass.vendorName(vendor);
        return (v.isEmpty() ? "" : v + " ") + PciClass.describe(classCode);
    }

    /** Network interfaces, RDMA devices and NVMe controllers the function provides. */
    private List<String> interfaces(String dir) {
        List<String> names = new ArrayList<>();
        names.addAll(fs.list(dir + "/infiniband"));
        names.addAll(fs.list(dir + "/net"));
        names.addAll(fs.list(dir + "/nvme"));
        for (String child : fs.list(dir)) {
            if (child.startsWith("virtio")) names.addAll(fs.list(dir + "/" + child + "/net"));
        }
        return names;
    }

    /** GPUs become GPU0, GPU1... in PCI address order (nvidia-smi's order); others take their interface name. */
    private static List<PciDevice> name(List<PciDevice> devices) {
        devices.sort((a, b) -> a.address().compareTo(b.address()));
        List<PciDevice> named = new ArrayList<>();
        int gpu = 0;
        for (PciDevice d : devices) {
            String name = d.isGpu() ? "GPU" + gpu++ : d.interfaces().isEmpty() ? "" : d.interfaces().getFirst();
            named.add(new PciDevice(d.address(), d.kind(), name, d.classCode(), d.vendorId(), d.deviceId(),
                    d.description(), d.driver(), d.numaNode(), d.localCpus(), d.link(), d.upstream(), d.hostBridge(),
                    d.interfaces(), d.netSpeedMbps(), d.rdma(), d.iommuGroup()));
        }
        return named;
    }

    private static Optional<Integer> integer(String s) {
        try {
            return Optional.of(Integer.parseInt(s.strip()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
