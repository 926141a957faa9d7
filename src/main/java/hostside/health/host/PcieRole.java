package hostside.health.host;

/** Where a function sits on the path from a device asked about up to its root port. */
public enum PcieRole {
    /** The device asked about (a GPU, a NIC). */
    DEVICE,
    /** A bridge between it and the root port: a PCIe switch's downstream or upstream port. */
    BRIDGE,
    /**
     * The topmost bridge, on the root bus below the host bridge. A bridge there is a root port
     * (or a root complex's own bridge); only root ports and root complex event collectors show the
     * aer_rootport_total_err_* files (drivers/pci/pcie/aer.c, aer_stats_attrs_are_visible).
     */
    ROOT_PORT
}
