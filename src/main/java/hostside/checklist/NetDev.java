package hostside.checklist;

import java.util.ArrayList;
import java.util.List;

import hostside.fs.FactReads;
import hostside.core.GarbageException;

/**
 * /proc/net/dev: two header lines, then "name: 8 receive counters 8 transmit counters". A large
 * byte count can run into the colon ("eth0:123456789"), so the line is split at the colon, not
 * at white space. The file is the network namespace's of the reader: in a container, the
 * container's interfaces.
 */
public record NetDev(List<Iface> interfaces, List<String> garbled) {

    public NetDev {
        interfaces = List.copyOf(interfaces);
        garbled = List.copyOf(garbled);
    }

    /** One interface's counters since it came up. */
    public record Iface(String name, long rxBytes, long rxPackets, long rxErrors, long rxDrops,
                        long txBytes, long txPackets, long txErrors, long txDrops) {}

    public static NetDev parse(String text) {
        List<Iface> out = new ArrayList<>();
        List<String> garbled = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.contains("|")) continue; // the two header lines
            int colon = line.indexOf(':');
            String[] f = colon < 0 ? new String[0] : line.substring(colon + 1).strip().split("\\s+");
            Iface i = colon > 0 && f.length == 16 ? iface(line.substring(0, colon).strip(), f) : null;
            if (i == null) garbled.add(FactReads.shown(line));
            else out.add(i);
        }
        if (out.isEmpty() && !garbled.isEmpty()) throw new GarbageException("not /proc/net/dev: \"" + garbled.getFirst() + "\"");
        return new NetDev(out, garbled);
    }

    private static Iface iface(String name, String[] f) {
        if (name.isEmpty()) return null;
        long[] v = new long[16];
        for (int i = 0; i < 16; i++) {
            Long n = FactReads.parseNumber(f[i]);
            if (n == null) return null;
            v[i] = n;
        }
        return new Iface(name, v[0], v[1], v[2], v[3], v[8], v[9], v[10], v[11]);
    }
}
