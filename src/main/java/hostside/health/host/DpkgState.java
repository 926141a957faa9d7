package hostside.health.host;

/**
 * The state word of a package in /var/lib/dpkg/status, the third word of its Status field
 * ("install ok installed", "hold ok installed", "deinstall ok config-files"): dpkg(1), PACKAGE STATES.
 */
public enum DpkgState {
    NOT_INSTALLED("not-installed"),
    CONFIG_FILES("config-files"),
    HALF_INSTALLED("half-installed"),
    UNPACKED("unpacked"),
    HALF_CONFIGURED("half-configured"),
    TRIGGERS_AWAITED("triggers-awaited"),
    TRIGGERS_PENDING("triggers-pending"),
    INSTALLED("installed"),
    /** A Status field without one of dpkg's words, or none. */
    UNKNOWN("");

    public final String word;

    DpkgState(String word) {
        this.word = word;
    }

    /** The state of a Status field's value; UNKNOWN for anything else. */
    static DpkgState ofStatus(String status) {
        if (status == null) return UNKNOWN;
        String[] w = status.strip().split("\\s+");
        if (w.length != 3) return UNKNOWN;
        for (DpkgState s : values()) if (s != UNKNOWN && s.word.equals(w[2])) return s;
        return UNKNOWN;
    }
}
