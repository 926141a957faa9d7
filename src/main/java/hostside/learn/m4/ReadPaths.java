package hostside.learn.m4;

import static hostside.learn.Figs.f;
import static hostside.learn.Figs.in;
import static hostside.learn.Figs.n;
import static hostside.learn.Figs.ratio;
import static hostside.learn.Figs.x;

import java.util.List;
import java.util.Optional;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Versus;
import hostside.io.IoRules;
import hostside.io.MeasuredVerdicts;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs.Value;
import hostside.learn.Inputs;
import hostside.learn.Judgement;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.report.Report;

/**
 * Module 4's read paths: a checkpoint read through the page cache cold, read again warm, read
 * with O_DIRECT one request at a time and with io_uring keeping 32 in flight, then a checkpoint
 * saved with fsync; each with this machine's figure from hostside io (seq_read_cold_qd1,
 * seq_read_warm_qd1, seq_read_direct_qd1, seq_read_direct_uring_qd32, write_fsync: sequential
 * 1 MiB requests, GB/s). Which path loads fastest is the report's finding of M4-LOAD-PATH where it
 * drew one, quoted; a load the report did not judge (measured busy, or 32 in flight doubted) is
 * answered "cannot tell". Without it the paths are ordered as hostside.io's verdicts order them: a
 * path within a tenth of the fastest, or within the samples' spread where the figures carry one
 * (core.Versus, the rule's own comparison), counts as even with it.
 */
public final class ReadPaths implements Stepper {
    /** What the typical figures are typical of. */
    static final String TYPICAL = "a PCIe Gen4 NVMe SSD";
    /** The checkpoint the times are given for, GB (10^9 bytes), as the I/O drill's saving verdict counts. */
    static final double CHECKPOINT_GB = 10;
    /** A gain below this share of the slower figure is no reason to change a loader (MeasuredVerdicts.MATERIAL). */
    static final double MATERIAL = MeasuredVerdicts.MATERIAL;
    /** How much faster than cold a warm read must be for the prediction's "yes". */
    static final double WARM_TIMES = 10;

    static final int W = Svg.WIDTH, H = Svg.HEIGHT;

    @Override
    public String key() {
        return "read-paths";
    }

    @Override
    public int module() {
        return 4;
    }

    @Override
    public String title() {
        return "A checkpoint read through the page cache, with O_DIRECT and with io_uring, then saved with fsync";
    }

    /** The drawing's scene: which arrows carry the bytes. */
    enum Scene { OVERVIEW, COLD, WARM, DIRECT, URING, SAVE }

