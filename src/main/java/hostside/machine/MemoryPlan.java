package hostside.machine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Bounds;
import hostside.core.CpuSet;
import hostside.machine.Topology.Cache;
import hostside.machine.Topology.CoreKind;
import hostside.machine.Topology.NumaNode;

/**
 * Where Module 1's memory bandwidth and latency runs take place, decided from the machine's typed
 * topology alone (nothing is measured or read here), so that a recorded machine gets the same plan
 * as the live one and every choice can be tested.
 *
 * <ul>
 * <li>{@code cpus}: the machine-wide figures (STREAM with one thread per CPU) run on the CPUs of the
 * NUMA nodes the process may use. Those are the CPUs whose local memory is reachable: a CPU inside
 * the cpuset whose node is outside it would only read remote memory and blur the machine figure
 * (a note names such CPUs). Without NUMA nodes holding CPUs, the cpuset's online CPUs.</li>
 * <li>{@code oneThreadCpu}: a one-thread figure shows what one core can pull, so it runs on a big core
 * of a hybrid CPU (see {@link #bigKind}); never on CPU 0 when another CPU is there, since CPU 0 takes
 * the housekeeping interrupts and timers on many machines; and on the lowest-numbered NUMA node
 * holding such CPUs, so that first-touch memory is that node's and the figure is a local one.</li>
 * <li>{@code nodes}: the per-node bandwidth, for each node with both CPUs and memory; empty on a
 * machine with fewer than two such nodes, where it would repeat the machine-wide figure.</li>
 * <li>{@code pairs}: the CPU-node by memory-node matrix (threads on one node's CPUs, memory bound to
 * a node), as Intel MLC's and hwloc's matrices read: rows are the nodes with CPUs, columns every node
 * with memory, CPU-less ones included (a Grace GPU's memory, CXL, DAX) since a GPU machine's host
 * side is exactly about reaching them. A node the kernel lists with 0 bytes (Grace's spare GPU nodes)
 * has nothing to bind to and is left out, with one grouped note.</li>
 * <li>{@code kinds}: on a hybrid CPU, one CPU per core kind, for the one-thread figure of each kind:
 * an E-core pulls much less than a P-core, and a thread the scheduler puts there reads slower.</li>
 * <li>{@code llcBytes}: STREAM's "available cache", the total of the last-level cache instances that
 * serve {@code cpus}: arrays must be several times larger so that they come from memory.</li>
 * <li>{@code notes}: what was left out and why, one short line each, for the user.</li>
 * </ul>
 *
 * @param cpus         the CPUs of the machine-wide figures
 * @param oneThreadCpu the CPU of the one-thread figures
 * @param nodes        the per-node runs, in node id order; empty with fewer than two nodes
 * @param pairs        the matrix cells, CPU node outer and memory node inner, each in id order
 * @param kinds        one CPU per core kind, in the topology's order; empty on a uniform CPU
 * @param llcBytes     the last-level cache serving {@code cpus}, summed over its instances; 0 when unknown
 * @param notes        what was left out, for people
 */
