package hostside.checklist;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Step 5, disk and network throughput over the window: /proc/diskstats per whole disk (iostat
 * -dx's figures) and /proc/net/dev per interface.
 *
 * @param disks    whole disks that have done any I/O since boot (partitions are inside their disk's figures)
 * @param networks every interface
 */
public record IoSection(List<DiskUse> disks, List<NetUse> networks) {

    public IoSection {
        disks = List.copyOf(disks);
        networks = List.copyOf(networks);
    }

    /**
     * @param awaitMs     mean time a read or write took, queueing included (iostat's r_await and
     *                    w_await together); null when none completed
     * @param utilPercent share of the window with at least one request in flight (iostat's %util);
     *                    100 means busy, not saturated, for a device that serves requests in parallel
     */
    public record DiskUse(String name, double readBytesPerSecond, double writeBytesPerSecond, double readsPerSecond,
                          double writesPerSecond, Double awaitMs, double utilPercent) {}

    /** Rates per second; errors and drops are counts over the window. */
    public record NetUse(String name, double rxBytesPerSecond, double txBytesPerSecond, double rxPacketsPerSecond,
                         double txPacketsPerSecond, long rxErrors, long rxDrops, long txErrors, long txDrops) {}

    /**
     * @param wholeDisks names under /sys/block ('/' in a name is '!' there); empty when /sys/block
     *                   could not be listed, and then every device counts
     */
    static IoSection of(Sample first, Sample last, Set<String> wholeDisks) {
        double s = Rates.seconds(first, last);
        if (s <= 0) return null;
        List<DiskUse> disks = new ArrayList<>();
        if (first.disks() != null && last.disks() != null) {
            Map<String, DiskStats.Disk> before = new HashMap<>();
            for (DiskStats.Disk d : first.disks().disks()) before.put(d.name(), d);
            for (DiskStats.Disk b : last.disks().disks()) {
                DiskStats.Disk a = before.get(b.name());
                if (a == null || !(wholeDisks.isEmpty() || wholeDisks.contains(b.name().replace('/', '!')))) continue;
                if (b.reads() + b.writes() == 0) continue;
                long ios = Math.max(0, b.reads() - a.reads()) + Math.max(0, b.writes() - a.writes());
                long ms = Math.max(0, b.readMs() - a.readMs()) + Math.max(0, b.writeMs() - a.writeMs());
                disks.add(new DiskUse(b.name(),
                        Rates.round(Rates.perSecond(a.sectorsRead(), b.sectorsRead(), s) * DiskStats.SECTOR_BYTES, 0),
                        Rates.round(Rates.perSecond(a.sectorsWritten(), b.sectorsWritten(), s) * DiskStats.SECTOR_BYTES, 0),
                        Rates.round(Rates.perSecond(a.reads(), b.reads(), s), 1), Rates.round(Rates.perSecond(a.writes(), b.writes(), s), 1),
                        ios == 0 ? null : Rates.round((double) ms / ios, 2),
                        Rates.round(Math.min(100, Rates.perSecond(a.ioMs(), b.ioMs(), s) / 10), 1)));
            }
        }
        List<NetUse> nets = new ArrayList<>();
        if (first.net() != null && last.net() != null) {
            Map<String, NetDev.Iface> before = new HashMap<>();
            for (NetDev.Iface i : first.net().interfaces()) before.put(i.name(), i);
            for (NetDev.Iface b : last.net().interfaces()) {
                NetDev.Iface a = before.get(b.name());
                if (a == null) continue;
                nets.add(new NetUse(b.name(), Rates.round(Rates.perSecond(a.rxBytes(), b.rxBytes(), s), 0),
                        Rates.round(Rates.perSecond(a.txBytes(), b.txBytes(), s), 0), Rates.round(Rates.perSecond(a.rxPackets(), b.rxPackets(), s), 1),
                        Rates.round(Rates.perSecond(a.txPackets(), b.txPackets(), s), 1), Math.max(0, b.rxErrors() - a.rxErrors()),
                        Math.max(0, b.rxDrops() - a.rxDrops()), Math.max(0, b.txErrors() - a.txErrors()), Math.max(0, b.txDrops() - a.txDrops())));
            }
        }
        return new IoSection(disks, nets);
    }
}
