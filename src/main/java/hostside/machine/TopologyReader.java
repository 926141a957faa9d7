package hostside.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

import hostside.core.Bounds;
import hostside.core.CpuSet;
import hostside.core.Units;
import hostside.fs.FsRoot;
import hostside.fs.MemInfo;
import hostside.process.Cpuset;

/**
 * Reads {@link Topology} from /sys/devices/system/{cpu,node} and /proc, with the rules of hwloc's
 * Linux back end (topology-linux.c) and core, so that its counts agree with lstopo's: the PUs are
 * the online CPUs with a topology folder, the packages, cores and caches are the objects
 * {@link CpuObjects} creates, the NUMA nodes come from node/online and each node's cpumap, and
 * under a cpuset only what holds an allowed CPU or an allowed node's memory counts.
 */
public final class TopologyReader {
    private static final String CPU = "/sys/devices/system/cpu";
    private static final String NODE = "/sys/devices/system/node";

    private final FsRoot fs;
    private final List<String> unknowns;
    private final CpuInfo cpuinfo;
    private final Facts facts;

    public TopologyReader(FsRoot fs, List<String> unknowns) {
        this.fs = fs;
        this.unknowns = unknowns;
        this.facts = new Facts(fs, unknowns);
        this.cpuinfo = CpuInfo.read(fs);
    }

    public Topology read() {
        CpuSet present = presentCpus();
        CpuSet online = onlineCpus(present);
        Cpuset cpuset = Cpuset.read(fs);
        CpuObjects reader = new CpuObjects(fs, facts, cpuinfo, unknowns);
        // hwloc makes PUs of the online CPUs that have a topology folder only; a machine where
        // none has one (hwloc then finds no topology at all) keeps its online CPUs.
        CpuSet withTopology = CpuObjects.withTopology(fs, online);
        CpuSet pus = withTopology.isEmpty() ? online : withTopology;
        if (!pus.equals(online)) {
            unknowns.add("CPUs " + online.andNot(pus) + " are online but have no topology folder: not counted, as hwloc does");
        }
        CpuSet counted = cpuset.cpus().map(pus::and).orElse(pus);

        List<CpuObjects.Obj> objects = reader.source(pus).map(src -> reader.read(pus, src)).orElseGet(() -> packagesById(pus));

        Map<Integer, String> gpuOfNode = gpuMemoryNodes();
        Map<Integer, CpuSet> nodeMaps = new LinkedHashMap<>();
        List<Topology.NumaNode> nodes = numaNodes(pus, counted, cpuset, gpuOfNode, nodeMaps);

        // Under a cpuset hwloc removes every object left without an allowed CPU, unless an
        // allowed NUMA node's memory hangs below it (CpuObjects.holders).
        java.util.Set<CpuObjects.Obj> holders = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Topology.NumaNode n : nodes) if (!n.gpuMemory()) holders.addAll(reader.holders(nodeMaps.get(n.id())));
        int packages = 0;
        List<CpuSet> coreList = new ArrayList<>();
        List<Topology.Cache> cacheList = new ArrayList<>();
        for (CpuObjects.Obj o : objects) {
            if (!o.cpus().intersects(counted) && !holders.contains(o)) continue;
            switch (o.kind()) {
                case PACKAGE -> packages++;
                case CORE -> coreList.add(o.cpus().and(counted));
                case CACHE -> {
                    Topology.Cache c = o.cache();
                    cacheList.add(new Topology.Cache(c.level(), c.type(), c.sizeBytes(), o.cpus().and(counted),
                            c.lineSizeBytes(), c.ways()));
                }
                default -> { }
            }
        }
        cacheList.sort((a, b) -> a.level() != b.level() ? Integer.compare(a.level(), b.level())
                : !a.type().equals(b.type()) ? a.type().compareTo(b.type())
                : a.cpus().compareTo(b.cpus()));
        TreeSet<CpuSet> cores = new TreeSet<>();
        for (CpuSet c : coreList) if (!c.isEmpty()) cores.add(c);

