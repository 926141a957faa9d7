package hostside.machine;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 1's rules on what the host memory measurements mean for feeding GPUs: a far node's memory,
 * a thread on a small core, one thread's ceiling, host memory against the GPUs' copies, and the
 * measurements that did not measure what they say. The conditions are {@link MemoryVerdicts}'; a
 * figure measured while the machine was busy gives each measured rule an unknown finding, never a
 * fix. Where the pages were is read, not timed: those two rules do not weigh the load.
 */
public final class MemoryRules {
    private MemoryRules() {}

    /** A far node read at under this share of the CPUs' own node's bandwidth costs enough to bind every job. */
    static final double FAR_SHARE = 0.75;
    /** One thread on a smaller core moving under this share of what it moves on the big one is worth keeping feeders off it. */
    static final double SMALL_SHARE = 0.8;
    /**
     * The GPUs' pinned copies together above this share of STREAM's Triad ask more of host memory
     * than it delivered: a warning. Half was the threshold once, and one H100 VM's healthy single
     * GPU (55 GB/s against about 100) warned on it: a share the copies take is information, more
     * than all there is is a limit.
     */
    static final double COPIES_SHARE = 1.0;
    /** Below this share of the huge pages asked for, the chase mostly ran on base pages. */
    static final double HUGE_ENOUGH = 0.5;

    static final Source MEMORY_FIGURES = Source.measurement("docs/measurements/2026-12-05-memory-vs-stream-h100.md: the H100 VM's one node, STREAM"
            + " Triad 101 GB/s with every CPU and 15.9 on one thread, read 119 GB/s, idle latency 117.7 ns with the whole set in huge pages;"
            + " pinned host-to-device copies 55.3 GB/s, 52-55% of that Triad; a machine of two nodes or two kinds of core was not measured yet");

    static final Source STREAM = Source.document("McCalpin, STREAM: Sustainable Memory Bandwidth in High Performance Computers"
            + " (www.cs.virginia.edu/stream/ref.html): Triad a(i) = b(i) + q*c(i), 24 bytes counted per iteration");

    static final Source NUMACTL = Source.document("numactl(8): --cpunodebind runs the process on the node's CPUs, --membind allocates its"
            + " memory only from the nodes given");

    public static final Rule FAR_NODE = Rule.of("M1-FAR-NODE", "each node's CPUs reading another node's memory against their own",
            EnumSet.of(WARN, UNKNOWN, INFO),
            "a process whose memory lands on a far node (a loader's tensors, a pinned pool, an embedding table) reads it at the far rate and"
                    + " latency; unbound, a process gets its pages wherever its threads first touch them",
            "bind each process's memory to its CPUs' node (numactl --cpunodebind=N --membind=N) and keep each GPU's pinned buffers on the GPU's node",
            NUMACTL, MEMORY_FIGURES,
            Source.reasoned(Math.round(100 * FAR_SHARE) + "%: a quarter of the bandwidth lost, beyond both spreads, is hostside's own"
                    + " threshold for a binding every job should have; a far node as fast as home (or faster: a GPU's memory read from Grace)"
                    + " names nothing"));

    public static final Rule SMALL_CORE = Rule.of("M1-SMALL-CORE", "what one thread moves on each kind of core of a hybrid CPU",
            EnumSet.of(WARN, UNKNOWN, INFO),
            "single-threaded memory work that feeds a GPU (the DataLoader's main loop, a collate in the main process, the pin-memory thread)"
                    + " moves that much less where the scheduler puts it on the smaller kind",
            "keep the GPU's feeder threads on the bigger cores: taskset -c with their CPUs, or os.sched_setaffinity",
            MEMORY_FIGURES, STREAM,
            Source.reasoned(Math.round(100 * SMALL_SHARE) + "%: a fifth less, beyond both spreads; less is no reason to constrain where the"
                    + " feeders run"));

    public static final Rule ONE_THREAD = Rule.of("M1-ONE-THREAD", "one thread's STREAM Triad against every CPU's", EnumSet.of(INFO, UNKNOWN),
            "work that copies host memory on one thread (a collate in the main process, a loader with num_workers=0) is bounded near one"
                    + " thread's figure, not the machine's; spread over workers, it can use more of it",
            "", STREAM, MEMORY_FIGURES);

    public static final Rule HOST_VS_COPIES = Rule.of("M1-HOST-VS-COPIES", "the GPUs' pinned copies together against the host's memory bandwidth",
            EnumSet.of(WARN, UNKNOWN, INFO),
            "each pinned host-to-device copy reads host memory at its own rate; where every GPU copies at once (offload, batches streamed back"
                    + " to back) they read the sum, and what is left of the memory's bandwidth is what the loaders' own work (decoding, collate,"
                    + " pageable staging) gets meanwhile. Each GPU's rate was measured alone: the sum is what they would ask, not what they got",
            "spare host memory the copies' competition: pin batches once and reuse the buffers (no pageable staging, no extra host copy in"
                    + " collate); on a machine of several nodes, bind each GPU's loaders and buffers to the GPU's node so each node's memory serves"
                    + " its own GPUs",
            STREAM, MEMORY_FIGURES,
            Source.reasoned("warn past " + Math.round(100 * COPIES_SHARE) + "% of the Triad bandwidth: the copies alone would ask more of host memory than"
                    + " it delivered to every CPU at once, so they cannot all run at their measured rates; below it, the share is said as information."
                    + " Triad counts reads and writes, a copy's DMA only reads, so the comparison is a scale, not an exact limit"));

    public static final Rule PAGES_PLACED = Rule.of("M1-PAGES-PLACED", "whether a measurement's pages were on the node they were bound to",
            EnumSet.of(UNKNOWN),
            "a figure said to be a node's memory that sampled pages elsewhere mixes nodes, so it is not that node's and is not judged", "",
            Source.document("mbind(2), MPOL_BIND: pages will not be allocated from any node not specified in the nodemask"),
            Source.document("move_pages(2): with no target nodes it reports the node each page is on"));

    public static final Rule CHASE_PAGES = Rule.of("M1-CHASE-PAGES", "whether the latency chase got the huge pages it asked for", EnumSet.of(INFO),
            "a chase mostly on base pages times TLB misses and page walks beside memory's latency, so its latency reads higher than the"
                    + " memory's own; M2-HUGE-PAGES says whether huge pages form on this machine", "",
            Source.reasoned("a random chase over a set far past the second-level TLB's reach in base pages (2048 entries of 4 KiB, 8 MiB, on"
                    + " Sapphire Rapids) misses it on most loads; under " + Math.round(100 * HUGE_ENOUGH) + "% of the set in huge pages, most loads"
                    + " were on base pages"));

    /** The host memory rules, in the order the findings are said. */
    static List<Rule> all() {
        return List.of(FAR_NODE, SMALL_CORE, ONE_THREAD, HOST_VS_COPIES, PAGES_PLACED, CHASE_PAGES);
    }
}
