package hostside.health.host;

/**
 * A root port's aer_rootport_total_err_{cor,nonfatal,fatal}: the ERR_* messages "reported to" it,
 * from every function below it as well as its own, one number per file
 * (Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats). Null where the file could not be read.
 */
public record RootPortTotals(Long correctable, Long nonfatal, Long fatal) {}
