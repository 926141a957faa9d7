package hostside.rack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.fs.FsRoot;
import hostside.machine.CpuInfo;
import hostside.machine.MachineFacts;
import hostside.machine.PciDevice;

/**
 * Reads {@link RackFacts} through {@link FsRoot}, so that a recording answers what it holds. Files
 * that may hold addresses or secrets are only tested for existence: IMEX's nodes_config.cfg lists
 * the IPs of every node of the domain, and nothing of it is read.
 */
public final class RackFactsReader {
    static final String PARAMS = "/proc/driver/nvidia/params";
    static final String GPUS = "/proc/driver/nvidia/gpus";
    static final String IMEX_DEV = "/dev/nvidia-caps-imex-channels";
    /** Where package managers and administrators put systemd units, searched in systemd's order. */
    static final List<String> UNIT_DIRS = List.of("/etc/systemd/system", "/run/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system");
    static final String FM_UNIT = "nvidia-fabricmanager.service";

    private RackFactsReader() {}

    public static RackFacts read(FsRoot fs, MachineFacts machine) {
        List<String> unknowns = new ArrayList<>();
        RackFacts.DriverParams params = fs.text(PARAMS).map(RackFactsReader::params).orElse(null);
        List<RackFacts.GpuNuma> numa = new ArrayList<>();
        for (String bdf : fs.list(GPUS)) numa.add(numaStatus(fs, bdf, unknowns));
        Map<String, String> power = new LinkedHashMap<>();
        for (PciDevice d : machine.pci()) {
            if (!d.isGpu() && !d.isNic()) continue;
            fs.text("/sys/bus/pci/devices/" + d.address() + "/power/control").ifPresent(v -> power.put(d.address(), v));
        }
        // the daemons' names, read once: null on a recording, which cannot say what runs, and in a
        // PID namespace of its own (a pod, a container), whose /proc holds none of the host's daemons
        String hidden = fs.isLive() ? hostHidden(fs) : "";
        java.util.Set<String> running = fs.isLive() && hidden.isEmpty() ? processNames(fs) : null;
        return new RackFacts(CpuInfo.read(fs).armParts(), params, numa, imex(fs, running), fabricManager(fs, machine, running), peermem(fs), power, fs.isLive(), unknowns,
                hidden);
    }

    /**
     * Why this process cannot see the host's daemons and systemd units, "" when it can: kernel
     * threads show only in the host's PID namespace, so a PID 2 other than kthreadd means a
     * namespace of its own, and with it, as a rule, a container's own /etc.
     */
    static String hostHidden(FsRoot fs) {
        String pid2 = fs.text("/proc/2/comm").map(String::strip).orElse("");
        if (pid2.equals("kthreadd")) return "";
        return "this process runs in a PID namespace of its own (PID 2 is " + (pid2.isEmpty() ? "absent" : pid2)
                + ", not kthreadd: a container or a pod without hostPID), so the host's daemons and systemd units are out of its sight";
    }

