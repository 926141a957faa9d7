package hostside.health.host;

/**
 * An RDMA port's physical (cable) state, with the kernel's number. phys_state_show in
 * drivers/infiniband/core/sysfs.c (torvalds/linux) writes exactly "1: Sleep", "2: Polling",
 * "3: Disabled", "4: PortConfigurationTraining", "5: LinkUp", "6: LinkErrorRecovery",
 * "7: Phy Test" and "N: &lt;unknown&gt;" for any other number; the ABI document names Sleep,
 * Polling, LinkUp "etc" (Documentation/ABI/stable/sysfs-class-infiniband).
 */
public enum IbPhysState {
    SLEEP(1, "Sleep"),
    POLLING(2, "Polling"),
    DISABLED(3, "Disabled"),
    PORT_CONFIGURATION_TRAINING(4, "PortConfigurationTraining"),
    LINK_UP(5, "LinkUp"),
    LINK_ERROR_RECOVERY(6, "LinkErrorRecovery"),
    PHY_TEST(7, "Phy Test"),
    /** "&lt;unknown&gt;", a word the kernel does not write, or no file. */
    UNKNOWN(-1, "<unknown>");

    /** The kernel's number (enum ib_port_phys_state); -1 for UNKNOWN. */
    public final int code;
    /** The word after the colon, as the kernel writes it. */
    public final String word;

    IbPhysState(int code, String word) {
        this.code = code;
        this.word = word;
    }

    /** The state of the word after the colon; UNKNOWN for null or any other word. */
    public static IbPhysState ofWord(String word) {
        for (IbPhysState s : values()) if (s != UNKNOWN && s.word.equals(word)) return s;
        return UNKNOWN;
    }
}