public record MemoryPlan(CpuSet cpus, int oneThreadCpu, List<Node> nodes, List<Pair> pairs, List<Kind> kinds, long llcBytes,
                         List<String> notes) {

    /** A NUMA node with CPUs and memory: the per-node bandwidth runs its threads on {@code cpus}, its memory on the node. */
    public record Node(int id, CpuSet cpus) {}

    /**
     * One cell of the matrix: threads on {@code cpuNode}'s CPUs ({@code cpus}), memory bound to {@code memoryNode}.
     * {@code memoryRole} says what the memory node is: "CPUs and memory", "memory only", or "GPU memory of <pci address>".
     */
    public record Pair(int cpuNode, int memoryNode, CpuSet cpus, String memoryRole) {}

    /** One core kind of a hybrid CPU and the CPU that stands for it, with that CPU's NUMA node. */
    public record Kind(String name, int cpu, int node) {}

    public static final String CPUS_AND_MEMORY = "CPUs and memory";
    public static final String MEMORY_ONLY = "memory only";
    public static final String GPU_MEMORY = "GPU memory";

    public MemoryPlan {
        nodes = List.copyOf(nodes);
        pairs = List.copyOf(pairs);
        kinds = List.copyOf(kinds);
        notes = List.copyOf(notes);
    }

    /**
     * The CPUs whose first touch puts a page where {@code cpu}'s own would: those of its NUMA node
     * among {@link #cpus()} when the node has memory (the matrix pairs it with itself); the CPU
     * alone otherwise (a node without memory sends its pages to a neighbour the kernel picks).
     */
    public CpuSet nodeMates(int cpu) {
        for (Pair p : pairs) {
            if (p.cpuNode() == p.memoryNode() && p.cpus().contains(cpu)) return p.cpus().and(cpus).or(CpuSet.of(cpu));
        }
        return CpuSet.of(cpu);
    }

    public static MemoryPlan of(Topology t) {
        List<NumaNode> byId = byId(t.numaNodes());
        List<String> notes = new ArrayList<>();
        CpuSet cpus = measuredCpus(t);
        CpuSet outside = countedCpus(t).andNot(cpus);
        if (!outside.isEmpty() && !nodeCpus(byId).isEmpty()) {
            notes.add(cpuWord(outside) + " " + outside + ": in no allowed NUMA node (left out)");
        }
        if (!byId.isEmpty() && nodeCpus(byId).isEmpty()) notes.add("no allowed NUMA node holds a CPU: no node matrix");
        notes.addAll(noMemoryNotes(byId));
        List<Kind> kinds = kinds(t.coreKinds(), cpus, byId, notes);
        CpuSet big = bigKind(t.coreKinds()).map(k -> k.cpus().and(cpus)).filter(s -> !s.isEmpty()).orElse(cpus);
        return new MemoryPlan(cpus, pickCpu(big, byId), perNode(byId), pairs(byId, cpus), kinds, availableCache(t.caches(), cpus), notes);
    }

    /**
     * The CPUs of the machine-wide figures: those of the NUMA nodes (the reader keeps only online CPUs
     * inside the cpuset, and only the cpuset's nodes). Without nodes holding CPUs, every online CPU the
     * cpuset allows (every online CPU when the cpuset is unrestricted).
     */
    static CpuSet measuredCpus(Topology t) {
        CpuSet fromNodes = nodeCpus(t.numaNodes());
        if (!fromNodes.isEmpty()) return fromNodes;
        Topology.Whole w = t.whole();
        if (w == null) return CpuSet.EMPTY;
        return w.allowedCpus().isEmpty() ? w.onlineCpus() : w.onlineCpus().and(w.allowedCpus());
    }

    /** The CPUs the topology counts (online, in the cpuset): the core kinds are made of exactly those. */
    static CpuSet countedCpus(Topology t) {
        CpuSet all = CpuSet.EMPTY;
        for (CoreKind k : t.coreKinds()) all = all.or(k.cpus());
        return all;
    }

    private static CpuSet nodeCpus(List<NumaNode> nodes) {
        CpuSet all = CpuSet.EMPTY;
        for (NumaNode n : nodes) all = all.or(n.cpus());
        return all;
    }

    /**
     * The kind a user calls "big", or empty on a uniform CPU. CoreKinds puts it first where it knows:
     * "P-core" from Intel's hybrid PMUs, "big" from cpu_capacity or base frequency (the highest value,
     * then "medium", "small"). Arm MIDR part names come sorted by name, not speed, so there the family
     * decides: Cortex-X and Neoverse-V, then Cortex-A7xx/A7x and Neoverse-N, then the rest (Cortex-A5xx,
     * A5x, A3x: the little cores); an unknown part name ranks last, and a tie goes to the earlier kind.
     */
    static Optional<CoreKind> bigKind(List<CoreKind> kinds) {
        if (kinds.size() < 2) return Optional.empty();
        for (CoreKind k : kinds) if (k.name().equals("P-core") || k.name().equals("big")) return Optional.of(k);
        CoreKind best = kinds.getFirst();
        for (CoreKind k : kinds) if (armRank(k.name()) > armRank(best.name())) best = k;
        return Optional.of(best);
    }

    /** How big an Arm core family is, from its part name: 3 largest, 0 unknown. */
    static int armRank(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("cortex-x") || n.startsWith("neoverse-v")) return 3;
        if (n.startsWith("cortex-a7") && n.length() > "cortex-a7".length() || n.startsWith("neoverse-n")) return 2;
        if (n.startsWith("cortex-a") || n.startsWith("neoverse-e")) return 1;
        return 0;
    }

    /**
     * The CPU that stands for a set: only the lowest-id NUMA node holding some of the set counts (a
     * local figure, the same node each run), and within it the lowest CPU other than CPU 0 when there
     * is another (CPU 0 takes housekeeping interrupts on many machines). 0 for an empty set.
     */
    static int pickCpu(CpuSet among, List<NumaNode> nodes) {
        CpuSet within = among;
        for (NumaNode n : byId(nodes)) {
            if (n.cpus().intersects(among)) {
                within = among.and(n.cpus());
                break;
            }
        }
        return notCpu0(within);
    }

    /** The lowest CPU of {@code s} other than CPU 0 when it holds another; 0 when empty. */
    static int notCpu0(CpuSet s) {
        if (s.isEmpty()) return 0;
        CpuSet others = s.andNot(CpuSet.of(0));
        return others.isEmpty() ? s.first() : others.first();
    }

    /** Memory to bind to: unknown (null) counts, since the kernel listed the node; 0 bytes does not. */
    static boolean hasMemory(NumaNode n) {
        return n.memTotalBytes() == null || n.memTotalBytes() > 0;
    }

    /** The per-node runs: nodes with CPUs and memory, or none when fewer than two (the machine figure already says it). */
    static List<Node> perNode(List<NumaNode> nodes) {
        List<Node> out = byId(nodes).stream().filter(n -> !n.cpus().isEmpty() && hasMemory(n)).map(n -> new Node(n.id(), n.cpus())).toList();
        return out.size() < 2 ? List.of() : out;
    }

    /**
     * The matrix: rows are nodes with CPUs, columns nodes with memory (CPU-less ones too). A machine
     * without NUMA nodes gets one cell, (0, 0) on {@code cpus}, as the kernel calls it node 0.
     */
    static List<Pair> pairs(List<NumaNode> nodes, CpuSet cpus) {
        if (nodes.isEmpty()) return List.of(new Pair(0, 0, cpus, CPUS_AND_MEMORY));
        List<NumaNode> sorted = byId(nodes);
        List<Pair> out = new ArrayList<>();
        for (NumaNode c : sorted) {
            if (c.cpus().isEmpty()) continue;
            for (NumaNode m : sorted) if (hasMemory(m)) out.add(new Pair(c.id(), m.id(), c.cpus(), memoryRole(m)));
        }
        return out;
    }

    /** "GPU memory of <pci address>", "CPUs and memory" or "memory only". */
    static String memoryRole(NumaNode n) {
        if (n.gpuMemory()) return n.gpu() == null || n.gpu().isEmpty() ? GPU_MEMORY : GPU_MEMORY + " of " + n.gpu();
        return n.cpus().isEmpty() ? MEMORY_ONLY : CPUS_AND_MEMORY;
    }

    /**
     * One line per group of nodes with 0 bytes of memory: a Grace Hopper lists several spare GPU nodes,
     * and a line each would bury the rest. A node with CPUs but no memory keeps its row.
     */
    static List<String> noMemoryNotes(List<NumaNode> nodes) {
        CpuSet empty = CpuSet.EMPTY, cpusOnly = CpuSet.EMPTY;
        for (NumaNode n : nodes) {
            if (hasMemory(n)) continue;
            if (n.cpus().isEmpty()) empty = empty.with(n.id());
            else cpusOnly = cpusOnly.with(n.id());
        }
        List<String> notes = new ArrayList<>();
        if (!empty.isEmpty()) notes.add(nodeWord(empty) + " " + empty + ": no memory (left out)");
        if (!cpusOnly.isEmpty()) notes.add(nodeWord(cpusOnly) + " " + cpusOnly + ": CPUs but no memory (rows only)");
        return notes;
    }

    /**
     * One CPU per core kind, on a hybrid CPU only, picked as {@link #pickCpu} picks (so the big kind's
     * CPU is {@code oneThreadCpu}), among the kind's CPUs in {@code cpus}; a kind with none there is
     * left out with a note. Its node: the NUMA node holding the CPU, 0 when none does (no NUMA nodes).
     */
    static List<Kind> kinds(List<CoreKind> kinds, CpuSet cpus, List<NumaNode> nodes, List<String> notes) {
        if (kinds.size() < 2) return List.of();
        List<Kind> out = new ArrayList<>();
        for (CoreKind k : kinds) {
            CpuSet mine = k.cpus().and(cpus);
            if (mine.isEmpty()) {
                notes.add(k.name() + ": no CPU among the measured ones (left out)");
                continue;
            }
            int cpu = pickCpu(mine, nodes);
            int node = nodes.stream().filter(n -> n.cpus().contains(cpu)).mapToInt(NumaNode::id).findFirst().orElse(0);
            out.add(new Kind(k.name(), cpu, node));
        }
        return out;
    }

    /**
     * STREAM's "available cache": every instance of the highest cache level serving {@code cpus},
     * unified ones (data ones when that level has no unified cache), summed. Instances with an unknown
     * size add nothing; 0 when no size is known. The level is taken among the caches that serve
     * {@code cpus}, since a cpuset can leave a package's L3 without a CPU.
     */
    static long availableCache(List<Cache> caches, CpuSet cpus) {
        List<Cache> serving = caches.stream().filter(c -> c.cpus().intersects(cpus))
                .filter(c -> c.type().equalsIgnoreCase("unified") || c.type().equalsIgnoreCase("data")).toList();
        int level = serving.stream().mapToInt(Cache::level).max().orElse(0);
        List<Cache> top = serving.stream().filter(c -> c.level() == level).toList();
        String type = top.stream().anyMatch(c -> c.type().equalsIgnoreCase("unified")) ? "unified" : "data";
        // each size is at most Bounds.MEMORY_BYTES (TopologyReader), but a report's can be anything: a total past 2^63 is unknown
        return Bounds.sum(top.stream().filter(c -> c.type().equalsIgnoreCase(type) && c.sizeBytes() != null && c.sizeBytes() > 0)
                .mapToLong(Cache::sizeBytes).toArray()).orElse(0);
    }

    private static List<NumaNode> byId(List<NumaNode> nodes) {
        return nodes.stream().sorted(Comparator.comparingInt(NumaNode::id)).toList();
    }

    private static String nodeWord(CpuSet ids) {
        return ids.size() == 1 ? "node" : "nodes";
    }

    private static String cpuWord(CpuSet ids) {
        return ids.size() == 1 ? "CPU" : "CPUs";
    }
}
