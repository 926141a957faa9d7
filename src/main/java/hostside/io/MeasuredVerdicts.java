package hostside.io;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.core.Versus;
import hostside.harness.Result;
import hostside.io.measure.ReadTest.ReadDetail;
import hostside.io.measure.WriteTest.WriteDetail;
import hostside.process.MachineLoad;

/**
 * What the I/O figures mean for loading and saving checkpoints and reading datasets: a finding of
 * one of {@link IoRules}' rules each. Where a finding compares two figures it calls one ahead only
 * when {@link Versus} does: beyond both figures' spread, and by more than {@link #MATERIAL} (a
 * smaller gain is no reason to change a loader); otherwise it says they are even and names no
 * winner. A figure no disk gives a reader to act on (32 reads in flight slower than one at a time,
 * a cached read slower than the disk, a write with fsync faster than without) is said and doubted:
 * unknown, no path drawn from it. On a machine that was busy as the drill began every finding is
 * unknown, its figures said and nothing concluded. On a file system that lives in memory (tmpfs)
 * there is no page cache to drop and no disk for O_DIRECT or fsync to reach, and no finding advises
 * them.
 */
public final class MeasuredVerdicts {
    /** A gain below this share of the slower figure is not worth acting on, even when it is beyond the noise. */
    public static final double MATERIAL = 0.1;
    /** 32 random reads in flight at least this many times the IOPS of one at a time: a loader of small samples must keep reads in flight. */
    static final double DEPTH_PAYS = 2;

    private MeasuredVerdicts() {}

    /**
     * What one rule concluded, before the machine's load is weighed.
     *
     * @param figures what was measured, as a sentence: all a busy machine's finding says
     * @param text    the figures and what they mean
     */
    record Judged(Rule rule, Severity severity, String figures, String text, List<Evidence> evidence) {
        /** As a finding about {@code subject}: an unknown one, its figures said and no fix, where {@code load} was busy. */
        Finding finding(String subject, MachineLoad load) {
            return rule.measured(severity, subject, text, figures, evidence, MachineLoad.busyReasons(load));
        }
    }

    /**
     * Every rule's finding about the folder {@code where} (the test file's, where checkpoints live),
     * on a machine whose load as the drill began was {@code load} (null: not read, a recording's).
     */
    public static List<Finding> of(List<Result> rs, boolean inMemory, String where, MachineLoad load) {
        return judge(rs, inMemory).stream().map(j -> j.finding(where, load)).toList();
    }

    static List<Judged> judge(List<Result> rs, boolean inMemory) {
        List<Judged> v = new ArrayList<>();
        loader(rs).ifPresent(v::add);
        warm(rs, inMemory).ifPresent(v::add);
        random(rs).ifPresent(v::add);
        save(rs, inMemory).ifPresent(v::add);
        return v;
    }

