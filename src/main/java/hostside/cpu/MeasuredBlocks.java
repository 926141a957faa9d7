package hostside.cpu;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import hostside.core.CpuSet;
import hostside.core.Distribution;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.SchedCosts;
import hostside.doc.Block.Axis;
import hostside.doc.Block.Histogram;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.FiguresTable;
import hostside.doc.Text;
import hostside.harness.Result;
import hostside.harness.Status;

/**
 * The measured part of Module 3's document: what the scheduler charges, as a table of medians
 * with min and max; timer and launch jitter, as a table of its quantiles per condition (the timer
 * alone first: refs timer's figures) and a histogram of each condition's lateness with p50, p99
 * and p99.9 marked.
 */
final class MeasuredBlocks {
    private MeasuredBlocks() {}

    static List<Block> of(CpuDrill.Measured m) {
        if (m.results().isEmpty()) return List.of();
        Set<String> whys = new LinkedHashSet<>();
        m.results().forEach(x -> whys.add(x.isOk() ? "" : x.why()));
        // one reason for every case (a recording, no libc): one line says it
        if (whys.size() == 1 && !whys.contains("")) return List.of(new Section("Measurements", List.of(Note.of("not run: " + whys.iterator().next()))));
        List<Block> out = new ArrayList<>();
        List<Result> sched = m.results().stream().filter(x -> !LaunchJitter.isJitter(x.key())).toList();
        List<Result> jitter = m.results().stream().filter(x -> LaunchJitter.isJitter(x.key())).toList();
        if (!sched.isEmpty()) out.add(scheduler(sched));
        if (!jitter.isEmpty()) out.add(jitter(m, jitter));
        return out;
    }

    static Section scheduler(List<Result> rs) {
        FiguresTable t = new FiguresTable("measurement", true, new Column("CPUs", Align.LEFT));
        List<Block> notes = new ArrayList<>();
        for (Result x : rs) {
            if (!x.isOk()) {
                t.notRun(x.key(), x.status() + ": " + x.why());
                continue;
            }
            t.add(Text.code(x.key()), x.value(), x.unit(), Text.of(cpus(x)));
            if (x.detail() instanceof SchedCosts.Syscall.Detail d) {
                notes.add(new Note(Text.code(x.key()).plain(": the whole call, as a C loop calling syscall(2) makes it; the kernel's own share is " + Units.figure(d.kernelNs())
                        + " ns; a native call that stays in user space (labs(3), linked the same way) costs " + Units.figure(d.nativeCallNs()) + " ns, measured apart")));
            }
        }
        List<Block> b = new ArrayList<>();
        b.add(Paragraph.of("Median of the samples, with min and max."));
        b.add(t.table());
        b.addAll(notes);
        return new Section("What the scheduler charges", b);
    }

    /** The CPUs a scheduler case was pinned to; "" for one that was not. */
    static String cpus(Result x) {
        CpuSet c = switch (x.detail()) {
            case SchedCosts.PingPong.Detail d -> d.cpus();
            case SchedCosts.Wakeup.Detail d -> d.cpus();
            case SchedCosts.Migration.Detail d -> d.cpus();
            case null, default -> null;
        };
        return c == null ? "" : c.toList();
    }

    static Section jitter(CpuDrill.Measured m, List<Result> rs) {
        List<Block> b = new ArrayList<>();
        String timer = "The timer conditions run refs timer's loop (cyclictest's, without SCHED_FIFO) in a JVM thread: sleep to each tick of a fixed"
                + " cadence, lateness = wake time - tick, ticks already passed skipped and counted as missed; their p99, p99.9 and missed ticks are the"
                + " C loop's figures.";
        String launches = !m.gpu().isEmpty()
                ? " The launch conditions add an empty kernel on " + m.gpu() + " each tick: their lateness less the timer's is the launch's own share."
                : " No GPU" + (m.noGpu().isEmpty() ? "" : " (" + m.noGpu() + ")") + ": the launch conditions are not run.";
        b.add(Paragraph.of(timer + launches + " Lateness of each wake-up after its tick, time of each launch call and the gap from one launch to the next, us."));
        // conditions not run (the launch ones without a GPU) are named once per reason under the table, not as rows as wide as the reason
        List<Result> shown = rs.stream().filter(x -> x.status() != Status.NOT_RUN).toList();
        if (!shown.isEmpty()) b.add(table(shown));
        java.util.Map<String, List<String>> notRun = new java.util.LinkedHashMap<>();
        for (Result x : rs) if (x.status() == Status.NOT_RUN) notRun.computeIfAbsent(x.why(), k -> new ArrayList<>()).add(condition(x));
        notRun.forEach((why, which) -> b.add(Note.of("not run: " + String.join(", ", which) + " (" + why + ")")));
        b.add(Note.of("missed: ticks that had passed by the time the feeder woke, skipped and counted as refs timer and cyclictest do"));
        b.add(Note.of("hogs: one process per CPU spinning in user space (no syscall, no fork), in hostside's session, placed by the scheduler, as refs hog's"));
        List<String> compiled = new ArrayList<>();
        for (Result x : rs) {
            if (x.isOk() && x.detail() instanceof LaunchJitter.Detail d && d.jitInRecordingMs() != null && d.jitInRecordingMs() > 0) {
                compiled.add(condition(x) + " " + d.jitInRecordingMs() + " ms");
            }
        }
        if (!compiled.isEmpty()) {
            // which code was compiled the JVM does not say: on the dev VM, 1-2 ms of other threads' code; the feeder's own code
            // was compiled inside a recording twice before it was mended, the tick after a first burst (reverted,
            // docs/measurements/2026-12-07-tick-burst-devvm.md) and the recording's loop on the stack (H100: 11 ms,
            // docs/measurements/2026-12-08-minute-cuts.md)
            b.add(Note.of("the JIT compiled during the recording (" + String.join(", ", compiled) + "): a compiler thread ran beside the feeder,"
                    + " and that condition's tail may carry it"));
        }
        for (Result x : rs) {
            if (!x.isOk() || !(x.detail() instanceof LaunchJitter.Detail d)) continue;
            if (d.lateNs().histogram().isEmpty()) {
                b.add(Note.of(condition(x) + ": no histogram of the lateness (a run from before hostside kept one)"));
                continue;
            }
            b.add(histogram(condition(x), d));
        }
        return new Section("Timer and launch jitter", b);
    }

