package hostside.machine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;

/**
 * The CPU-side objects (packages, dies, clusters, cores, caches) that hwloc's Linux back end
 * creates from /sys/devices/system/cpu, with its rules, so that hostside counts what lstopo shows:
 * <ul>
 * <li>the sets come from the hex masks ({@code core_cpus} or {@code thread_siblings},
 *     {@code package_cpus} or {@code core_siblings}, {@code die_cpus}, {@code cluster_cpus},
 *     {@code shared_cpu_map}), never from the {@code *_list} files: where the two disagree, the
 *     mask wins; the new or old names are chosen once per machine, from the first CPU (a capture
 *     holding the lists only, where hwloc finds no topology at all, is read from its lists);</li>
 * <li>an object is created by the first PU of its set, and a PU that is not the first of its core
 *     (or cluster, or die) looks no further up: a mask that leaves out the CPU that would create
 *     the object means there is no such object;</li>
 * <li>an object whose set cuts across one created before it is dropped, as hwloc's insertion
 *     drops it ("intersection without inclusion"); one equal to an object of the same type is that
 *     object; a cluster equal to any object is that object;</li>
 * <li>on AMD family 15h/16h (compute units), when the threads of one {@code core_cpus} set have
 *     different {@code core_id}s (decided once, on the first set of more than one thread), each
 *     thread is its own core.</li>
 * </ul>
 * Under a cpuset, hwloc removes an object that has no allowed CPU unless it holds an allowed NUMA
 * node's memory: {@link #holders} says which objects hold a node.
 */
final class CpuObjects {
    private static final String CPU = "/sys/devices/system/cpu";

    enum Kind { PACKAGE, DIE, CLUSTER, CACHE, CORE }

    /**
     * One object. {@code rank} is hwloc's order of types, top first (package 4, die 5, L5..L1 6..13,
     * core 14, a cluster group 1), which decides nesting between objects with equal sets.
     */
    record Obj(Kind kind, int rank, CpuSet cpus, Topology.Cache cache) {}

    private final FsRoot fs;
    private final Facts facts;
    private final CpuInfo cpuinfo;
    private final List<String> unknowns;
    private final List<Obj> objects = new ArrayList<>();
    private boolean lists;
    /** 1: each thread of a compute unit is a core; 0: threads of a set share a core; -1: not decided yet. */
    private int threadWithCoreId;

    CpuObjects(FsRoot fs, Facts facts, CpuInfo cpuinfo, List<String> unknowns) {
        this.fs = fs;
        this.facts = facts;
        this.cpuinfo = cpuinfo;
        this.unknowns = unknowns;
    }

    /** The online CPUs that have a topology folder: hwloc makes PUs of these only. */
    static CpuSet withTopology(FsRoot fs, CpuSet online) {
        CpuSet with = CpuSet.EMPTY;
        for (int cpu : online.stream().toArray()) if (fs.exists(CPU + "/cpu" + cpu + "/topology")) with = with.with(cpu);
        return with;
    }

    /**
     * Which files the sets come from: the old names (thread_siblings, core_siblings) or the new
     * (core_cpus, package_cpus), chosen once from the first CPU as hwloc does; and whether the
     * masks or, where a capture holds the lists only (hwloc then finds no topology), the lists.
     */
    record Source(boolean oldNames, boolean lists) {}

    /** The files of the first CPU decide, as in hwloc; empty when there is no topology file at all. */
    Optional<Source> source(CpuSet pus) {
        for (boolean lists : new boolean[] {false, true}) {
            String l = lists ? "_list" : "";
            for (int cpu : new int[] {0, pus.isEmpty() ? 0 : pus.first()}) {
                String t = CPU + "/cpu" + cpu + "/topology/";
                if (fs.exists(t + "package_cpus" + l) || fs.exists(t + "core_cpus" + l)) return Optional.of(new Source(false, lists));
                if (fs.exists(t + "core_siblings" + l) || fs.exists(t + "thread_siblings" + l)) return Optional.of(new Source(true, lists));
            }
        }
        return Optional.empty();
    }