    static Optional<Result> ok(List<Result> rs, String key) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst();
    }

    /** A result's median as a finding's evidence. */
    static Evidence evidence(Result r) {
        return Evidence.of(r.key(), r.value().median(), r.unit());
    }

    static List<Evidence> evidence(Result... rs) {
        return Arrays.stream(rs).map(MeasuredVerdicts::evidence).toList();
    }

    /** {@code a} against {@code b} by the noise rule and the material share. */
    static Versus versus(Stats a, Stats b) {
        return Versus.of(a, b, MATERIAL);
    }

    /** Why two figures that Versus calls even are even: inside the noise, or beyond it but within 10%. */
    static String evenBecause(Stats a, Stats b) {
        return Versus.of(a, b) == Versus.EVEN ? "even within noise" : String.format(Locale.ROOT, "within %.0f%% of each other", MATERIAL * 100);
    }

    /** " (fio ...)" where the result names the fio job that measures the same, else "". */
    static String fio(Result r) {
        return r.anchor() == null || r.anchor().isEmpty() ? "" : " (" + r.anchor() + ")";
    }

    /** One way to load a checkpoint: its words in the list, its short name in a comparison, its figure. */
    record Path(String words, String name, Result r) {
        Stats stats() {
            return r.value();
        }
    }

    static final String CACHE = "the page cache", DIRECT = "O_DIRECT one at a time", MANY = "32 in flight";

    /**
     * Which path a checkpoint loader should take: cold buffered, O_DIRECT, or O_DIRECT with 32 in
     * flight; the ones even with the fastest count as fastest too. A change is advised (warn) only
     * where the page cache, which loaders use unless told otherwise, was measured and is behind.
     */
    static Optional<Judged> loader(List<Result> rs) {
        List<Path> paths = new ArrayList<>();
        ok(rs, "seq_read_cold_qd1").ifPresent(r -> paths.add(new Path("through the page cache cold", CACHE, r)));
        ok(rs, "seq_read_direct_qd1").ifPresent(r -> paths.add(new Path("with O_DIRECT one read at a time", DIRECT, r)));
        ok(rs, "seq_read_direct_uring_qd32").ifPresent(r -> paths.add(new Path("with O_DIRECT and 32 reads in flight (io_uring)", MANY, r)));
        if (paths.isEmpty()) return Optional.empty();
        String figures = "Loading a checkpoint (sequential 1 MiB reads): "
                + String.join(", ", paths.stream().map(p -> String.format(Locale.ROOT, "%.2f GB/s %s", p.stats().median(), p.words())).toList());
        List<Evidence> read = paths.stream().map(p -> evidence(p.r())).toList();
        if (paths.size() == 1) return Optional.of(new Judged(IoRules.LOAD_PATH, Severity.INFO, figures, figures, read));
        Optional<Judged> doubt = slowerInFlight(paths, figures, read);
        if (doubt.isPresent()) return doubt;
        StringBuilder s = new StringBuilder(figures);
        Path best = paths.stream().max((a, b) -> Double.compare(a.stats().median(), b.stats().median())).orElseThrow();
        List<Path> fastest = paths.stream().filter(p -> p == best || versus(best.stats(), p.stats()) == Versus.EVEN).toList();
        List<Path> behind = paths.stream().filter(p -> !fastest.contains(p)).toList();
        if (behind.isEmpty()) {
            Path slowest = paths.stream().min((a, b) -> Double.compare(a.stats().median(), b.stats().median())).orElseThrow();
            s.append(": the paths are ").append(evenBecause(best.stats(), slowest.stats()))
                    .append("; choose by memory, not speed (O_DIRECT keeps the checkpoint out of the page cache)");
            return Optional.of(new Judged(IoRules.LOAD_PATH, Severity.INFO, figures, s.toString(), read));
        }
        // a loader reads through the page cache unless told otherwise: only where that was measured and is behind is there a change to make
        boolean change = behind.stream().anyMatch(p -> p.name().equals(CACHE));
        Severity sev = change ? Severity.WARN : Severity.INFO;
        String ahead = String.join(", ", behind.stream().map(p -> String.format(Locale.ROOT, "%.1fx %s", best.stats().median() / p.stats().median(), p.name())).toList());
        if (fastest.size() > 1) {
            s.append(": ").append(String.join(" and ", fastest.stream().map(Path::name).toList())).append(" are ")
                    .append(evenBecause(fastest.get(0).stats(), fastest.get(1).stats())).append(", ahead of ")
                    .append(String.join(" and ", behind.stream().map(Path::name).toList())).append(" (").append(ahead).append(")");
            s.append(fastest.stream().anyMatch(p -> p.name().equals(CACHE))
                    ? ": loaders that read through the page cache (torch.load, safetensors) are as fast; O_DIRECT keeps the page cache free"
                    : ": skip the page cache for a file read once (O_DIRECT); more reads in flight add nothing here");
            return Optional.of(new Judged(IoRules.LOAD_PATH, sev, figures, s.toString(), read));
        }
        s.append(switch (best.name()) {
            case MANY -> change ? ": keep many reads in flight and skip the page cache for a file read once (" + ahead
                    + "): parallel readers, io_uring, or GPUDirect Storage's cuFile"
                    : ": many reads in flight are the faster way around the page cache (" + ahead + "); the page cache's own read was not"
                    + " measured to compare with";
            case DIRECT -> ": O_DIRECT alone is the fastest path here (" + ahead + ")";
            default -> ": reading through the page cache is the fastest path here (" + ahead
                    + "): loaders that read through it (torch.load, safetensors) need no change";
        });
        return Optional.of(new Judged(IoRules.LOAD_PATH, sev, figures, s.toString(), read));
    }

    /**
     * 32 reads in flight slower than one at a time, beyond both spreads and by more than 10%: a
     * deeper queue of the same reads does not slow a disk, so the figures are doubted and no path
     * is drawn from them. One at a time is O_DIRECT's own where it was measured, the page cache's
     * where only that was (a quick report): there the figures cannot tell depth from O_DIRECT.
     */
    static Optional<Judged> slowerInFlight(List<Path> paths, String figures, List<Evidence> read) {
        Optional<Path> many = paths.stream().filter(p -> p.name().equals(MANY)).findFirst();
        Optional<Path> one = paths.stream().filter(p -> p.name().equals(DIRECT)).findFirst()
                .or(() -> paths.stream().filter(p -> p.name().equals(CACHE)).findFirst());
        if (many.isEmpty() || one.isEmpty() || versus(many.get().stats(), one.get().stats()) != Versus.BELOW) return Optional.empty();
        Path m = many.get(), o = one.get();
        String against = o.name().equals(DIRECT) ? "one at a time" : "one at a time through the page cache, and no O_DIRECT read one at a time was"
                + " measured to tell the depth from O_DIRECT";
        // where the buffers' physical pieces and the disk's requests are known, say them: in a VM they are what the
        // measurement's depth paid for, and a read split in two reads slower (docs/measurements/2026-12-07-odirect-split-devvm.md)
        ReadDetail buffers = m.r().detail() instanceof ReadDetail d ? d : null;
        String text = figures + String.format(Locale.ROOT, ": 32 in flight slower than %s (%.2f against %.2f GB/s, beyond both runs' spreads):"
                        + " not a property of the disk a loader should act on, but of the measurement%s, the device's queue or another load on the"
                        + " machine; run again, and compare with fio's job%s. No path is recommended from these figures",
                against, m.stats().median(), o.stats().median(),
                buffers(buffers),
                fio(m.r()));
        return Optional.of(new Judged(IoRules.LOAD_PATH, Severity.UNKNOWN, figures, text, read));
    }

    /** " (each read's buffer in N physical pieces ...; the disk completed R requests for each read)", or what of it is known. */
    static String buffers(ReadDetail d) {
        List<String> said = new ArrayList<>();
        if (d != null && d.bufferPieces() != null) {
            said.add(String.format(Locale.ROOT, "each read's buffer in %.0f physical pieces, which a VM's virtual disk pays for one by one", d.bufferPieces()));
        }
        if (d != null && d.requestsPerRead() != null) said.add(String.format(Locale.ROOT, "the disk completed %.2f requests for each read", d.requestsPerRead()));
        return said.isEmpty() ? "" : " (" + String.join("; ", said) + ")";
    }

    /**
     * Whether the sequential reads are in doubt: 32 in flight slower than one at a time, so that no
     * path is drawn from them (what page one says beside the figure it quotes).
     */
    public static boolean deeperQueueSlower(List<Result> rs) {
        return loader(rs).map(j -> j.severity() == Severity.UNKNOWN).orElse(false);
    }

    /** The warm read against the cold one, and the page cache it holds; on tmpfs the file is that memory. */
    static Optional<Judged> warm(List<Result> rs, boolean inMemory) {
        Optional<Result> warm = ok(rs, "seq_read_warm_qd1"), cold = ok(rs, "seq_read_cold_qd1");
        if (warm.isEmpty()) return Optional.empty();
        Result wr = warm.get();
        Stats w = wr.value();
        Long held = wr.detail() instanceof ReadDetail d ? d.pageCacheBytes() : null;
        List<Evidence> read = new ArrayList<>(List.of(evidence(wr)));
        cold.ifPresent(c -> read.add(evidence(c)));
        if (held != null) read.add(Evidence.of(wr.key() + "_page_cache", held, Unit.BYTES));
        String figures = String.format(Locale.ROOT, "Read again while still cached, the same file comes at %.2f GB/s", w.median())
                + cold.map(c -> String.format(Locale.ROOT, " (%.2f GB/s cold)", c.value().median())).orElse("")
                + (held == null ? "" : "; " + Units.bytes(held) + " of it cached after the reads");
        if (cold.isPresent() && versus(w, cold.get().value()) == Versus.BELOW) {
            // a read from memory slower than the same read from the disk: the pages were not all there, or something else ran
            Result c = cold.get();
            String of = wr.detail() instanceof ReadDetail d ? " of " + Units.bytes(d.fileBytes()) : "";
            return Optional.of(new Judged(IoRules.PAGE_CACHE, Severity.UNKNOWN, figures, String.format(Locale.ROOT,
                    "Read again while still cached, the same file came at %.2f GB/s, slower than the cold read's %.2f beyond both runs' spreads,"
                            + " which a read from memory is not: the file's pages were not all held%s, or another load ran; run again, and"
                            + " compare with fio's job%s", w.median(), c.value().median(),
                    held == null ? "" : " (" + Units.bytes(held) + of + " cached after the reads)", fio(wr)), read));
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Read again while still cached, the same file comes at %.2f GB/s", w.median()));
        cold.ifPresent(c -> s.append(versus(w, c.value()) == Versus.ABOVE
                ? String.format(Locale.ROOT, " (%.1fx the cold read)", w.median() / c.value().median())
                : " (" + evenBecause(w, c.value()) + " with the cold read: the cache gains nothing here)"));
        if (held != null) {
            String bytes = Units.bytes(held);
            if (inMemory) {
                s.append(" and holds ").append(bytes).append(" of memory: on tmpfs the file is its pages, kept for as long as the file exists"
                        + " (swapped out only where swap is on); there is no cache to drop and no disk for O_DIRECT to read from instead, so"
                        + " delete the file when done");
            } else {
                s.append(" and holds ").append(bytes).append(" of page cache: clean pages the kernel takes back when memory is needed"
                        + " (MemAvailable counts them), reclaiming them first; posix_fadvise(POSIX_FADV_DONTNEED) after a checkpoint is loaded"
                        + " frees them at once, and a load with O_DIRECT never caches them");
            }
        }
        return Optional.of(new Judged(IoRules.PAGE_CACHE, Severity.INFO, figures, s.toString(), read));
    }

    /** Random 4 KiB reads one at a time against 32 in flight. */
    static Optional<Judged> random(List<Result> rs) {
        Optional<Result> one = ok(rs, "rand_read_direct_qd1"), many = ok(rs, "rand_read_direct_uring_qd32"), cold = ok(rs, "rand_read_cold_qd1");
        Optional<Result> base = one.isPresent() ? one : cold;
        if (base.isEmpty()) return Optional.empty();
        Result br = base.get();
        Stats b = br.value();
        List<Evidence> read = new ArrayList<>(List.of(evidence(br)));
        StringBuilder f = new StringBuilder(String.format(Locale.ROOT, "Small random reads (a dataset of 4 KiB samples): %,.0f IOPS one at a time", b.median()));
        if (br.detail() instanceof ReadDetail d && d.latencyUs() != null) {
            f.append(String.format(Locale.ROOT, " (%.0f us each at p50)", d.latencyUs().p50()));
            read.add(Evidence.of(br.key() + "_p50", d.latencyUs().p50(), Unit.US));
        }
        if (many.isEmpty()) return Optional.of(new Judged(IoRules.RANDOM_DEPTH, Severity.INFO, f.toString(), f.toString(), read));
        Result m = many.get();
        read.add(evidence(m));
        double x = m.value().median() / b.median();
        f.append(String.format(Locale.ROOT, ", %,.0f IOPS with 32 in flight (%.1fx)", m.value().median(), x));
        String figures = f.toString();
        return Optional.of(switch (versus(m.value(), b)) {
            case ABOVE -> x >= DEPTH_PAYS
                    ? new Judged(IoRules.RANDOM_DEPTH, Severity.WARN, figures, figures
                            + ": a loader of small samples needs many reads in flight: more DataLoader workers, or batched async reads", read)
                    : new Judged(IoRules.RANDOM_DEPTH, Severity.INFO, figures, figures
                            + String.format(Locale.ROOT, ": %.0f%% more from a deeper queue; more DataLoader workers help a little", (x - 1) * 100), read);
            case EVEN -> new Judged(IoRules.RANDOM_DEPTH, Severity.INFO, figures, figures + ": " + evenBecause(m.value(), b)
                    + "; this device does not gain from a deeper queue", read);
            // the same reads with a deeper queue do not make a device slower: doubted, not advised on
            case BELOW -> new Judged(IoRules.RANDOM_DEPTH, Severity.UNKNOWN, figures, figures + ": 32 in flight slower than one at a time, beyond"
                    + " both runs' spreads: not a property of the disk a loader should act on, but of the measurement, the device's queue or"
                    + " another load on the machine; run again, and compare with fio's job" + fio(m), read);
        });
    }

    /** Saving: how fast into the page cache and to the disk; on tmpfs there is no disk. */
    static Optional<Judged> save(List<Result> rs, boolean inMemory) {
        Optional<Result> buffered = ok(rs, "write_buffered"), synced = ok(rs, "write_fsync");
        if (buffered.isEmpty() && synced.isEmpty()) return Optional.empty();
        List<Evidence> read = new ArrayList<>();
        buffered.ifPresent(b -> read.add(evidence(b)));
        synced.ifPresent(f -> {
            read.add(evidence(f));
            if (f.detail() instanceof WriteDetail w && w.fsyncMs() != null) read.add(Evidence.of(f.key() + "_fsync", w.fsyncMs().median(), Unit.MS));
        });
        if (inMemory) {
            String figures = "Saving a checkpoint: " + buffered.map(b -> String.format(Locale.ROOT, "%.2f GB/s into tmpfs", b.value().median())).orElse("into tmpfs");
            return Optional.of(new Judged(IoRules.SAVE, Severity.INFO, figures, figures + ", which is memory: nothing there reaches a disk and a"
                    + " reboot loses it, so fsync has nothing to wait for; copy a checkpoint saved here to a disk before relying on it", read));
        }
        StringBuilder f = new StringBuilder("Saving a checkpoint: ");
        buffered.ifPresent(b -> f.append(String.format(Locale.ROOT, "%.2f GB/s into the page cache", b.value().median())));
        synced.ifPresent(s -> f.append(buffered.isPresent() ? ", " : "").append(String.format(Locale.ROOT, "%.2f GB/s with fsync", s.value().median())));
        String figures = f.toString();
        if (buffered.isPresent() && synced.isPresent() && versus(synced.get().value(), buffered.get().value()) == Versus.ABOVE) {
            // the fsync run writes the same bytes and then waits for the disk: it cannot be the faster of the two
            return Optional.of(new Judged(IoRules.SAVE, Severity.UNKNOWN, figures, figures + ": with fsync faster than without, beyond both runs'"
                    + " spreads, which the same writes followed by a wait for the disk cannot be: it points at the measurement or another load"
                    + " on the machine; run again, and compare with fio's jobs" + fio(buffered.get()) + " and" + fio(synced.get()), read));
        }
        StringBuilder s = new StringBuilder(figures);
        synced.ifPresent(x -> s.append(String.format(Locale.ROOT, ", so 10 GB take %.0f s to be safe on disk", 10 / x.value().median())));
        s.append(": save from a background thread or process (torch.distributed.checkpoint's async_save) so the training step does not wait on the disk");
        return Optional.of(new Judged(IoRules.SAVE, Severity.INFO, figures, s.toString(), read));
    }
}
