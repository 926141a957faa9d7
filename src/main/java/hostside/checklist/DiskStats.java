package hostside.checklist;

import java.util.ArrayList;
import java.util.List;

import hostside.fs.FactReads;
import hostside.core.GarbageException;

/**
 * /proc/diskstats, one line per block device: major, minor, name, then 11 counters (14 fields,
 * every kernel since 2.6), 15 (18 fields: discards, Linux 4.18) or 17 (20 fields: flushes, 5.5).
 * Sectors are 512 bytes whatever the device's own sector size. Lines of any other shape are
 * kept aside in {@code garbled}: one odd line costs that device, not the rest.
 */
public record DiskStats(List<Disk> disks, List<String> garbled) {
    /** Bytes per diskstats sector, fixed by the kernel's interface. */
    public static final long SECTOR_BYTES = 512;

    public DiskStats {
        disks = List.copyOf(disks);
        garbled = List.copyOf(garbled);
    }

    /**
     * One device's counters since boot. {@code ioMs} is the time with at least one request in
     * flight (iostat's %util); {@code discards}, {@code discardMs}, {@code flushes} and
     * {@code flushMs} are null where the kernel's format predates them.
     */
    public record Disk(int major, int minor, String name, long reads, long readsMerged, long sectorsRead, long readMs,
                       long writes, long writesMerged, long sectorsWritten, long writeMs, long inFlight, long ioMs, long weightedMs,
                       Long discards, Long discardMs, Long flushes, Long flushMs) {}

    public static DiskStats parse(String text) {
        List<Disk> disks = new ArrayList<>();
        List<String> garbled = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            String[] f = line.strip().split("\\s+");
            Disk d = f.length == 14 || f.length == 18 || f.length == 20 ? disk(f) : null;
            if (d == null) garbled.add(FactReads.shown(line));
            else disks.add(d);
        }
        if (disks.isEmpty() && !garbled.isEmpty()) {
            throw new GarbageException("not /proc/diskstats: \"" + garbled.getFirst() + "\"");
        }
        return new DiskStats(disks, garbled);
    }

    private static Disk disk(String[] f) {
        long[] v = new long[f.length];
        for (int i = 0; i < f.length; i++) {
            if (i == 2) continue;
            Long n = FactReads.parseNumber(f[i]);
            if (n == null) return null;
            v[i] = n;
        }
        if (v[0] > Integer.MAX_VALUE || v[1] > Integer.MAX_VALUE) return null;
        boolean discards = f.length >= 18, flushes = f.length >= 20;
        return new Disk((int) v[0], (int) v[1], f[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13],
                discards ? v[14] : null, discards ? v[17] : null, flushes ? v[18] : null, flushes ? v[19] : null);
    }
}
