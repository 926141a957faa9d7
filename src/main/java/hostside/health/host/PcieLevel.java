package hostside.health.host;

import hostside.machine.Affinity;

/**
 * How far a GPU is from a NIC over PCIe, in the words of {@code nvidia-smi topo -m} that
 * machine's {@link Affinity} computes (its class comment says each), nearest first.
 */
public enum PcieLevel {
    /** The same function (Affinity's "X"): only when a NIC's address was given as a GPU's. */
    SAME("X"),
    PIX("PIX"),
    PXB("PXB"),
    PHB("PHB"),
    NODE("NODE"),
    SYS("SYS"),
    /** Affinity's "?": different host bridges and no NUMA or CPU data to tell NODE from SYS. */
    UNKNOWN("?");

    /** Affinity's word. */
    public final String word;

    PcieLevel(String word) {
        this.word = word;
    }

    static PcieLevel ofWord(String word) {
        for (PcieLevel l : values()) if (l.word.equals(word)) return l;
        throw new IllegalArgumentException("not a level of Affinity: " + word);
    }
}
