package hostside.health.host;

/** What the kernel lets us know of a PCI function's AER counters. */
public enum AerState {
    /** At least one of aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal was read. */
    COUNTED,
    /**
     * None of the three files exists: the kernel is older than 4.19, the function has no AER
     * capability, or (as on the Firecracker H100 VM, shared/fixtures/h100/nvml-probe.txt) the
     * hypervisor does not expose it. Nothing is known, which is not the same as no errors.
     */
    NOT_EXPOSED,
    /** The files are there but could not be read (permission); the reader's unknowns say which. */
    UNREADABLE,
    /** No such PCI function under /sys/bus/pci/devices. */
    NO_DEVICE
}