    @Override
    public List<Frame> frames(Inputs in) {
        Value cold = in.value("seq_read_cold_qd1", 2.5, Unit.GB_PER_S, TYPICAL), warm = in.value("seq_read_warm_qd1", 10, Unit.GB_PER_S, TYPICAL);
        Value direct = in.value("seq_read_direct_qd1", 2.5, Unit.GB_PER_S, TYPICAL), uring = in.value("seq_read_direct_uring_qd32", 6.5, Unit.GB_PER_S, TYPICAL);
        Value fsync = in.value("write_fsync", 2, Unit.GB_PER_S, TYPICAL);
        Value coldP50 = time(in.value("seq_read_cold_qd1_p50", 100, Unit.US, TYPICAL)), coldP99 = time(in.value("seq_read_cold_qd1_p99", 3000, Unit.US, TYPICAL));
        Value directP50 = time(in.value("seq_read_direct_qd1_p50", 420, Unit.US, TYPICAL));
        Value uringP50 = time(in.value("seq_read_direct_uring_qd32_p50", 5000, Unit.US, TYPICAL));
        Value held = in(in.value("seq_read_warm_qd1_page_cache", 2L << 30, Unit.BYTES, "the drill's file of 2 GiB"), Unit.GIB);
        Value fsyncMs = in(in.value("write_fsync_fsync", 350, Unit.MS, TYPICAL), Unit.MS);

        Frames fr = new Frames();
        fr.add("A checkpoint on disk, a GPU waiting",
                f("Loading a %s GB checkpoint means moving it from the disk into the process, then to the GPU. The kernel offers three ways: "
                        + "read() through the page cache, O_DIRECT straight into the process's buffer, and O_DIRECT with many reads in flight "
                        + "(io_uring). %s", n(CHECKPOINT_GB), cold.mine() || fsync.mine()
                        ? "hostside's I/O drill read one file each way in 1 MiB requests on " + in.machine() + "."
                        : "Without a report of this machine the figures are typical ones, of " + TYPICAL + "."),
                null, paths(Scene.OVERVIEW, null), cold, direct, uring);

        Optional<Report.Concluded> load = in.finding(IoRules.LOAD_PATH, cold, direct, uring);
        fr.add("read(), cold: through the page cache",
                f("Each read() finds the file's pages missing; the kernel reads them from the disk by DMA into the page cache, reading ahead of "
                        + "the request, then copies them into the process's buffer. Cold, that gives %s: a %s GB checkpoint in %s s. A 1 MiB "
                        + "read returned in %s at p50 and %s at p99: most find readahead's pages already there, a few wait for the disk.",
                        cold.shown(), n(CHECKPOINT_GB), n(seconds(cold)), coldP50.shown(), coldP99.shown()),
                fastestPredict(cold, direct, uring, load), paths(Scene.COLD, cold), cold, coldP50, coldP99);

        double warmX = ratio(warm.value(), cold.value());
        fr.add("Read again, warm: from the page cache",
                f("Read again while its pages are still cached, the file comes at %s, %s the cold read: no disk, only the copy into the "
                        + "process's buffer, at memory speed. That cache held %s of memory, which DataLoader workers and pinned buffers also "
                        + "need: drop it after loading (posix_fadvise DONTNEED) or read the checkpoint with O_DIRECT.",
                        warm.shown(), x(warmX), held.shown()),
                warmPredict(cold, warm), paths(Scene.WARM, warm), warm, cold, held);

        fr.add("O_DIRECT: past the cache",
                f("With O_DIRECT the device writes by DMA straight into the process's buffer, which must be aligned (to the logical block "
                        + "size, usually 4 KiB): no copy and no cached pages left behind, but no readahead either. One read at a time gives "
                        + "%s, each 1 MiB read waiting %s at p50 for the device, which idles between one request and the next.",
                        direct.shown(), directP50.shown()),
                null, paths(Scene.DIRECT, direct), direct, directP50);

        double deep = ratio(uring.value(), direct.value());
        fr.add("io_uring: 32 reads in flight",
                f("io_uring keeps 32 O_DIRECT reads queued at the device, so it always has the next one. That gives %s, %s one at a time; "
                        + "each read now waits %s at p50, behind the others in the queue: what counts is the bytes per second. %s",
                        uring.shown(), x(deep), uringP50.shown(),
                        Judgement.unjudged(load) ? Judgement.quote(load.get())
                                : deep > 1 + MATERIAL ? "This device serves several requests at once: keep many in flight (parallel readers, io_uring, GPUDirect Storage's cuFile)."
                                : deep * (1 + MATERIAL) >= 1 ? "More in flight adds nothing here: one request at a time already keeps this device busy."
                                : "This device does worse with a deep queue: keep few reads in flight."),
                deepPredict(direct, uring, load), paths(Scene.URING, uring), uring, direct, uringP50);

        fr.add("Which path, on this machine", loaderVerdict(cold, direct, uring, load)
                        + f(" Warm from the cache: %s, but only for a file read before and still cached.", warm.shown()),
                null, comparison(cold, warm, direct, uring), cold, warm, direct, uring);

        fr.add("Saving: write, then fsync",
                f("A save copies the checkpoint into the page cache (write) and waits for the disk to have it (fsync): %s with fsync, so a %s GB "
                                + "checkpoint takes %s s to be safe on disk; the closing fsync of each file the drill wrote took %s. Save from a "
                                + "background thread or process (torch.distributed.checkpoint's async save) so the training step does not wait on the disk.",
                        fsync.shown(), n(CHECKPOINT_GB), n(seconds(fsync)), fsyncMs.shown()),
                null, paths(Scene.SAVE, fsync), fsync, fsyncMs);
        return fr.list();
    }

    /** A latency in us, or in ms from 1000 us up. */
    static Value time(Value v) {
        Value us = in(v, Unit.US);
        return us.unit().equals(Unit.US) && us.value() >= 1000 ? in(us, Unit.MS) : us;
    }

    static double seconds(Value gbPerS) {
        return gbPerS.value() > 0 ? CHECKPOINT_GB / gbPerS.value() : 0;
    }

    // ---- predictions ----

    static final List<String> PATHS = List.of("read() through the page cache", "O_DIRECT, one read at a time", "O_DIRECT with io_uring, 32 in flight");

    /**
     * The fastest of the three load paths; "even" (3) when the slowest is even with the fastest by
     * the I/O rule's comparison: within {@link #MATERIAL} of it, or within either figure's spread
     * where both carry one (core.Versus, as hostside.io judges M4-LOAD-PATH).
     */
    static int fastest(Value cold, Value direct, Value uring) {
        List<Value> v = List.of(cold, direct, uring);
        int best = 0, slowest = 0;
        for (int i = 1; i < 3; i++) {
            if (v.get(i).value() > v.get(best).value()) best = i;
            if (v.get(i).value() < v.get(slowest).value()) slowest = i;
        }
        return even(v.get(best), v.get(slowest)) ? 3 : best;
    }

