package hostside.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

import hostside.fs.CpuSet;
import hostside.fs.FsRoot;
import hostside.fs.MemInfo;

/** Reads {@link Topology} from /sys/devices/system/{cpu,node} and /proc, hwloc's way. */
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
        CpuSet counted = cpuset.cpus().map(online::and).orElse(online);

        TreeSet<CpuSet> packagesOnline = new TreeSet<>();
        TreeSet<CpuSet> cores = new TreeSet<>();
        Map<String, Topology.Cache> caches = new LinkedHashMap<>();
        Map<Integer, CpuSet> packageOf = packages(online);
        packagesOnline.addAll(packageOf.values());
        for (int cpu : online.stream().toArray()) {
            Optional<CpuSet> core = coreOf(cpu, online);
            if (counted.contains(cpu)) core.map(c -> c.and(counted)).ifPresent(cores::add);
            readCaches(cpu, online, core.orElse(CpuSet.of(cpu)), packageOf.getOrDefault(cpu, online), caches);
        }

        Map<Integer, String> gpuOfNode = gpuMemoryNodes();
        List<Topology.NumaNode> nodes = numaNodes(online, counted, cpuset, gpuOfNode);

        // A package or cache counts when it holds a counted CPU, or (as hwloc keeps it) when one
        // of its NUMA nodes is allowed although all its CPUs are outside the cpuset.
        List<CpuSet> allowedNodeCpus = nodes.stream().filter(n -> !n.gpuMemory())
                .map(n -> nodeCpus(n.id()).and(online)).filter(c -> !c.isEmpty()).toList();
        java.util.function.Predicate<CpuSet> counts = set -> set.intersects(counted)
                || allowedNodeCpus.stream().anyMatch(set::containsAll);
        TreeSet<CpuSet> packages = new TreeSet<>();
        for (CpuSet p : packagesOnline) if (counts.test(p)) packages.add(p);

        List<Topology.Cache> cacheList = new ArrayList<>();
        for (Topology.Cache c : caches.values()) {
            CpuSet cpus = CpuSet.parseList(c.cpus());
            if (counts.test(cpus)) {
                cacheList.add(new Topology.Cache(c.level(), c.type(), c.sizeBytes(), cpus.and(counted).toList(),
                        c.lineSizeBytes(), c.ways()));
            }
        }
        cacheList.sort((a, b) -> a.level() != b.level() ? Integer.compare(a.level(), b.level())
                : !a.type().equals(b.type()) ? a.type().compareTo(b.type())
                : CpuSet.parseList(a.cpus()).compareTo(CpuSet.parseList(b.cpus())));

        Topology.Whole whole = new Topology.Whole(online.toList(), present.andNot(online).toList(),
                cpuset.cpus().map(CpuSet::toList).orElse(""), cpuset.mems().map(CpuSet::toList).orElse(""),
                cpuset.source(), machineMemory(), allNodeIds().stream().map(CpuSet::of).reduce(CpuSet.EMPTY, CpuSet::or).toList());
        return new Topology(packages.size(), cores.size(), counted.size(), cpuinfo.model(), nodes, cacheList,
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
            if (!fs.text(CPU + "/cpu" + cpu + "/online").orElse("1").equals("0")) on = on.with(cpu);
        }
        return on;
    }

    /**
     * Each online CPU's package, as the set of online CPUs in it. The kernel's CPU set for the
     * package decides, not its id: some machines (IA64) reuse a package id on several sockets.
     * Without a set, CPUs with the same id (from sysfs or /proc/cpuinfo) form the package; with
     * neither, a CPU has none (hwloc then shows no package either).
     */
    private Map<Integer, CpuSet> packages(CpuSet online) {
        Map<Integer, CpuSet> of = new HashMap<>();
        Map<Integer, CpuSet> byId = new HashMap<>();
        Map<Integer, Integer> idOf = new HashMap<>();
        for (int cpu : online.stream().toArray()) {
            String t = CPU + "/cpu" + cpu + "/topology/";
            Optional<CpuSet> s = facts.cpuList(t + "package_cpus_list")
                    .or(() -> facts.cpuMask(t + "package_cpus"))
                    .or(() -> facts.cpuList(t + "core_siblings_list"))
                    .or(() -> facts.cpuMask(t + "core_siblings"));
            if (s.isPresent()) {
                CpuSet p = s.get().and(online);
                of.put(cpu, p.contains(cpu) ? p : p.with(cpu));
            } else {
                packageId(cpu).ifPresent(id -> {
                    idOf.put(cpu, id);
                    byId.merge(id, CpuSet.of(cpu), CpuSet::or);
                });
            }
        }
        idOf.forEach((cpu, id) -> of.put(cpu, byId.get(id)));
        return of;
    }

    private Optional<Integer> packageId(int cpu) {
        Optional<Integer> id = facts.integer(CPU + "/cpu" + cpu + "/topology/physical_package_id").filter(i -> i >= 0);
        return id.isPresent() ? id : cpuinfo.physicalId(cpu);
    }

    /** The counted CPUs sharing cpu's core; empty when the kernel does not say (hwloc then shows no core). */
    private Optional<CpuSet> coreOf(int cpu, CpuSet counted) {
        String t = CPU + "/cpu" + cpu + "/topology/";
        Optional<CpuSet> s = facts.cpuList(t + "core_cpus_list")
                .or(() -> facts.cpuMask(t + "core_cpus"))
                .or(() -> facts.cpuList(t + "thread_siblings_list"))
                .or(() -> facts.cpuMask(t + "thread_siblings"));
        return s.map(x -> x.and(counted)).map(core -> core.contains(cpu) ? core : core.with(cpu));
    }

    /** Adds cpu's caches, keyed by level, type and the online CPUs sharing each. */
    private void readCaches(int cpu, CpuSet online, CpuSet core, CpuSet pkg, Map<String, Topology.Cache> caches) {
        String dir = CPU + "/cpu" + cpu + "/cache";
        for (String index : fs.list(dir)) {
            if (!index.startsWith("index")) continue;
            String c = dir + "/" + index + "/";
            Optional<Integer> level = facts.integer(c + "level");
            Optional<Long> size = fs.text(c + "size").flatMap(TopologyReader::sizeBytes);
            if (level.isEmpty() || size.isEmpty() || size.get() == 0) continue;
            String type = switch (fs.text(c + "type").orElse("Unified").toLowerCase()) {
                case "data" -> "data";
                case "instruction" -> "instruction";
                default -> "unified";
            };
            // The map before the list, as hwloc reads it; an empty map (old IA64 kernels) means per core.
            // The map first, as hwloc reads it. A set that leaves out its own CPU, or cuts across
            // its package, is garbage: the list may still be right. An empty map (old IA64
            // kernels) means the cache is the core's.
            java.util.function.Predicate<CpuSet> sane = x -> x.contains(cpu) && laminar(x.and(online), pkg);
            Optional<CpuSet> map = facts.cpuMask(c + "shared_cpu_map");
            CpuSet shared = map.filter(sane)
                    .or(() -> facts.cpuList(c + "shared_cpu_list").filter(sane))
                    .orElse(core).and(online);
            if (map.isPresent() && !map.get().isEmpty() && !sane.test(map.get())) {
                unknowns.add(c + "shared_cpu_map: \"" + map.get() + "\" contradicts the topology; used " + shared);
            }
            String key = level.get() + type + shared.toList();
            if (!caches.containsKey(key)) {
                caches.put(key, new Topology.Cache(level.get(), type, size.get(), shared.toList(),
                        facts.integer(c + "coherency_line_size").orElse(null),
                        facts.integer(c + "ways_of_associativity").orElse(null)));
            }
        }
    }

    /** Nested or apart, as caches and packages must be; never cutting across each other. */
    private static boolean laminar(CpuSet a, CpuSet b) {
        return a.containsAll(b) || b.containsAll(a) || !a.intersects(b);
    }

    /** "32K", "1024K", "36864K", "2M" (K and M are binary units in sysfs). */
    static Optional<Long> sizeBytes(String s) {
        s = s.strip();
        if (s.isEmpty()) return Optional.empty();
        long mult = switch (Character.toUpperCase(s.charAt(s.length() - 1))) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 1;
        };
        String digits = mult == 1 ? s : s.substring(0, s.length() - 1);
        try {
            return Optional.of(Long.parseLong(digits.strip()) * mult);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private Long machineMemory() {
        return fs.text("/proc/meminfo").map(MemInfo::parse).map(m -> m.get("MemTotal"))
                .filter(OptionalLong::isPresent).map(OptionalLong::getAsLong).orElse(null);
    }

    // ---- NUMA ----

    private List<Integer> nodeIds;

    /** Every NUMA node the kernel lists, in id order (read once). */
    private List<Integer> allNodeIds() {
        if (nodeIds != null) return nodeIds;
        List<Integer> ids = new ArrayList<>();
        for (String name : fs.list(NODE)) if (name.matches("node\\d+")) ids.add(Integer.parseInt(name.substring(4)));
        nodeIds = List.copyOf(ids);
        return nodeIds;
    }

    private CpuSet nodeCpus(int id) {
        String d = NODE + "/node" + id + "/";
        return facts.cpuList(d + "cpulist").or(() -> facts.cpuMask(d + "cpumap")).orElse(CpuSet.EMPTY);
    }

    private List<Topology.NumaNode> numaNodes(CpuSet online, CpuSet counted, Cpuset cpuset, Map<Integer, String> gpuOfNode) {
        List<Integer> all = new ArrayList<>(allNodeIds());
        List<Topology.NumaNode> nodes = new ArrayList<>();
        if (all.isEmpty()) {
            // A kernel without NUMA: one node holding everything, as hwloc shows it.
            Long mem = machineMemory();
            if (mem == null) unknowns.add("memory of node 0: /proc/meminfo has no MemTotal");
            nodes.add(new Topology.NumaNode(0, counted.toList(), mem, false, null, List.of()));
            return nodes;
        }
        Map<Integer, List<Integer>> rows = new HashMap<>();
        int rowLength = allNodeIds().size();
        for (int id : all) rows.put(id, distanceRow(id, rowLength));
        if (all.size() > 1 && all.stream().map(this::nodeCpus).distinct().count() == 1
                && nodeCpus(all.getFirst()).containsAll(online)) {
            // Some kernels report every node holding every CPU: no NUMA information at all.
            // hwloc keeps the first node only, and so do we, saying why.
            unknowns.add("NUMA: the kernel lists " + all.size() + " nodes each holding all CPUs; treated as one node, as hwloc does");
            all = List.of(all.getFirst());
        }
        List<Integer> kept = all.stream().filter(id -> cpuset.mems().map(m -> m.contains(id)).orElse(true)).toList();
        for (int id : kept) {
            String d = NODE + "/node" + id + "/";
            var mi = fs.read(d + "meminfo");
            Long mem = mi.trimmed().map(MemInfo::parse).map(m -> m.get("MemTotal"))
                    .filter(OptionalLong::isPresent).map(OptionalLong::getAsLong).orElse(null);
            if (mem == null) unknowns.add("memory of NUMA node " + id + ": " + (mi.ok() ? d + "meminfo has no MemTotal" : mi.why()));
            List<Integer> row = rows.get(id);
            List<Integer> keptRow = new ArrayList<>();
            if (!row.isEmpty()) for (int other : kept) keptRow.add(row.get(allNodeIds().indexOf(other)));
            nodes.add(new Topology.NumaNode(id, nodeCpus(id).and(counted).toList(), mem,
                    gpuOfNode.containsKey(id), gpuOfNode.get(id), keptRow));
        }
        return nodes;
    }

    /** The node's distances to every node, or empty when missing or not one per node. */
    private List<Integer> distanceRow(int id, int count) {
        Optional<String> t = fs.text(NODE + "/node" + id + "/distance");
        if (t.isEmpty()) return List.of();
        List<Integer> row = new ArrayList<>();
        for (String f : t.get().split("\\s+")) {
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
