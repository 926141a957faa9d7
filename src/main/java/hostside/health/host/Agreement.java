package hostside.health.host;

/** Whether versions that must be equal are. */
public enum Agreement {
    /** Every version found is the same (and, for the driver's parts, the module's). */
    AGREE,
    /** Two versions differ. */
    DIFFER,
    /** Something to compare was found, but a version it must be compared with is not known. */
    UNKNOWN,
    /** Nothing of that kind was found on the machine: no fabric manager package, no NCCL. */
    NOT_APPLICABLE
}
