package hostside.io;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Stats;
import hostside.core.Versus;
import hostside.harness.Result;
import hostside.io.measure.ReadTest.ReadDetail;

/**
 * What the I/O figures mean for loading and saving checkpoints and reading datasets, one line each.
 * Where a line compares two figures it calls one ahead only when {@link Versus} does: beyond both
 * figures' spread, and by more than {@link #MATERIAL} (a smaller gain is no reason to change a
 * loader); otherwise it says they are even. On a file system that lives in memory (tmpfs) there
 * is no page cache to drop, no O_DIRECT and no disk for fsync to reach, and no line advises them.
 */
public final class MeasuredVerdicts {
    /** A gain below this share of the slower figure is not worth acting on, even when it is beyond the noise. */
    public static final double MATERIAL = 0.1;

    private MeasuredVerdicts() {}

    static List<String> of(List<Result> rs, boolean inMemory) {
        List<String> v = new ArrayList<>();
        loader(rs).ifPresent(v::add);
        warm(rs, inMemory).ifPresent(v::add);
        random(rs).ifPresent(v::add);
        save(rs, inMemory).ifPresent(v::add);
        return v;
    }

    static Optional<Result> ok(List<Result> rs, String key) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst();
    }

    /** {@code a} against {@code b} by the noise rule and the material share. */
    static Versus versus(Stats a, Stats b) {
        return Versus.of(a, b, MATERIAL);
    }

    /** Why two figures that Versus calls even are even: inside the noise, or beyond it but within 10%. */
    static String evenBecause(Stats a, Stats b) {
        return Versus.of(a, b) == Versus.EVEN ? "even within noise" : String.format(Locale.ROOT, "within %.0f%% of each other", MATERIAL * 100);
    }

    /** One way to load a checkpoint: its words in the list, its short name in a comparison, its figure. */
    record Path(String words, String name, Result r) {
        Stats stats() {
            return r.value();
        }
    }

    /** Which path a checkpoint loader should take: cold buffered, O_DIRECT, or O_DIRECT with 32 in flight; the ones even with the fastest count as fastest too. */
    static Optional<String> loader(List<Result> rs) {
        List<Path> paths = new ArrayList<>();
        ok(rs, "seq_read_cold_qd1").ifPresent(r -> paths.add(new Path("through the page cache cold", "the page cache", r)));
        ok(rs, "seq_read_direct_qd1").ifPresent(r -> paths.add(new Path("with O_DIRECT one read at a time", "O_DIRECT one at a time", r)));
        ok(rs, "seq_read_direct_uring_qd32").ifPresent(r -> paths.add(new Path("with O_DIRECT and 32 reads in flight (io_uring)", "32 in flight", r)));
        if (paths.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder("Loading a checkpoint (sequential 1 MiB reads): ");
        s.append(String.join(", ", paths.stream().map(p -> String.format(Locale.ROOT, "%.2f GB/s %s", p.stats().median(), p.words())).toList()));
        if (paths.size() == 1) return Optional.of(s.toString());
        Path best = paths.stream().max((a, b) -> Double.compare(a.stats().median(), b.stats().median())).orElseThrow();
        List<Path> fastest = paths.stream().filter(p -> p == best || versus(best.stats(), p.stats()) == Versus.EVEN).toList();
        List<Path> behind = paths.stream().filter(p -> !fastest.contains(p)).toList();
        if (behind.isEmpty()) {
            Path slowest = paths.stream().min((a, b) -> Double.compare(a.stats().median(), b.stats().median())).orElseThrow();
            s.append(": the paths are ").append(evenBecause(best.stats(), slowest.stats()))
                    .append("; choose by memory, not speed (O_DIRECT keeps the checkpoint out of the page cache)");
            return Optional.of(s.toString());
        }
        String ahead = String.join(", ", behind.stream().map(p -> String.format(Locale.ROOT, "%.1fx %s", best.stats().median() / p.stats().median(), p.name())).toList());
        if (fastest.size() > 1) {
            s.append(": ").append(String.join(" and ", fastest.stream().map(Path::name).toList())).append(" are ")
                    .append(evenBecause(fastest.get(0).stats(), fastest.get(1).stats())).append(", ahead of ")
                    .append(String.join(" and ", behind.stream().map(Path::name).toList())).append(" (").append(ahead).append(")");
            s.append(fastest.stream().anyMatch(p -> p.name().equals("the page cache"))
                    ? ": plain buffered reads (torch.load, safetensors) are as fast; O_DIRECT keeps the page cache free"
                    : ": skip the page cache for a file read once (O_DIRECT); more reads in flight add nothing here");
            return Optional.of(s.toString());
        }
        s.append(switch (best.name()) {
            case "32 in flight" -> ": keep many reads in flight and skip the page cache for a file read once (" + ahead
                    + "): parallel readers, io_uring, or GPUDirect Storage's cuFile";
            case "O_DIRECT one at a time" -> ": O_DIRECT alone is the fastest path here (" + ahead + ")"
                    + (behind.stream().anyMatch(p -> p.name().equals("32 in flight")) ? "; more reads in flight do not help this device" : "");
            default -> ": the page cache's readahead keeps up with the device here (" + ahead + "); plain buffered reads (torch.load, safetensors) are fine";
        });
        return Optional.of(s.toString());
    }

    /** The warm read against the cold one, and the page cache it holds; on tmpfs the file is that memory. */
    static Optional<String> warm(List<Result> rs, boolean inMemory) {
        Optional<Result> warm = ok(rs, "seq_read_warm_qd1"), cold = ok(rs, "seq_read_cold_qd1");
        if (warm.isEmpty()) return Optional.empty();
        Stats w = warm.get().value();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Read again while still cached, the same file comes at %.2f GB/s", w.median()));
        cold.ifPresent(c -> s.append(switch (versus(w, c.value())) {
            case ABOVE -> String.format(Locale.ROOT, " (%.1fx the cold read)", w.median() / c.value().median());
            case EVEN -> " (" + evenBecause(w, c.value()) + " with the cold read: the cache gains nothing here)";
            case BELOW -> String.format(Locale.ROOT, " (%.1fx slower than the cold read: the cache did not help this run)", c.value().median() / w.median());
        }));
        if (warm.get().detail() instanceof ReadDetail d && d.pageCacheBytes() != null) {
            String held = hostside.core.Units.bytes(d.pageCacheBytes());
            if (inMemory) {
                s.append(" and holds ").append(held).append(" of memory: on tmpfs the file is its pages, held for as long as the file exists;"
                        + " no cache can be dropped and O_DIRECT is refused, so delete the file when done");
            } else {
                s.append(" and holds ").append(held).append(" of page cache: a checkpoint read once and kept cached takes memory that DataLoader workers and"
                        + " pinned buffers need; drop it after loading (posix_fadvise DONTNEED) or read it with O_DIRECT");
            }
        }
        return Optional.of(s.toString());
    }

    /** Random 4 KiB reads one at a time against 32 in flight. */
    static Optional<String> random(List<Result> rs) {
        Optional<Result> one = ok(rs, "rand_read_direct_qd1"), many = ok(rs, "rand_read_direct_uring_qd32"), cold = ok(rs, "rand_read_cold_qd1");
        Optional<Result> base = one.isPresent() ? one : cold;
        if (base.isEmpty()) return Optional.empty();
        Stats b = base.get().value();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Small random reads (a dataset of 4 KiB samples): %,.0f IOPS one at a time", b.median()));
        if (base.get().detail() instanceof ReadDetail d && d.latencyUs() != null) {
            s.append(String.format(Locale.ROOT, " (%.0f us each at p50)", d.latencyUs().p50()));
        }
        many.ifPresent(m -> {
            double x = m.value().median() / b.median();
            s.append(String.format(Locale.ROOT, ", %,.0f IOPS with 32 in flight (%.1fx)", m.value().median(), x));
            s.append(switch (versus(m.value(), b)) {
                case ABOVE -> x >= 2 ? ": a loader of small samples needs many reads in flight: more DataLoader workers, or batched async reads"
                        : String.format(Locale.ROOT, ": %.0f%% more from a deeper queue; more DataLoader workers help a little", (x - 1) * 100);
                case EVEN -> ": " + evenBecause(m.value(), b) + "; this device does not gain from a deeper queue";
                case BELOW -> ": slower with 32 in flight; this device does worse with a deep queue: keep few reads in flight";
            });
        });
        return Optional.of(s.toString());
    }

    /** Saving: how fast into the page cache and to the disk; on tmpfs there is no disk. */
    static Optional<String> save(List<Result> rs, boolean inMemory) {
        Optional<Result> buffered = ok(rs, "write_buffered"), synced = ok(rs, "write_fsync");
        if (buffered.isEmpty() && synced.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder("Saving a checkpoint: ");
        if (inMemory) {
            buffered.ifPresent(b -> s.append(String.format(Locale.ROOT, "%.2f GB/s into tmpfs, which is memory: ", b.value().median())));
            s.append("nothing there reaches a disk and a reboot loses it, so fsync has nothing to wait for; copy the checkpoint to a disk before relying on it");
            return Optional.of(s.toString());
        }
        buffered.ifPresent(b -> s.append(String.format(Locale.ROOT, "%.2f GB/s into the page cache", b.value().median())));
        synced.ifPresent(f -> {
            double gbs = f.value().median();
            s.append(buffered.isPresent() ? ", " : "").append(String.format(Locale.ROOT, "%.2f GB/s with fsync, so 10 GB take %.0f s to be safe on disk", gbs, 10 / gbs));
        });
        s.append(": save from a background thread or process (torch.distributed.checkpoint's async save) so the training step does not wait on the disk");
        return Optional.of(s.toString());
    }
}
