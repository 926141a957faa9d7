package hostside.health.host;

/**
 * An RDMA port's logical state, with the kernel's number. The state file reads "4: ACTIVE": the
 * number and name of enum ib_port_state, written by state_show in drivers/infiniband/core/sysfs.c
 * (torvalds/linux), which prints "UNKNOWN" for a number past its table; the ABI document lists DOWN,
 * INIT, ARMED, ACTIVE, ACTIVE_DEFER (Documentation/ABI/stable/sysfs-class-infiniband).
 */
public enum IbPortState {
    NOP(0, "NOP"),
    DOWN(1, "DOWN"),
    INIT(2, "INIT"),
    ARMED(3, "ARMED"),
    ACTIVE(4, "ACTIVE"),
    ACTIVE_DEFER(5, "ACTIVE_DEFER"),
    /** A word the kernel does not write, or "UNKNOWN", or no file. */
    UNKNOWN(-1, "UNKNOWN");

    /** The kernel's number (enum ib_port_state); -1 for UNKNOWN. */
    public final int code;
    /** The word after the colon, as the kernel writes it. */
    public final String word;

    IbPortState(int code, String word) {
        this.code = code;
        this.word = word;
    }

    /** The state of the word after the colon (io.facts' RdmaReader keeps that word); UNKNOWN for null or any other word. */
    public static IbPortState ofWord(String word) {
        for (IbPortState s : values()) if (s != UNKNOWN && s.word.equals(word)) return s;
        return UNKNOWN;
    }
}
