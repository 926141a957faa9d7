package hostside.health.host;

import java.util.List;

/**
 * A device asked about and every bridge above it up to its root port. The kernel's AER document
 * warns that "if an endpoint is causing problems, the AER counters may increment at its link
 * partner (e.g. root port)" while the endpoint reports all zeros
 * (Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats): a GPU's chain is judged whole.
 *
 * @param device    the address asked about
 * @param state     COUNTED when any function of the chain has counters; NOT_EXPOSED when none
 *                  exposes AER; UNREADABLE when some could not be read and none was; NO_DEVICE when
 *                  the address is not a PCI function here
 * @param functions the device first, then each bridge upward, the root port last; empty for NO_DEVICE
 */
public record AerChain(String device, AerState state, List<AerFunction> functions) {}