    static Block.Table table(List<Result> rs) {
        String[] heads = {"condition", "late p50", "p99", "p99.9", "max", "missed", "launch p50", "p99", "p99.9", "max", "gap p99", "max"};
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < heads.length; i++) cols.add(new Column(heads[i], i == 0 ? Align.LEFT : Align.RIGHT));
        List<List<Text>> rows = new ArrayList<>();
        for (Result x : rs) {
            List<Text> row = new ArrayList<>();
            row.add(Text.of(condition(x)));
            if (!x.isOk() || !(x.detail() instanceof LaunchJitter.Detail d)) {
                row.add(Text.of(x.isOk() ? "no detail kept" : x.status() + ": " + x.why()));
                while (row.size() < heads.length) row.add(Text.of(""));
                rows.add(row);
                continue;
            }
            Distribution late = d.lateNs(), launch = d.launchNs(), gap = d.gapNs();
            for (String s : List.of(us(late, Distribution::p50), us(late, Distribution::p99), us(late, Distribution::p999), us(late, Distribution::max),
                    missed(x, d), us(launch, Distribution::p50), us(launch, Distribution::p99), us(launch, Distribution::p999), us(launch, Distribution::max),
                    us(gap, Distribution::p99), us(gap, Distribution::max))) {
                row.add(Text.of(s));
            }
            rows.add(row);
        }
        return new Block.Table(cols, rows);
    }

    /** The condition's name: timer quiet, timer noisy, quiet, noisy, pinned, graph. */
    static String condition(Result x) {
        return LaunchJitter.Condition.of(x.key()).map(LaunchJitter.Condition::label).orElse(x.key());
    }

    /** Ticks skipped, with their share of all ticks, and a mark where the time bound cut the run. */
    static String missed(Result x, LaunchJitter.Detail d) {
        long n = d.missedTicks();
        String share = n == 0 ? "0" : String.format(Locale.ROOT, "%d (%.1f%%)", n, 100 * d.missedShare(x.value().samples()));
        return d.stoppedAtTimeBound() ? share + ", cut at time bound" : share;
    }

    /** A quantile of a series in ns, in us with one decimal; "-" where the series was not kept. */
    static String us(Distribution ns, ToDoubleFunction<Distribution> q) {
        return ns == null ? "-" : String.format(Locale.ROOT, "%.1f", q.applyAsDouble(ns) / 1e3);
    }

    /** The lateness of one condition, in us on a log axis (the tail spans decades), with its p50, p99 and p99.9 marked. */
    static Histogram histogram(String condition, LaunchJitter.Detail d) {
        Distribution late = d.lateNs();
        List<Histogram.Bar> bars = late.histogram().stream().map(k -> new Histogram.Bar(k.from() / 1e3, k.to() / 1e3, k.count())).toList();
        List<Histogram.Mark> marks = List.of(new Histogram.Mark("p50", late.p50() / 1e3), new Histogram.Mark("p99", late.p99() / 1e3),
                new Histogram.Mark("p99.9", late.p999() / 1e3));
        return new Histogram("Wake-up lateness, " + condition + " (" + how(d) + ")", new Axis("lateness", Unit.US, true), bars, marks);
    }

    /** What ran beside the feeder, in a few words. */
    static String how(LaunchJitter.Detail d) {
        List<String> s = new ArrayList<>();
        if (d.feederCpu() != null) s.add("feeder on CPU " + d.feederCpu());
        s.add(d.hogCpus() == null || d.hogCpus().isEmpty() ? "no hogs" : "hogs on CPUs " + d.hogCpus());
        if (d.kernelsPerLaunch() != null) s.add(d.kernelsPerLaunch() + " kernels per launch");
        s.add(String.format(Locale.ROOT, "%d wake-ups", d.lateNs().count()));
        return String.join(", ", s);
    }
}
