package hostside.memory;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;

import hostside.libc.LibcException;
import hostside.libc.Numa;

/**
 * Where a measured array's pages really are: pages sampled evenly over it and asked of the kernel
 * (move_pages(2) with no target node), after the first touch. A figure said to be "memory on node 1"
 * is checked, not assumed: MPOL_BIND allocates on no other node (mbind(2)), so a page found
 * elsewhere is one the binding did not hold (a cpuset whose memory nodes changed, pages placed before it).
 *
 * @param node    the node the pages were bound to; null when first touch placed them
 * @param byNode  sampled pages per node id
 * @param sampled how many pages were asked about; 0 when the kernel could not say (no NUMA support)
 * @param unknown why the kernel could not say; "" when it did
 */
public record Placement(Integer node, Map<Integer, Integer> byNode, int sampled, String unknown) {
    static final int SAMPLED_PAGES = 256;

    public Placement {
        byNode = Map.copyOf(byNode);
    }

    public static Placement of(MemorySegment region, long pageSize, Integer node) {
        try {
            int[] status = Numa.nodesOf(region, pageSize, SAMPLED_PAGES);
            Map<Integer, Integer> by = new TreeMap<>();
            for (int s : status) if (s >= 0) by.merge(s, 1, Integer::sum);
            return new Placement(node, by, status.length, "");
        } catch (LibcException e) {
            return new Placement(node, Map.of(), 0, e.getMessage());
        }
    }

    /** The share of the sampled pages on {@code n}, 0 to 1; null when nothing could be asked. */
    public Double shareOn(int n) {
        return sampled == 0 ? null : byNode.getOrDefault(n, 0) / (double) sampled;
    }

    /** Whether every sampled page is on the bound node (true when not bound, or when the kernel could not say). */
    public boolean asBound() {
        return node == null || sampled == 0 || byNode.getOrDefault(node, 0) == sampled;
    }
}