    /** Whether two read speeds are even by the I/O rule's comparison; by {@link #MATERIAL} alone where either carries no spread. */
    static boolean even(Value a, Value b) {
        if (Double.isNaN(a.min()) || Double.isNaN(a.max()) || Double.isNaN(b.min()) || Double.isNaN(b.max())) {
            return Math.max(a.value(), b.value()) <= (1 + MATERIAL) * Math.min(a.value(), b.value());
        }
        return Versus.of(new Stats(a.value(), a.min(), a.max(), 0), new Stats(b.value(), b.min(), b.max(), 0), MATERIAL) == Versus.EVEN;
    }

    /** Which path is fastest; "cannot tell" where the report's M4-LOAD-PATH did not judge the reads, its finding the why where it drew one. */
    static Frame.Predict fastestPredict(Value cold, Value direct, Value uring, Optional<Report.Concluded> judged) {
        int answer = Judgement.unjudged(judged) ? 4 : fastest(cold, direct, uring);
        List<String> choices = new java.util.ArrayList<>(PATHS);
        choices.add("all three within a tenth of each other, or within noise");
        choices.add("cannot tell: the report did not judge these reads");
        return new Frame.Predict("Which path loads a checkpoint fastest on this machine?", choices, answer,
                f("Through the page cache %s, with O_DIRECT %s, with 32 in flight %s.", cold.shown(), direct.shown(), uring.shown())
                        + judged.map(c -> " " + Judgement.quote(c))
                        .orElse(answer == 3 ? " Even with each other: choose by memory, not speed." : " The next frames show why."));
    }

    static Frame.Predict warmPredict(Value cold, Value warm) {
        double r = ratio(warm.value(), cold.value());
        return new Frame.Predict("Is the warm read (the file still in the page cache) more than " + n(WARM_TIMES) + "x faster than the cold one here?",
                List.of("yes, more than " + n(WARM_TIMES) + "x", "no, less than " + n(WARM_TIMES) + "x"), r > WARM_TIMES ? 0 : 1,
                f("Warm %s against cold %s: %s. A warm read is bounded by one thread's copy from memory; a cold one by the device and readahead.",
                        warm.shown(), cold.shown(), x(r)));
    }

    /** Whether 32 in flight beat one at a time, by a tenth; "cannot tell" where the report did not judge the reads (M4-LOAD-PATH unknown). */
    static Frame.Predict deepPredict(Value direct, Value uring, Optional<Report.Concluded> judged) {
        double r = ratio(uring.value(), direct.value());
        int answer = Judgement.unjudged(judged) ? 3 : r > 1 + MATERIAL ? 0 : r * (1 + MATERIAL) >= 1 ? 1 : 2;
        return new Frame.Predict("Will 32 reads in flight beat one at a time on this machine?",
                List.of("yes, by more than a tenth", "no: within a tenth", "no: slower", "cannot tell: the report did not judge these reads"), answer,
                f("32 in flight %s against one at a time %s: %s. A device with many internal queues (NVMe) gains; one that already runs flat out "
                        + "on one request (a virtual disk capped by its host, one spinning disk) does not.", uring.shown(), direct.shown(), x(r))
                        + judged.map(c -> " " + Judgement.quote(c)).orElse(""));
    }

    /** The loading verdict: the report's M4-LOAD-PATH where it drew one, else in hostside.io's words on these figures. */
    static String loaderVerdict(Value cold, Value direct, Value uring, Optional<Report.Concluded> judged) {
        int best = fastest(cold, direct, uring);
        String figures = f("Loading a %s GB checkpoint: %s s through the page cache, %s s with O_DIRECT, %s s with 32 in flight.", n(CHECKPOINT_GB),
                n(seconds(cold)), n(seconds(direct)), n(seconds(uring)));
        if (judged.isPresent()) return figures + " " + Judgement.quote(judged.get());
        return figures + switch (best) {
            case 0 -> " The page cache's readahead keeps up with the device here: plain buffered reads (torch.load, safetensors) are fine.";
            case 1 -> " O_DIRECT alone is the fastest path here; more reads in flight do not help this device.";
            case 2 -> " Keep many reads in flight and skip the page cache for a file read once: parallel readers, io_uring, or GPUDirect Storage's cuFile.";
            default -> " The paths are even, within a tenth of each other or within their samples' spread: choose by memory, not speed (O_DIRECT keeps the checkpoint out of the page cache).";
        };
    }

    // ---- drawings ----

