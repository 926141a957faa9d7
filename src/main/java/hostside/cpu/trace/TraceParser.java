package hostside.cpu.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Reads a timed trace ({@code strace -f -tt -T -o FILE}) line by line into a {@link TimedTrace},
 * holding sums only, so that a trace of millions of lines costs no more memory than a short one.
 *
 * <p>A call split across an {@code <unfinished ...>} line and its {@code <... resumed>} line
 * counts once, when it returns, with the arguments of both halves (a futex's operation and an
 * ioctl's descriptor are in the first half). Descriptors are followed through the trace
 * ({@link FdTables}); lines that cannot be read are counted, never fatal.
 *
 * <p>A workload can mark the steps it wants profiled by stat()ing two paths that do not exist,
 * {@value #MARK}steps-begin before its timed loop and {@value #MARK}steps-end/N after it (N the
 * number of steps); hostside's built-in step does. The calls between the marks then also make a
 * {@link TimedTrace#window() window} of their own: a call counts there when it returns inside,
 * and its time counts for the part of it that lies inside. The marks themselves count nowhere.
 */
public final class TraceParser {
    /** The prefix of the paths a workload stat()s to mark its steps. */
    public static final String MARK = "/.hostside-trace-mark/";

    private record Pending(String name, String args, double start) {}

    private static final class Acc {
        long calls, errors;
        double seconds;
    }

    /** Who a thread is: shared by the whole run and the window. */
    private static final class Who {
        int process;
        String name = "";

        Who(int tid) {
            this.process = tid;
        }
    }

    private static final class TidSums {
        long calls;
        double seconds, first = Double.NaN, last = Double.NaN;
        final EnumMap<SyscallGroup, double[]> groups = new EnumMap<>(SyscallGroup.class);
        final EnumMap<SyscallGroup, long[]> groupCalls = new EnumMap<>(SyscallGroup.class);
    }

    /** Sums over a stretch of the trace: the whole of it, or the marked steps. */
    private static final class Sink {
        final EnumMap<SyscallGroup, Map<String, Acc>> sums = new EnumMap<>(SyscallGroup.class);
        final Map<Integer, TidSums> threads = new LinkedHashMap<>();
        final Map<String, Long> nvidia = new TreeMap<>();
        long signals, readCalls, readBytes, processes, threadsStarted, inProgress;

        TidSums tid(int pid) {
            return threads.computeIfAbsent(pid, p -> new TidSums());
        }

        void seen(int pid, double rel) {
            TidSums t = tid(pid);
            if (!Double.isNaN(rel)) {
                if (Double.isNaN(t.first)) t.first = rel;
                t.last = rel;
            }
        }

        void count(int pid, String name, SyscallGroup g, boolean error, double seconds, boolean call) {
            Acc a = sums.computeIfAbsent(g, k -> new HashMap<>()).computeIfAbsent(name, k -> new Acc());
            TidSums t = tid(pid);
            if (call) {
                a.calls++;
                t.calls++;
                t.groupCalls.computeIfAbsent(g, k -> new long[1])[0]++;
                if (error) a.errors++;
            }
            a.seconds += seconds;
            t.seconds += seconds;
            t.groups.computeIfAbsent(g, k -> new double[1])[0] += seconds;
        }
    }

    private final FdTables fds;
    private final Map<Integer, Who> who = new HashMap<>();
    private final Map<Integer, Pending> pending = new HashMap<>();
    private final Sink all = new Sink();
    private Sink window;
    private double windowBegin = Double.NaN, windowEnd = Double.NaN;
    private int windowSteps;
    private final List<String> garbageSamples = new ArrayList<>();
    private double origin = Double.NaN, minRel = Double.NaN, maxRel = Double.NaN;
    private int firstPid = -1;
    private long lines, garbage, unmatched;

    private TraceParser(FdSeed seed) {
        FdSeed s = seed == null ? FdSeed.NONE : seed;
        this.fds = new FdTables(s);
        for (int tid : s.tids()) {
            Who w = who(tid);
            w.process = (int) s.pid();
            w.name = s.names().getOrDefault(tid, "");
        }
        if (s.pid() > 0) firstPid = (int) s.pid();
    }

    public static TimedTrace parse(Path file, FdSeed seed) throws IOException {
        // strace escapes every byte that is not printable ASCII, so one byte is one character
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            return parse(r, seed);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    public static TimedTrace parse(String text) {
        try {
            return parse(new BufferedReader(new StringReader(text)), FdSeed.NONE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static TimedTrace parse(BufferedReader in, FdSeed seed) throws IOException {
        TraceParser p = new TraceParser(seed);
        String line;
        while ((line = in.readLine()) != null) p.line(line);
        return p.finish();
    }

    private void line(String raw) {
        if (raw.isBlank()) return;
        lines++;
        TraceLine l = TraceLine.parse(raw);
        double rel = rel(l.time());
        switch (l) {
            case TraceLine.Call c -> {
                seen(c.pid(), rel);
                double d = Double.isNaN(c.duration()) ? 0 : c.duration();
                done(c.pid(), rel, rel + d, c.name(), c.args(), c.ret(), c.errno(), d);
            }
            case TraceLine.Unfinished u -> {
                seen(u.pid(), rel);
                Pending old = pending.put(u.pid(), new Pending(u.name(), u.args(), rel));
                if (old != null) endedWithoutReturn(u.pid(), old, rel);
            }
            case TraceLine.Resumed r -> {
                seen(r.pid(), rel);
                Pending p = pending.remove(r.pid());
                double d = Double.isNaN(r.duration()) ? (p == null ? 0 : Math.max(0, rel - p.start())) : r.duration();
                if (p != null && p.name().equals(r.name())) {
                    done(r.pid(), rel - d, rel, r.name(), join(p.args(), r.args()), r.ret(), r.errno(), d);
                } else {
                    if (p != null) endedWithoutReturn(r.pid(), p, rel);
                    unmatched++;
                    done(r.pid(), rel - d, rel, r.name(), null, r.ret(), r.errno(), d);
                }
            }
            case TraceLine.Detached d -> {
                seen(d.pid(), rel);
                Pending p = pending.remove(d.pid());
                String args = p != null && p.name().equals(d.name()) ? join(p.args(), d.args()) : d.args();
                double start = p != null ? p.start() : rel;
                // strace let go of the thread in the middle of this call: it never returned while traced
                all.inProgress++;
                if (inWindow(rel)) window.inProgress++;
                count(d.pid(), d.name(), SyscallGroup.of(d.name(), args, fds.of(d.pid())), false, start, rel, span(start, rel));
            }
            case TraceLine.Signal s -> {
                seen(s.pid(), rel);
                all.signals++;
                if (inWindow(rel)) window.signals++;
            }
            case TraceLine.Exit e -> {
                seen(e.pid(), rel);
                Pending p = pending.remove(e.pid());
                if (p != null) endedWithoutReturn(e.pid(), p, rel);
            }
            case TraceLine.Message m -> { }
            case TraceLine.Garbage g -> {
                garbage++;
                if (garbageSamples.size() < 3) garbageSamples.add(g.text().length() > 120 ? g.text().substring(0, 120) + "..." : g.text());
            }
        }
    }

    /**
     * The arguments of both halves of a call. strace splits at an argument's end ("read(3, " then
     * "\"data\", 4096)"), or shows what the kernel changed in place ("clone3({...}" then " => {...}, 88)").
     */
    static String join(String first, String rest) {
        if (first.isEmpty()) return rest.stripLeading();
        String r = rest.stripLeading();
        if (r.isEmpty() || r.startsWith(",") || r.startsWith("=>")) return first + rest;
        return first + ", " + r;
    }

    /** Seconds since the first time stamp, across midnight for -tt's time of day. */
    private double rel(double t) {
        if (Double.isNaN(t)) return Double.NaN;
        if (Double.isNaN(origin)) origin = t;
        double d = t - origin;
        if (d < -43200) d += 86400;
        minRel = Double.isNaN(minRel) ? d : Math.min(minRel, d);
        maxRel = Double.isNaN(maxRel) ? d : Math.max(maxRel, d);
        return d;
    }

    private boolean inWindow(double t) {
        return window != null && !Double.isNaN(t) && t >= windowBegin && (Double.isNaN(windowEnd) || t <= windowEnd);
    }

    private void seen(int pid, double rel) {
        if (firstPid < 0) firstPid = pid;
        who(pid);
        all.seen(pid, rel);
        if (inWindow(rel)) window.seen(pid, rel);
    }

    private Who who(int tid) {
        return who.computeIfAbsent(tid, Who::new);
    }

    /** A first half whose return never came: counted, timed from its start to {@code end}. */
    private void endedWithoutReturn(int pid, Pending p, double end) {
        boolean leaving = p.name().equals("exit") || p.name().equals("exit_group"); // never return, by design
        if (!leaving) {
            all.inProgress++;
            if (inWindow(end)) window.inProgress++;
        }
        double e = Double.isNaN(end) || Double.isNaN(p.start()) ? p.start() : Math.max(end, p.start());
        count(pid, p.name(), SyscallGroup.of(p.name(), p.args(), fds.of(pid)), false, p.start(), e, span(p.start(), e));
    }

    /** One finished call, from {@code start} to {@code end} (seconds since the trace began). */
    private void done(int pid, double start, double end, String name, String args, String ret, String errno, double duration) {
        if (args != null && mark(name, args, start, end)) return;
        SyscallGroup g = SyscallGroup.of(name, args, fds.of(pid));
        count(pid, name, g, !errno.isEmpty(), start, end, duration);
        if (args == null) return;
        boolean w = inWindow(end);
        OptionalLong r = Args.number(ret);
        if (g == SyscallGroup.IOCTL_NVIDIA) {
            SyscallGroup.firstFdPath(args, fds.of(pid)).ifPresent(p -> {
                all.nvidia.merge(p, 1L, Long::sum);
                if (w) window.nvidia.merge(p, 1L, Long::sum);
            });
        }
        if (g == SyscallGroup.FILE && SyscallGroup.READ_CALLS.contains(name) && r.isPresent() && r.getAsLong() >= 0) {
            all.readCalls++;
            all.readBytes += r.getAsLong();
            if (w) {
                window.readCalls++;
                window.readBytes += r.getAsLong();
            }
        }
        switch (name) {
            case "clone", "clone3", "fork", "vfork" -> {
                if (r.isPresent() && r.getAsLong() > 0 && r.getAsLong() <= Integer.MAX_VALUE) {
                    int child = (int) r.getAsLong();
                    boolean thread = !name.equals("fork") && !name.equals("vfork") && args.contains("CLONE_THREAD");
                    Who parent = who(pid), c = who(child);
                    c.process = thread ? parent.process : child;
                    if (c.name.isEmpty()) c.name = parent.name;
                    if (thread) {
                        all.threadsStarted++;
                        if (w) window.threadsStarted++;
                    } else {
                        all.processes++;
                        if (w) window.processes++;
                    }
                }
            }
            case "execve", "execveat" -> {
                if (r.isPresent() && r.getAsLong() == 0) {
                    Optional<String> path = Args.firstString(args);
                    path.ifPresent(p -> {
                        String base = p.substring(p.lastIndexOf('/') + 1);
                        who(pid).name = base.length() > 15 ? base.substring(0, 15) : base;
                    });
                }
            }
            case "prctl" -> {
                if (args.startsWith("PR_SET_NAME")) Args.firstString(args).ifPresent(n -> who(pid).name = n);
            }
            default -> { }
        }
        fds.learn(pid, name, args, ret);
    }

    /**
     * A step mark ("/.hostside-trace-mark/steps-begin", ".../steps-end/50"): opens the window
     * when the first returns, closes it when the second is called.
     */
    private boolean mark(String name, String args, double start, double end) {
        if (!args.contains(MARK)) return false;
        Optional<String> path = Args.firstString(args);
        if (path.isEmpty() || !path.get().startsWith(MARK)) return false;
        String what = path.get().substring(MARK.length());
        double at = what.equals("steps-begin") ? end : start;
        if (what.equals("steps-begin") && window == null && !Double.isNaN(at)) {
            window = new Sink();
            windowBegin = at;
        } else if (what.startsWith("steps-end") && window != null && Double.isNaN(windowEnd) && !Double.isNaN(at)) {
            windowEnd = at;
            try {
                windowSteps = Integer.parseInt(what.substring(what.indexOf('/') + 1));
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                windowSteps = 0;
            }
            // calls still in progress when the steps end are inside them up to here
            for (Map.Entry<Integer, Pending> e : pending.entrySet()) {
                Pending p = e.getValue();
                double from = Math.max(p.start(), windowBegin);
                if (at > from) {
                    window.inProgress++;
                    window.count(e.getKey(), p.name(), SyscallGroup.of(p.name(), p.args(), fds.of(e.getKey())), false, at - from, false);
                }
            }
        }
        return true;
    }

    /**
     * Counts one call in the whole run (its full time) and, where it returns inside the marked
     * steps, in the window too (the part of its time that lies inside them).
     */
    private void count(int pid, String name, SyscallGroup g, boolean error, double start, double end, double seconds) {
        all.count(pid, name, g, error, seconds, true);
        if (window == null || Double.isNaN(end)) return;
        boolean returnsInside = inWindow(end);
        if (!returnsInside) return; // calls spanning the end were counted there, when the end mark came
        double from = Double.isNaN(start) ? end : Math.max(start, windowBegin);
        window.count(pid, name, g, error, Math.max(0, end - from), true);
    }

    private static double span(double start, double end) {
        return Double.isNaN(start) || Double.isNaN(end) ? 0 : Math.max(0, end - start);
    }

    private TimedTrace finish() {
        for (Map.Entry<Integer, Pending> e : pending.entrySet()) endedWithoutReturn(e.getKey(), e.getValue(), maxRel);
        pending.clear();
        TimedTrace steps = null;
        if (window != null) {
            double end = Double.isNaN(windowEnd) ? maxRel : windowEnd;
            steps = build(window, end - windowBegin, null, windowSteps, Double.isNaN(windowEnd));
        }
        double wall = Double.isNaN(minRel) ? 0 : maxRel - minRel;
        return build(all, wall, steps, 0, false);
    }

    private TimedTrace build(Sink s, double wall, TimedTrace steps, int stepCount, boolean unclosed) {
        List<TimedTrace.SyscallCount> calls = new ArrayList<>();
        s.sums.forEach((g, m) -> m.forEach((n, a) -> calls.add(new TimedTrace.SyscallCount(n, g, a.calls, a.errors, a.seconds))));
        calls.sort(Comparator.comparingDouble(TimedTrace.SyscallCount::seconds).reversed()
                .thenComparing(Comparator.comparingLong(TimedTrace.SyscallCount::calls).reversed())
                .thenComparing(TimedTrace.SyscallCount::name));
        List<TimedTrace.ThreadCount> ts = new ArrayList<>();
        s.threads.forEach((tid, t) -> {
            if (t.calls == 0 && t.seconds == 0) return;
            Map<SyscallGroup, Double> gs = new EnumMap<>(SyscallGroup.class);
            t.groups.forEach((g, v) -> gs.put(g, v[0]));
            Map<SyscallGroup, Long> gc = new EnumMap<>(SyscallGroup.class);
            t.groupCalls.forEach((g, v) -> gc.put(g, v[0]));
            double life = Double.isNaN(t.first) ? 0 : t.last - t.first;
            Who w = who(tid);
            ts.add(new TimedTrace.ThreadCount(tid, w.process, w.name, t.calls, t.seconds, life, gs, gc));
        });
        ts.sort(Comparator.comparingDouble((TimedTrace.ThreadCount t) -> t.seconds()).reversed().thenComparingInt(TimedTrace.ThreadCount::tid));
        return new TimedTrace(calls, ts, Math.max(firstPid, 0), wall, lines, garbage, garbageSamples, unmatched, s.inProgress, s.signals,
                s.readCalls, s.readBytes, s.nvidia, s.processes, s.threadsStarted, stepCount, unclosed, steps);
    }
}
