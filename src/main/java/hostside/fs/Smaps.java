package hostside.fs;

import java.util.OptionalLong;

/** /proc/self/smaps: what the kernel says about one of our own mappings. */
public final class Smaps {
    private static final java.util.regex.Pattern HEADER = java.util.regex.Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

    private Smaps() {}

    /** AnonHugePages of the mapping that holds {@code address}, in bytes. */
    public static OptionalLong anonHugeBytes(FsRoot fs, long address) {
        return fs.text("/proc/self/smaps").map(s -> field(s, address, "AnonHugePages")).orElse(OptionalLong.empty());
    }

    /** A "Key: N kB" field of the mapping whose range holds {@code address}. */
    public static OptionalLong field(String smaps, long address, String key) {
        boolean inside = false;
        for (String line : smaps.split("\n")) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && HEADER.matcher(line).lookingAt()) { // "start-end perms offset dev inode path"
                try {
                    long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                    long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                    inside = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
                } catch (NumberFormatException e) {
                    inside = false;
                }
                continue;
            }
            if (inside && line.startsWith(key + ":")) {
                String[] f = line.substring(key.length() + 1).strip().split("\\s+");
                try {
                    long v = Long.parseLong(f[0]);
                    return OptionalLong.of(f.length > 1 && f[1].equalsIgnoreCase("kB") ? Math.multiplyExact(v, 1024L) : v);
                } catch (NumberFormatException | ArithmeticException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }
}
