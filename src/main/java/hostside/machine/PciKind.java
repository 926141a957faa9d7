package hostside.machine;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What a PCI device is to hostside (its "kind" in docs/schema/machine.schema.json): the devices the modules look at, and the rest. */
public enum PciKind {
    GPU, NIC, NVME, BRIDGE, OTHER;

    @JsonValue
    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @JsonCreator
    public static PciKind parse(String s) {
        for (PciKind k : values()) if (k.toString().equals(s)) return k;
        throw new IllegalArgumentException("\"" + s + "\" is not gpu, nic, nvme, bridge or other");
    }
}