    static String paths(Scene scene, Value figure) {
        Svg s = new Svg(W, H);
        boolean save = scene == Scene.SAVE;
        s.box(20, 100, 120, 60, "disk\n(the file)", scene == Scene.WARM ? "dim" : "on");
        s.box(250, 20, 150, 60, "page cache\n(kernel memory)", switch (scene) {
            case COLD, WARM, SAVE -> "on";
            default -> "dim";
        });
        s.box(250, 170, 150, 60, "process's buffer" + (scene == Scene.DIRECT || scene == Scene.URING ? "\n(aligned)" : ""), scene == Scene.OVERVIEW ? "dim" : "on");
        s.box(510, 170, 110, 60, "GPU memory", "dim");
        s.arrow(400, 200, 510, 200, "cudaMemcpy", "dim");
        if (save) {
            s.arrow(325, 170, 325, 80, "", "on");
            s.text(333, 130, "write: copy", "start", "on");
            s.arrow(250, 60, 140, 115, "fsync: writeback", "hot");
        } else {
            s.arrow(140, 115, 250, 55, scene == Scene.COLD ? "DMA + readahead" : "", scene == Scene.COLD ? "hot" : "dim");
            String copy = switch (scene) {
                case WARM -> "hot";
                case COLD -> "on";
                default -> "dim";
            };
            s.arrow(325, 80, 325, 170, "", copy);
            if (scene == Scene.COLD || scene == Scene.WARM) s.text(333, 130, "copy", "start", copy);
            s.arrow(140, 145, 250, 200, scene == Scene.DIRECT ? "DMA, 1 at a time" : scene == Scene.URING ? "DMA, 32 in flight" : "O_DIRECT",
                    scene == Scene.DIRECT || scene == Scene.URING ? "hot" : "dim");
        }
        if (scene == Scene.URING) {
            for (int i = 0; i < 8; i++) s.bar(30 + i * 13, 178, 9, 14, "hot");
            s.text(80, 210, "32 requests queued", "middle", "hot");
        }
        if (figure != null) {
            s.text(630, 40, n(figure.value()) + " " + figure.unit() + (figure.mine() ? "" : " (typical)"), "end", "hot");
            s.text(630, 58, n(CHECKPOINT_GB) + " GB in " + n(seconds(figure)) + " s", "end", "on");
        }
        return s.render(switch (scene) {
            case OVERVIEW -> "The disk, the page cache, the process's buffer and the GPU: the ways a checkpoint can travel";
            case COLD -> "A cold read: the disk fills the page cache by DMA with readahead, then read() copies into the process's buffer";
            case WARM -> "A warm read: the pages are cached, read() only copies them into the process's buffer";
            case DIRECT -> "O_DIRECT: the disk writes straight into the process's aligned buffer, one request at a time";
            case URING -> "io_uring: 32 O_DIRECT requests queued at the device at once";
            case SAVE -> "A save: write copies into the page cache, fsync waits until the disk has it";
        } + (figure == null ? "" : ", " + n(figure.value()) + " " + figure.unit()));
    }

    /** The four reads as bars, GB/s, with the checkpoint's load time. */
    static String comparison(Value cold, Value warm, Value direct, Value uring) {
        Svg s = new Svg(W, H);
        List<Value> vs = List.of(cold, warm, direct, uring);
        List<String> names = List.of("cold, page cache", "warm, page cache", "O_DIRECT", "io_uring, 32");
        double max = 0;
        for (Value v : vs) max = Math.max(max, v.value());
        double x0 = 150, w = 330, k = max > 0 ? w / max : 0;
        int best = fastest(cold, direct, uring);
        s.text(8, 20, "GB/s (10^9 bytes a second), and a " + n(CHECKPOINT_GB) + " GB checkpoint's time", "start", "on");
        for (int i = 0; i < vs.size(); i++) {
            Value v = vs.get(i);
            double y = 40 + i * 52;
            boolean lit = i == 1 ? false : best == 3 || best == (i == 0 ? 0 : i - 1);
            s.text(8, y + 22, names.get(i), "start", i == 1 ? "dim" : "on");
            s.bar(x0, y + 8, v.value() * k, 24, i == 1 ? "dim" : lit ? "ok" : "on");
            s.text(x0 + v.value() * k + 6, y + 25, n(v.value()) + " GB/s" + (v.mine() ? "" : " (typical)"), "start", "on");
            s.text(632, y + 25, n(seconds(v)) + " s", "end", lit ? "ok" : "dim");
        }
        s.text(8, 252, "warm: only for a file read before and still cached", "start", "dim");
        return s.render("Sequential read speed of the four paths in GB/s; fastest load path: "
                + (best == 3 ? "all three even" : PATHS.get(best)));
    }
}