    /** "Key: value" lines; strings come quoted. */
    static RackFacts.DriverParams params(String text) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int c = line.indexOf(':');
            if (c <= 0) continue;
            String v = line.substring(c + 1).strip();
            if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) v = v.substring(1, v.length() - 1);
            kv.put(line.substring(0, c).strip(), v);
        }
        return new RackFacts.DriverParams(kv.get("CoherentGPUMemoryMode"), integer(kv.get("EnableUserNUMAManagement")),
                integer(kv.get("ImexChannelCount")), integer(kv.get("CreateImexChannel0")));
    }

    /** numa_status: "Node: 250", "Status: online", "Address: 40000000000", "Size: 3f0000000" (hex, no 0x). */
    static RackFacts.GpuNuma numaStatus(String bdf, Optional<String> text, List<String> unknowns) {
        if (text.isEmpty()) return new RackFacts.GpuNuma(bdf, null, null, null, false);
        Integer node = null;
        String status = null;
        Long size = null;
        for (String line : text.get().split("\n")) {
            int c = line.indexOf(':');
            if (c <= 0) continue;
            String k = line.substring(0, c).strip(), v = line.substring(c + 1).strip();
            try {
                switch (k) {
                    case "Node" -> node = Integer.parseInt(v);
                    case "Status" -> status = v;
                    case "Size" -> size = Long.parseUnsignedLong(v.startsWith("0x") ? v.substring(2) : v, 16);
                    default -> { }
                }
            } catch (NumberFormatException e) {
                unknowns.add("numa_status of " + bdf + ": \"" + v + "\" is not a number (" + k + ")");
            }
        }
        return new RackFacts.GpuNuma(bdf, node, status, size, true);
    }

    private static RackFacts.GpuNuma numaStatus(FsRoot fs, String bdf, List<String> unknowns) {
        return numaStatus(bdf, has(fs, GPUS + "/" + bdf, "numa_status") ? fs.text(GPUS + "/" + bdf + "/numa_status") : Optional.empty(), unknowns);
    }

    /**
     * Whether a folder holds a name, through its listing: a snapshot records listings (a file seen
     * but not read stays an empty placeholder), so a recording answers the same, and nothing of the
     * file's content is read.
     */
    static boolean has(FsRoot fs, String dir, String name) {
        return fs.list(dir).contains(name);
    }

    static RackFacts.Imex imex(FsRoot fs, java.util.Set<String> running) {
        Integer major = null;
        boolean inChar = false;
        for (String line : fs.text("/proc/devices").orElse("").split("\n")) {
            String l = line.strip();
            if (l.startsWith("Character devices")) inChar = true;
            else if (l.startsWith("Block devices")) inChar = false;
            else if (inChar && l.endsWith(" nvidia-caps-imex-channels")) major = integer(l.substring(0, l.indexOf(' ')));
        }
        // a recording holds /dev only when its maker put it there: without the folder, say nothing
        List<String> channels = fs.isLive() || fs.isDirectory("/dev") ? fs.list(IMEX_DEV) : null;
        Boolean daemon = running == null ? null : running.contains("nvidia-imex");
        return new RackFacts.Imex(major, channels, has(fs, "/etc/nvidia-imex", "config.cfg"), has(fs, "/etc/nvidia-imex", "nodes_config.cfg"), daemon);
    }

    /**
     * The fabric manager's facts alone, as {@link #read} reads them: the NVSwitches on the bus, its
     * unit, and whether its daemon runs (null where that cannot be seen: a recording, a PID namespace).
     */
    public static RackFacts.FabricManager fabricManager(FsRoot fs, MachineFacts machine) {
        String hidden = fs.isLive() ? hostHidden(fs) : "";
        return fabricManager(fs, machine, fs.isLive() && hidden.isEmpty() ? processNames(fs) : null);
    }

    static RackFacts.FabricManager fabricManager(FsRoot fs, MachineFacts machine, java.util.Set<String> running) {
        List<String> switches = machine.pci().stream()
                .filter(d -> "0x10de".equalsIgnoreCase(d.vendorId()) && d.classCode() != null && d.classCode().toLowerCase(java.util.Locale.ROOT).startsWith("0x0680"))
                .map(PciDevice::address).toList();
        String unit = "";
        for (String dir : UNIT_DIRS) {
            if (has(fs, dir, FM_UNIT)) {
                unit = dir + "/" + FM_UNIT;
                break;
            }
        }
        boolean enabled = false;
        for (String wants : fs.list("/etc/systemd/system")) {
            if (wants.endsWith(".wants") && has(fs, "/etc/systemd/system/" + wants, FM_UNIT)) enabled = true;
        }
        Boolean daemon = running == null ? null : running.contains("nv-fabricmanager");
        return new RackFacts.FabricManager(switches, unit, enabled, daemon);
    }

    static String peermem(FsRoot fs) {
        for (String m : List.of("nvidia_peermem", "nv_peer_mem")) if (fs.isDirectory("/sys/module/" + m)) return m;
        return null;
    }

    /** The names (comm, as ps shows them) of the processes that run; nothing else of them is read. */
    private static java.util.Set<String> processNames(FsRoot fs) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String pid : fs.list("/proc")) {
            if (!pid.isEmpty() && Character.isDigit(pid.charAt(0))) fs.text("/proc/" + pid + "/comm").ifPresent(names::add);
        }
        return names;
    }

    private static Integer integer(String s) {
        if (s == null) return null;
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