    /** Creates the objects of every PU in hwloc's order: per PU its core, package, cluster, die, then its caches. */
    List<Obj> read(CpuSet pus, Source source) {
        this.lists = source.lists();
        String coreFile = source.oldNames() ? "thread_siblings" : "core_cpus";
        String packageFile = source.oldNames() ? "core_siblings" : "package_cpus";
        threadWithCoreId = amdComputeUnits() ? -1 : 0;
        for (int cpu : pus.stream().toArray()) {
            String t = CPU + "/cpu" + cpu + "/topology/";
            boolean notFirstOfCore = false, notFirstOfCluster = false, notFirstOfDie = false;
            Optional<CpuSet> core = mask(t + coreFile, pus);
            if (core.isPresent()) {
                CpuSet c = core.get();
                if (c.size() > 1 && threadWithCoreId == -1) threadWithCoreId = coreIdsDiffer(cpu, c) ? 1 : 0;
                if (c.first() != cpu) notFirstOfCore = notFirstOfCluster = notFirstOfDie = true;
                if (!notFirstOfCore || threadWithCoreId == 1) {
                    insert(new Obj(Kind.CORE, 14, threadWithCoreId == 1 ? CpuSet.of(cpu) : c, null), "core of cpu" + cpu);
                }
            }
            CpuSet cluster = null, die = null;
            if (!notFirstOfCore) {
                cluster = mask(t + "cluster_cpus", pus).orElse(null);
                if (cluster != null && cluster.size() == 1) cluster = null;
                else if (cluster != null && cluster.first() != cpu) {
                    cluster = null;
                    notFirstOfCluster = notFirstOfDie = true;
                }
            }
            if (!notFirstOfCluster) {
                die = mask(t + "die_cpus", pus).orElse(null);
                if (die != null && die.size() == 1) die = null;
                else if (die != null && die.first() != cpu) {
                    die = null;
                    notFirstOfDie = true;
                }
                if (die != null && die.equals(cluster)) cluster = null;
            }
            if (!notFirstOfDie) {
                Optional<CpuSet> pkg = mask(t + packageFile, pus);
                if (pkg.isPresent()) {
                    if (pkg.get().equals(cluster)) cluster = null;
                    if (pkg.get().first() == cpu) insert(new Obj(Kind.PACKAGE, 4, pkg.get(), null), "package of cpu" + cpu);
                }
            }
            if (cluster != null) insert(new Obj(Kind.CLUSTER, 1, cluster, null), "cluster of cpu" + cpu);
            if (die != null) insert(new Obj(Kind.DIE, 5, die, null), "die of cpu" + cpu);
            caches(cpu, pus, t + coreFile);
        }
        return Collections.unmodifiableList(objects);
    }

    /** hwloc reads cache/index0 to index9, each from its shared_cpu_map; an empty map (old IA64 kernels) means the core's. */
    private void caches(int cpu, CpuSet pus, String coreMask) {
        for (int j = 0; j < 10; j++) {
            String c = CPU + "/cpu" + cpu + "/cache/index" + j + "/";
            Optional<CpuSet> raw = set(c + "shared_cpu_map");
            if (raw.isEmpty()) continue;
            CpuSet set = raw.get();
            if (set.isEmpty()) set = set(coreMask).orElse(set);
            set = set.and(pus);
            if (set.first() != cpu) continue;
            Optional<Integer> level = facts.integer(c + "level");
            if (level.isEmpty()) continue;
            String typeText = fs.text(c + "type").orElse("");
            String type = typeText.startsWith("Data") ? "data" : typeText.startsWith("Instruction") ? "instruction" : "unified";
            int rank = rank(level.get(), type);
            if (rank < 0) continue;
            // A missing or unreadable size leaves the cache in place, its size unknown (hwloc: 0).
            Long size = fs.text(c + "size").flatMap(TopologyReader::sizeBytes).orElse(null);
            Topology.Cache cache = new Topology.Cache(level.get(), type, size, set,
                    facts.integer(c + "coherency_line_size").orElse(null),
                    facts.integer(c + "ways_of_associativity").orElse(null));
            insert(new Obj(Kind.CACHE, rank, set, cache), "L" + level.get() + " cache of cpu" + cpu + " (index" + j + ")");
        }
    }

