package hostside.health.host;

import java.util.List;

/**
 * PCIe AER counters of the devices asked about and of the bridges above them.
 *
 * @param chains   one per address asked about, in the order asked
 * @param unknowns reads that failed or held something else than counters, with their paths
 */
public record PcieAer(List<AerChain> chains, List<String> unknowns) {}
