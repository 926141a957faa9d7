package hostside.health.host;

/**
 * One PCI function's AER counters.
 *
 * @param address     domain:bus:device.function
 * @param role        the device asked about, a bridge above it, or its root port
 * @param state       whether the counters could be read; the three files are null unless COUNTED
 * @param correctable aer_dev_correctable; null when that file is absent
 * @param nonfatal    aer_dev_nonfatal; null when absent
 * @param fatal       aer_dev_fatal; null when absent
 * @param rootPort    the aer_rootport_total_err_* files; null on functions that have none (all but root ports)
 */
public record AerFunction(String address, PcieRole role, AerState state, AerCounts correctable, AerCounts nonfatal, AerCounts fatal,
                          RootPortTotals rootPort) {}
