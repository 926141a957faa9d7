package hostside.cpu.dataloader;

import java.util.Locale;

/** How the dataset is held in memory (the same two ways as hostside vm explain's copy-on-write story). */
public enum DatasetKind {
    /** A Python list of (int, float) tuples: reading an item writes its reference count. */
    LIST("Python list"),
    /** One numpy array of shape (items, 2): workers read its buffer and write nothing. */
    ARRAY("numpy array");

    private final String label;

    DatasetKind(String label) {
        this.label = label;
    }

    /** How it is written in JSON ("list", "array"), and read back. */
    @com.fasterxml.jackson.annotation.JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    @com.fasterxml.jackson.annotation.JsonCreator
    public static DatasetKind of(String key) {
        for (DatasetKind k : values()) if (k.key().equals(key)) return k;
        throw new IllegalArgumentException("\"" + key + "\" is not a dataset kind (list, array)");
    }

    public String label() {
        return label;
    }
}
