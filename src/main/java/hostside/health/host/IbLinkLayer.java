package hostside.health.host;

/**
 * What a port carries: link_layer_show in drivers/infiniband/core/sysfs.c writes "InfiniBand",
 * "Ethernet" (RoCE) or "Unknown".
 */
public enum IbLinkLayer {
    INFINIBAND("InfiniBand"),
    ETHERNET("Ethernet"),
    UNKNOWN("Unknown");

    public final String word;

    IbLinkLayer(String word) {
        this.word = word;
    }

    public static IbLinkLayer ofWord(String word) {
        return word == null ? UNKNOWN : word.equals(INFINIBAND.word) ? INFINIBAND : word.equals(ETHERNET.word) ? ETHERNET : UNKNOWN;
    }
}
