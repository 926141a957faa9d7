package hostside.health.host;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import hostside.machine.PciDevice;
import hostside.machine.PciReader;

/**
 * A PCI function and the bridges above it, each read by machine's {@link PciReader} and followed
 * through {@link PciDevice#upstream()} (the BDFs of its /sys/devices path, as the reader places every
 * function). Reads only the functions on the path, not the whole tree.
 */
final class UpstreamPath {
    /** PCIe gives a domain 256 buses and each bridge opens one, so no path is longer (machine.UpstreamChain's bound). */
    static final int MAX_DEPTH = 256;

    private UpstreamPath() {}

    /**
     * The function first, then each bridge upward; empty when there is no such function. A
     * recording whose links put a function above itself stops the walk where an address comes
     * back, with an unknown that says so.
     */
    static List<PciDevice> of(PciReader pci, String address, List<String> unknowns) {
        List<PciDevice> path = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Optional<PciDevice> next = pci.function(address);
        while (next.isPresent()) {
            PciDevice d = next.get();
            if (!seen.add(d.address()) || path.size() == MAX_DEPTH) {
                unknowns.add("PCIe path of " + address + ": " + d.address() + " met again or more than " + MAX_DEPTH
                        + " bridges: the walk up stops there");
                break;
            }
            path.add(d);
            next = d.upstream() == null ? Optional.empty() : pci.function(d.upstream());
        }
        return path;
    }
}
