package hostside.health.host;

import java.util.Map;

/**
 * One port of an RDMA device (/sys/class/infiniband/DEV/ports/N) with its counters.
 *
 * @param port          the port number
 * @param state         the logical state, with the kernel's number
 * @param physicalState the physical state, with the kernel's number
 * @param rate          as the kernel writes it: "400 Gb/sec (4X NDR)" (active width x speed); null when unread
 * @param rateGbps      its figure in Gb/s; null when unread or not of that form
 * @param linkLayer     InfiniBand, or Ethernet for RoCE
 * @param netdev        the interface a RoCE port carries (gid_attrs/ndevs/0); null otherwise
 * @param counters      every file of counters/ that holds a number, by name; empty when there is no such folder.
 *                      A counter the kernel cannot read says "N/A (no PMA)" (show_pma_counter) and is left
 *                      out, with an unknown
 * @param hwCounters    every file of the optional, driver-specific hw_counters/ that holds a number, by
 *                      name ("lifespan" excepted: it is a setting); empty when there is no such folder
 * @param hwCountersLifespanMs hw_counters/lifespan: how many milliseconds the kernel keeps hw_counters'
 *                      values before asking the device again (10 by default); null when absent
 */
public record IbPort(int port, IbPortState state, IbPhysState physicalState, String rate, Double rateGbps, IbLinkLayer linkLayer,
                     String netdev, Map<String, Long> counters, Map<String, Long> hwCounters, Long hwCountersLifespanMs) {

    /** One of the error counters; null when the port has no such file or it held no number. */
    public Long counter(IbErrorCounter c) {
        return counters.get(c.file);
    }
}
