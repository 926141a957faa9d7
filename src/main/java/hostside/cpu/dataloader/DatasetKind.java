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

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String label() {
        return label;
    }
}