        Topology.Whole whole = new Topology.Whole(online, present.andNot(online), cpuset.cpus().orElse(CpuSet.EMPTY),
                cpuset.mems().orElse(CpuSet.EMPTY), cpuset.source(), machineMemory(), allNodeIds().stream().map(CpuSet::of).reduce(CpuSet.EMPTY, CpuSet::or));
        return new Topology(packages, coreList.size(), counted.size(), cpuinfo.model(), nodes, cacheList,
                new CoreKinds(fs, cpuinfo).read(counted, cores), whole);
    }

    // ---- CPUs ----

    private CpuSet presentCpus() {
        CpuSet dirs = CpuSet.EMPTY;
        for (String name : fs.list(CPU)) {
            if (name.matches("cpu\\d+")) dirs = dirs.with(Integer.parseInt(name.substring(3)));
        }
        if (!dirs.isEmpty()) return dirs;
        return facts.cpuList(CPU + "/present").orElse(CpuSet.EMPTY);
    }

    private CpuSet onlineCpus(CpuSet present) {
        Optional<CpuSet> online = facts.cpuList(CPU + "/online");
        if (online.isPresent()) return present.isEmpty() ? online.get() : online.get().and(present);
        // Old kernels: no "online" list; cpuN/online says 0 for an offline CPU (cpu0 has none).
        CpuSet on = CpuSet.EMPTY;
        for (int cpu : present.stream().toArray()) {
            if (facts.integer(CPU + "/cpu" + cpu + "/online").orElse(1) != 0) on = on.with(cpu);
        }
        return on;
    }

    /**
     * Without any sysfs topology file (where hwloc finds no topology and gives up), CPUs with the
     * same physical package id (from sysfs or /proc/cpuinfo) form a package; no cores are known.
     */
    private List<CpuObjects.Obj> packagesById(CpuSet pus) {
        Map<Integer, CpuSet> byId = new java.util.TreeMap<>();
        for (int cpu : pus.stream().toArray()) packageId(cpu).ifPresent(id -> byId.merge(id, CpuSet.of(cpu), CpuSet::or));
        List<CpuObjects.Obj> objs = new ArrayList<>();
        for (CpuSet p : byId.values()) objs.add(new CpuObjects.Obj(CpuObjects.Kind.PACKAGE, 4, p, null));
        return objs;
    }

    private Optional<Integer> packageId(int cpu) {
        Optional<Integer> id = facts.integer(CPU + "/cpu" + cpu + "/topology/physical_package_id").filter(i -> i >= 0);
        return id.isPresent() ? id : cpuinfo.physicalId(cpu);
    }

    /**
     * "32K", "1024K", "36864K", "2M" (K and M are binary units in sysfs). A size over
     * {@link Bounds#MEMORY_BYTES}, or one whose bytes pass 2^63, is no cache's: unknown,
     * not wrapped negative into the caches' total that sizes STREAM's arrays.
     */
    static Optional<Long> sizeBytes(String s) {
        s = CpuSet.sysfsValue(s);
        if (s.isEmpty()) return Optional.empty();
        long mult = switch (Character.toUpperCase(s.charAt(s.length() - 1))) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 1;
        };
        String digits = mult == 1 ? s : s.substring(0, s.length() - 1);
        try {
            long bytes = Math.multiplyExact(Long.parseLong(digits.strip()), mult);
            return bytes >= 0 && bytes <= Bounds.MEMORY_BYTES ? Optional.of(bytes) : Optional.empty();
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    private Long machineMemory() {
        return MemInfo.proc(fs, "MemTotal");
    }

    // ---- NUMA ----

    private List<Integer> nodeIds;

    /** Every NUMA node the kernel lists (node/online, else the nodeN folders), in id order (read once). */
    private List<Integer> allNodeIds() {
        if (nodeIds != null) return nodeIds;
        List<Integer> ids = new ArrayList<>();
        Optional<CpuSet> online = facts.cpuList(NODE + "/online");
        if (online.isPresent() && !online.get().isEmpty()) {
            online.get().stream().forEach(ids::add);
        } else {
            for (String name : fs.list(NODE)) if (name.matches("node\\d+")) ids.add(Integer.parseInt(name.substring(4)));
        }
        nodeIds = List.copyOf(ids);
        return nodeIds;
    }

    /** A node's CPUs, from its hex cpumap: hwloc reads no other file for them (the cpulist may disagree). */
    private Optional<CpuSet> nodeCpus(int id) {
        String d = NODE + "/node" + id + "/";
        return facts.cpuMask(d + "cpumap");
    }

    /**
     * The NUMA nodes, as hwloc takes them: a node whose cpumap cannot be read is no node, and a
     * node whose CPUs overlap those of a node taken before it (a buggy BIOS; or every node
     * claiming every CPU) is ignored with its memory, the first one staying; fake NUMA
     * ("numa=fake=NU") may overlap. Nodes outside the cpuset's mems do not count.
     *
     * @param maps filled with each listed node's CPUs as the kernel gives them, for {@link CpuObjects#holders}
     */
    private List<Topology.NumaNode> numaNodes(CpuSet pus, CpuSet counted, Cpuset cpuset, Map<Integer, String> gpuOfNode,
                                              Map<Integer, CpuSet> maps) {
        List<Topology.NumaNode> nodes = new ArrayList<>();
        boolean fakeUniform = fs.text("/proc/cmdline").orElse("").matches("(?s).*\\bnuma=fake=\\d+U.*");
        List<Integer> all = new ArrayList<>();
        CpuSet taken = CpuSet.EMPTY;
        for (int id : allNodeIds()) {
            Optional<CpuSet> cpus = nodeCpus(id);
            if (cpus.isEmpty()) {
                unknowns.add("NUMA node " + id + ": no readable " + NODE + "/node" + id + "/cpumap; ignored, as hwloc does");
                continue;
            }
            if (cpus.get().intersects(taken) && !fakeUniform) {
                unknowns.add("NUMA node " + id + ": its CPUs " + cpus.get() + " overlap those of an earlier node; ignored with its memory, as hwloc does");
                continue;
            }
            taken = taken.or(cpus.get());
            maps.put(id, cpus.get());
            all.add(id);
        }
        if (all.isEmpty()) {
            // A kernel without NUMA (or no node hwloc can take): one node holding everything, as hwloc shows it.
            Long mem = machineMemory();
            if (mem == null) unknowns.add("memory of node 0: /proc/meminfo has no MemTotal");
            maps.put(0, pus); // hwloc gives it every PU
            nodes.add(new Topology.NumaNode(0, counted, mem, false, null, List.of()));
            return nodes;
        }
        Map<Integer, List<Integer>> rows = new HashMap<>();
        int rowLength = allNodeIds().size();
        for (int id : all) rows.put(id, distanceRow(id, rowLength));
        List<Integer> kept = all.stream().filter(id -> cpuset.mems().map(m -> m.contains(id)).orElse(true)).toList();
        for (int id : kept) {
            String d = NODE + "/node" + id + "/";
            var mi = fs.read(d + "meminfo");
            Long mem = mi.trimmed().map(MemInfo::parse).map(m -> m.get("MemTotal"))
                    .filter(OptionalLong::isPresent).map(OptionalLong::getAsLong).orElse(null);
            if (mem == null) unknowns.add("memory of NUMA node " + id + ": " + (mi.ok() ? d + "meminfo has no MemTotal" : mi.why()));
            if (mem != null && mem > Bounds.MEMORY_BYTES) {
                // a recording's number, not a node's: the nodes' total would wrap past 2^63
                unknowns.add("memory of NUMA node " + id + ": " + d + "meminfo says " + Units.bytes(mem) + ", more than any machine addresses ("
                        + Units.bytes(Bounds.MEMORY_BYTES) + ")");
                mem = null;
            }
            List<Integer> row = rows.get(id);
            List<Integer> keptRow = new ArrayList<>();
            if (!row.isEmpty()) for (int other : kept) keptRow.add(row.get(allNodeIds().indexOf(other)));
            nodes.add(new Topology.NumaNode(id, maps.get(id).and(counted), mem,
                    gpuOfNode.containsKey(id), gpuOfNode.get(id), keptRow));
        }
        return nodes;
    }

    /** The node's distances to every node, or empty when missing or not one per node. */
    private List<Integer> distanceRow(int id, int count) {
        Optional<String> t = fs.text(NODE + "/node" + id + "/distance");
        if (t.isEmpty()) return List.of();
        List<Integer> row = new ArrayList<>();
        for (String f : CpuSet.sysfsValue(t.get()).split("\\s+")) {
            try {
                row.add(Integer.parseInt(f));
            } catch (NumberFormatException e) {
                unknowns.add("NUMA distances of node " + id + ": garbage in " + NODE + "/node" + id + "/distance");
                return List.of();
            }
        }
        return row.size() == count ? row : List.of();
    }

    /** Nodes that hold a GPU's memory, from the NVIDIA driver's numa_status (absent in CDMM mode). */
    private Map<Integer, String> gpuMemoryNodes() {
        Map<Integer, String> m = new HashMap<>();
        String dir = "/proc/driver/nvidia/gpus";
        for (String bdf : fs.list(dir)) {
            for (String line : fs.text(dir + "/" + bdf + "/numa_status").orElse("").split("\n")) {
                if (line.startsWith("Node:")) {
                    try {
                        int node = Integer.parseInt(line.substring(5).strip());
                        if (node >= 0) m.put(node, bdf.toLowerCase());
                    } catch (NumberFormatException e) {
                        unknowns.add("GPU memory node of " + bdf + ": garbage in numa_status");
                    }
                }
            }
        }
        return m;
    }
}
