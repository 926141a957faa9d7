package hostside.io.measure;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import hostside.fs.FsRoot;

/**
 * The read requests a whole disk has completed, from {@code /sys/block/DISK/stat}
 * (Documentation/block/stat.rst: field 1 reads completed, field 3 sectors read, in 512-byte
 * units), and the most physical pieces one of its requests may carry
 * ({@code queue/max_segments}). Read around a case's reads, they say how the disk was asked for
 * them: a 1 MiB O_DIRECT read whose buffer lies in more pieces than {@code max_segments} goes as
 * two requests, and reads slower (fio's job was split so in four runs of eight on the dev VM, and
 * read 1.26-1.38 GB/s then against 1.30-2.14 whole: docs/measurements/2026-12-07-odirect-split-devvm.md);
 * several sequential reads in flight may go as one merged request. Every reader of the disk counts.
 *
 * @param disk        the whole disk's name under /sys/block ("vda", "nvme0n1")
 * @param maxSegments its queue's max_segments, as the io facts read it; null when unknown
 */
public record DiskRequests(FsRoot fs, String disk, Long maxSegments) {
    /**
     * The one disk behind a data folder ({@code disks}: the io facts' whole disks behind it), with
     * its max_segments as {@code maxSegments} gives it; empty where a volume is striped over several
     * disks (no one count) or none is known.
     */
    public static Optional<DiskRequests> of(FsRoot fs, List<String> disks, Function<String, Long> maxSegments) {
        if (disks == null || disks.size() != 1 || disks.getFirst().isBlank() || disks.getFirst().contains("/")) return Optional.empty();
        return Optional.of(new DiskRequests(fs, disks.getFirst(), maxSegments.apply(disks.getFirst())));
    }

    /** Reads completed and sectors read so far. */
    public record Count(long reads, long sectors) {}

    public Optional<Count> count() {
        return fs.text("/sys/block/" + disk + "/stat").flatMap(DiskRequests::parse);
    }

    static Optional<Count> parse(String stat) {
        String[] f = stat.trim().split("\\s+");
        if (f.length < 3) return Optional.empty();
        try {
            return Optional.of(new Count(Long.parseLong(f[0]), Long.parseLong(f[2])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Requests the disk completed for each read of {@code blockBytes} between two counts: 1.00
     * where each went whole, 2.00 where each was split in two, below 1 where reads were merged.
     * Empty where less than one read's bytes were read, or a counter went back (a disk re-attached).
     */
    public static Optional<Double> perRead(Count before, Count after, long blockBytes) {
        if (before == null || after == null || blockBytes <= 0) return Optional.empty();
        long requests = after.reads() - before.reads(), sectors = after.sectors() - before.sectors();
        double reads = sectors * 512.0 / blockBytes;
        if (requests < 0 || reads < 1) return Optional.empty();
        return Optional.of(requests / reads);
    }
}
