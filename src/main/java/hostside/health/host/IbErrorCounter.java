package hostside.health.host;

/**
 * The error counters of an RDMA port's counters/ folder that a health check reads, each a file of
 * that name: the InfiniBand PortCounters the kernel exposes (Documentation/ABI/stable/
 * sysfs-class-infiniband; widths from drivers/infiniband/core/sysfs.c, PORT_PMA_ATTR). The folder
 * holds others too (port_xmit_data, unicast_rcv_packets...): {@link IbPort#counters()} keeps every one.
 */
public enum IbErrorCounter {
    /** Minor link errors on one or more physical lanes (16 bits). */
    SYMBOL_ERROR("symbol_error"),
    /** Times link error recovery completed (8 bits). */
    LINK_ERROR_RECOVERY("link_error_recovery"),
    /** Times link error recovery failed and the link went down (8 bits): a flap. */
    LINK_DOWNED("link_downed"),
    /** Packets received with an error (16 bits). */
    PORT_RCV_ERRORS("port_rcv_errors"),
    /** Packets received marked with the EBP delimiter (16 bits). */
    PORT_RCV_REMOTE_PHYSICAL_ERRORS("port_rcv_remote_physical_errors"),
    /** Packets a switch could not relay (16 bits). */
    PORT_RCV_SWITCH_RELAY_ERRORS("port_rcv_switch_relay_errors"),
    /** Outbound packets discarded because the port was down or congested (16 bits). */
    PORT_XMIT_DISCARDS("port_xmit_discards"),
    /** Times local physical errors passed the LocalPhyErrors threshold (4 bits). */
    LOCAL_LINK_INTEGRITY_ERRORS("local_link_integrity_errors"),
    /** Input buffer overruns (4 bits). */
    EXCESSIVE_BUFFER_OVERRUN_ERRORS("excessive_buffer_overrun_errors"),
    /** Incoming VL15 (subnet management) packets dropped for lack of resources (16 bits). */
    VL15_DROPPED("VL15_dropped"),
    /** Ticks with data to send and none sent (credits or arbitration): congestion, not an error as such. */
    PORT_XMIT_WAIT("port_xmit_wait");

    /** The file's name under ports/N/counters. */
    public final String file;

    IbErrorCounter(String file) {
        this.file = file;
    }
}