    /** hwloc's type order of a cache: data and unified caches of one level are one type; -1 for levels it has no type for. */
    private static int rank(int level, String type) {
        if (type.equals("instruction")) return level >= 1 && level <= 3 ? 15 - 2 * level : -1;
        return switch (level) {
            case 1 -> 12;
            case 2 -> 10;
            case 3 -> 8;
            case 4 -> 7;
            case 5 -> 6;
            default -> -1;
        };
    }

    /** Adds o unless it cuts across an object created before it, or is one already there. */
    private void insert(Obj o, String what) {
        for (ListIterator<Obj> it = objects.listIterator(); it.hasNext(); ) {
            Obj x = it.next();
            if (x.cpus().equals(o.cpus())) {
                if (o.kind() == Kind.CLUSTER) return;
                if (x.kind() == Kind.CLUSTER) {
                    it.set(o);
                    return;
                }
                if (x.rank() == o.rank()) return;
                continue;
            }
            if (x.cpus().intersects(o.cpus()) && !x.cpus().containsAll(o.cpus()) && !o.cpus().containsAll(x.cpus())) {
                unknowns.add(what + " (CPUs " + o.cpus() + ") cuts across " + describe(x) + " (CPUs " + x.cpus()
                        + "): ignored, as hwloc ignores it");
                return;
            }
        }
        objects.add(o);
    }

    private static String describe(Obj x) {
        return x.kind() == Kind.CACHE ? "an L" + x.cache().level() + " cache" : "a " + x.kind().name().toLowerCase();
    }

    /**
     * The objects that keep a NUMA node with these CPUs (its raw cpumap) in hwloc's tree: the node
     * hangs below the highest object whose set equals its CPUs (never a PU), or below a group of its
     * own; it keeps that object and every object that contains its CPUs.
     */
    Set<Obj> holders(CpuSet node) {
        Set<Obj> held = Collections.newSetFromMap(new IdentityHashMap<>());
        if (node.isEmpty()) return held;
        Obj highestEqual = null;
        for (Obj x : objects) {
            if (x.cpus().equals(node)) {
                if (highestEqual == null || x.rank() < highestEqual.rank()) highestEqual = x;
            } else if (x.cpus().containsAll(node)) {
                held.add(x);
            }
        }
        if (highestEqual != null) held.add(highestEqual);
        return held;
    }

    private Optional<CpuSet> mask(String path, CpuSet pus) {
        return set(path).map(s -> s.and(pus));
    }

    /** The mask at path (".../core_cpus", ".../shared_cpu_map"), or its list where the capture holds the lists only. */
    private Optional<CpuSet> set(String maskPath) {
        if (!lists) return facts.cpuMask(maskPath);
        return facts.cpuList(maskPath.endsWith("_map") ? maskPath.substring(0, maskPath.length() - 4) + "_list" : maskPath + "_list");
    }

    /** hwloc's test: the first processor of /proc/cpuinfo is an AMD of family 21 or 22 (Bulldozer to Jaguar). */
    private boolean amdComputeUnits() {
        Map<String, String> first = cpuinfo.processors().values().stream().findFirst().orElse(Map.of());
        return "AuthenticAMD".equals(first.get("vendor_id"))
                && ("21".equals(first.get("cpu family")) || "22".equals(first.get("cpu family")));
    }

    /** Whether cpu and the first other thread of its set have different core_id (an unreadable id counts as -1). */
    private boolean coreIdsDiffer(int cpu, CpuSet set) {
        int sibling = set.first() != cpu ? set.first() : set.stream().filter(c -> c > cpu).findFirst().orElse(cpu);
        return coreId(cpu) != coreId(sibling);
    }

    private int coreId(int cpu) {
        return facts.integer(CPU + "/cpu" + cpu + "/topology/core_id").orElse(-1);
    }
}
