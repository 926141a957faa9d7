package hostside.io;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.harness.Result;
import hostside.io.measure.ReadTest.ReadDetail;

/** What the I/O figures mean for loading and saving checkpoints and reading datasets, one line each. */
final class MeasuredVerdicts {
    private MeasuredVerdicts() {}

    static List<String> of(List<Result> rs) {
        List<String> v = new ArrayList<>();
        loader(rs).ifPresent(v::add);
        warm(rs).ifPresent(v::add);
        random(rs).ifPresent(v::add);
        save(rs).ifPresent(v::add);
        return v;
    }

    static Optional<Result> ok(List<Result> rs, String key) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst();
    }

    /** Which path a checkpoint loader should take: the fastest of cold buffered, O_DIRECT, and O_DIRECT with 32 in flight. */
    static Optional<String> loader(List<Result> rs) {
        Optional<Result> cold = ok(rs, "seq_read_cold_qd1"), direct = ok(rs, "seq_read_direct_qd1"), uring = ok(rs, "seq_read_direct_uring_qd32");
        if (cold.isEmpty() && direct.isEmpty() && uring.isEmpty()) return Optional.empty();
        double c = cold.map(r -> r.value().median()).orElse(0.0), d = direct.map(r -> r.value().median()).orElse(0.0),
                u = uring.map(r -> r.value().median()).orElse(0.0);
        StringBuilder s = new StringBuilder("Loading a checkpoint (sequential 1 MiB reads): ");
        List<String> parts = new ArrayList<>();
        if (cold.isPresent()) parts.add(String.format(Locale.ROOT, "%.2f GB/s through the page cache cold", c));
        if (direct.isPresent()) parts.add(String.format(Locale.ROOT, "%.2f GB/s with O_DIRECT one read at a time", d));
        if (uring.isPresent()) parts.add(String.format(Locale.ROOT, "%.2f GB/s with O_DIRECT and 32 reads in flight (io_uring)", u));
        s.append(String.join(", ", parts));
        double best = Math.max(c, Math.max(d, u));
        if (best == u && u > 1.2 * Math.max(c, d)) {
            s.append(String.format(Locale.ROOT, ": keep many reads in flight and skip the page cache for a file read once (%.1fx the page cache):"
                    + " parallel readers, io_uring, or GPUDirect Storage's cuFile", c > 0 ? u / c : u / d));
        } else if (best == c && c >= 0.9 * Math.max(d, u)) {
            s.append(": the page cache's readahead keeps up with the device here; plain buffered reads (torch.load, safetensors) are fine");
        } else if (best == d) {
            s.append(": O_DIRECT alone is the fastest path here; more requests in flight do not help this device");
        } else {
            s.append(": the paths are within 20% of each other; choose by memory, not speed");
        }
        return Optional.of(s.toString());
    }

    static Optional<String> warm(List<Result> rs) {
        Optional<Result> warm = ok(rs, "seq_read_warm_qd1"), cold = ok(rs, "seq_read_cold_qd1");
        if (warm.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Read again while still cached, the same file comes at %.2f GB/s", warm.get().value().median()));
        cold.ifPresent(c -> s.append(String.format(Locale.ROOT, " (%.1fx the cold read)", warm.get().value().median() / c.value().median())));
        if (warm.get().detail() instanceof ReadDetail d && d.pageCacheBytes() != null) {
            s.append(String.format(Locale.ROOT, " and holds %s of page cache: a checkpoint read once and kept cached takes memory that DataLoader workers and"
                    + " pinned buffers need; drop it after loading (posix_fadvise DONTNEED) or read it with O_DIRECT", hostside.core.Units.bytes(d.pageCacheBytes())));
        }
        return Optional.of(s.toString());
    }

    static Optional<String> random(List<Result> rs) {
        Optional<Result> one = ok(rs, "rand_read_direct_qd1"), many = ok(rs, "rand_read_direct_uring_qd32"), cold = ok(rs, "rand_read_cold_qd1");
        Optional<Result> base = one.isPresent() ? one : cold;
        if (base.isEmpty()) return Optional.empty();
        double b = base.get().value().median();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Small random reads (a dataset of 4 KiB samples): %,.0f IOPS one at a time", b));
        if (base.get().detail() instanceof ReadDetail d && d.latencyUs() != null) {
            s.append(String.format(Locale.ROOT, " (%.0f us each at p50)", d.latencyUs().p50()));
        }
        many.ifPresent(m -> {
            double x = m.value().median() / b;
            s.append(String.format(Locale.ROOT, ", %,.0f IOPS with 32 in flight (%.1fx)", m.value().median(), x));
            if (x >= 2) s.append(": a loader of small samples needs many reads in flight: more DataLoader workers, or batched async reads");
            else s.append(": this device does not gain from a deeper queue");
        });
        return Optional.of(s.toString());
    }

    static Optional<String> save(List<Result> rs) {
        Optional<Result> buffered = ok(rs, "write_buffered"), synced = ok(rs, "write_fsync");
        if (buffered.isEmpty() && synced.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder("Saving a checkpoint: ");
        buffered.ifPresent(b -> s.append(String.format(Locale.ROOT, "%.2f GB/s into the page cache", b.value().median())));
        synced.ifPresent(f -> {
            double gbs = f.value().median();
            s.append(buffered.isPresent() ? ", " : "").append(String.format(Locale.ROOT, "%.2f GB/s with fsync, so 10 GB take %.0f s to be safe on disk", gbs, 10 / gbs));
        });
        s.append(": save from a background thread or process (torch.distributed.checkpoint's async save) so the training step does not wait on the disk");
        return Optional.of(s.toString());
    }
}
