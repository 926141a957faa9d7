package hostside.machine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The bridges above a PCI function, followed through {@link PciDevice#upstream()} from the
 * function up to the bridge on its root bus. Those links come from a recording's sysfs (how its
 * folders nest) or from a report's JSON, and either can be damaged or made up: a function can
 * name itself or a function below it as its upstream. So the walk is bounded twice: an address
 * met again is a cycle, and no chain is longer than {@link #MAX_DEPTH}.
 *
 * @param addresses the chain from the topmost function reached down to the function itself
 * @param fault     why the walk stopped before a root bus, in words; null when it reached one (or
 *                  an upstream bridge that is not among the functions read: the tree is only
 *                  partly known there, which is no fault)
 */
record UpstreamChain(List<String> addresses, String fault) {
    /**
     * PCIe numbers the buses of a domain 0 to 255 and every bridge opens a bus of its own below
     * it, so no function has 256 bridges above it.
     */
    static final int MAX_DEPTH = 256;

    static UpstreamChain of(PciDevice d, Map<String, PciDevice> byAddress) {
        List<String> up = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        // each turn adds an address not seen before or returns, and at most MAX_DEPTH are added
        for (PciDevice x = d; x != null; x = x.upstream() == null ? null : byAddress.get(x.upstream())) {
            if (!seen.add(x.address())) return new UpstreamChain(up.reversed(), "a cycle at " + x.address() + " (a bridge above itself)");
            if (up.size() == MAX_DEPTH) {
                return new UpstreamChain(up.reversed(), "more than " + MAX_DEPTH + " bridges above " + d.address()
                        + " (the 256 bus numbers of a PCIe domain allow fewer)");
            }
            up.add(x.address());
        }
        return new UpstreamChain(up.reversed(), null);
    }

    /** The first fault of any function's chain, in the list's order, naming where; empty when every chain reaches a root bus. */
    static Optional<String> firstFault(List<PciDevice> pci) {
        Map<String, PciDevice> byAddress = new java.util.HashMap<>();
        for (PciDevice d : pci) byAddress.put(d.address(), d);
        for (PciDevice d : pci) {
            String fault = of(d, byAddress).fault();
            if (fault != null) return Optional.of(fault);
        }
        return Optional.empty();
    }
}
