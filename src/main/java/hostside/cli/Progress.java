package hostside.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import hostside.core.Printable;
import hostside.harness.ProgressSink;
import hostside.harness.Status;
import hostside.libc.Libc;

/**
 * Progress of long work on stderr, never stdout (so --json stays one document). On a terminal,
 * one live line rewritten in place: what runs now, i of n, elapsed, an estimate of what is left;
 * anything else written to System.err meanwhile first clears it. Elsewhere (a log, a pipe,
 * TERM=dumb), one plain line per test case as it starts and as it ends, with no escape codes.
 * The harness feeds it case by case ({@link ProgressSink}); the report adds the outer level with
 * {@link #drill}.
 */
public final class Progress implements ProgressSink, AutoCloseable {
    /** Not on a terminal, a step shorter than this leaves no line: quick runs stay silent. */
    static final long SHOW_AFTER_MS = 1000;
    private static final long TICK_MS = 1000;
    private static final String CLEAR = "\r\u001b[K";

    private final PrintWriter out;
    private final boolean terminal;
    private final LongSupplier nanoClock;
    private final int width;
    private final long began;
    private Runnable onClose = () -> {};
    private Thread ticker;

    private String drill = "";
    private String now = "";
    private int index, count;
    private final TimeLeft timeLeft = new TimeLeft();
    private boolean lineShown;
    private OptionalLong expectedEnd = OptionalLong.empty();
    /** Not on a terminal: the step under way, said with its time once it ends (see {@link #endStep}). */
    private String pendingStep = "";
    private long stepStart;

    /**
     * @param terminal draw one live line (carriage return, clear to end of line); else plain lines
     * @param width    the terminal's columns: a live line longer than that would wrap and no longer be rewritten in place
     */
    public Progress(Writer out, boolean terminal, LongSupplier nanoClock, int width) {
        this.out = out instanceof PrintWriter p ? p : new PrintWriter(out);
        this.terminal = terminal;
        this.nanoClock = nanoClock;
        this.width = Math.max(20, width);
        this.began = nanoClock.getAsLong();
    }

    /**
     * Progress on this process's stderr. A terminal is stderr's own (isatty(2)), not
     * System.console()'s (stdin and stdout: `hostside report > log` still has a terminal on
     * stderr); TERM=dumb gets plain lines. On a terminal a ticker redraws the line each second,
     * and System.err is guarded until {@link #close}: any other line first clears the live one.
     */
    public static Progress forStderr() {
        return forStderr(new PrintWriter(new java.io.OutputStreamWriter(System.err, System.err.charset()), true));
    }

    /** Progress on {@code err}: a command's error stream, which is stderr but for tests that read it. */
    public static Progress forStderr(PrintWriter err) {
        PrintStream original = System.err;
        boolean terminal = Libc.isTerminal(2) && !"dumb".equals(System.getenv("TERM"));
        Progress p = new Progress(err, terminal, System::nanoTime, columns());
        if (terminal) {
            System.setErr(new PrintStream(new Guard(original, p), true, original.charset()));
            p.onClose = () -> System.setErr(original);
            p.ticker = Thread.ofVirtual().start(p::tick);
        }
        return p;
    }

    /** Progress that shows nothing: work known to be quick (a report of a recording). */
    public static Progress silent() {
        return new Progress(Writer.nullWriter(), false, System::nanoTime, 80);
    }

    /** COLUMNS when the shell exports it; else 80, the width every terminal has at least. */
    private static int columns() {
        try {
            return Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80").trim());
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    /** The outer level of a report: drill {@code i} of {@code n}; the per-case average starts again. */
    @Override
    public synchronized void drill(String name, int i, int n) {
        endStep();
        drill = String.format(Locale.ROOT, "%s %d/%d", name, i, n);
        now = "";
        index = count = 0;
        timeLeft.drill();
        if (!terminal) line(String.format(Locale.ROOT, "drill %d of %d: %s (elapsed %s)", i, n, name, duration(sinceStart())));
        else draw();
    }

    @Override
    public synchronized void accept(Event e) {
        switch (e) {
            case DrillStarted d -> drill(d.name(), d.index(), d.count());
            case CasesPlanned c -> timeLeft.planned(c.costs(), nanoClock.getAsLong());
            case CaseStarted s -> {
                endStep();
                now = s.label();
                index = s.index();
                count = s.count();
                timeLeft.started(index, count, nanoClock.getAsLong());
                if (terminal) draw();
                else line(String.format(Locale.ROOT, "%s%d/%d %s: started (elapsed %s)", prefix(), index, count, now, duration(sinceStart())));
            }
            case CaseEnded d -> {
                endStep();
                index = d.index();
                count = d.count();
                boolean didRun = d.status() != Status.NOT_RUN;
                timeLeft.ended(index, count, didRun, d.nanos(), nanoClock.getAsLong());
                if (terminal) {
                    now = d.label();
                    draw();
                } else {
                    String took = didRun ? " in " + duration(d.nanos()) : "";
                    line(String.format(Locale.ROOT, "%s%d/%d %s: %s%s (elapsed %s%s)", prefix(), index, count, d.label(), d.status(), took,
                            duration(sinceStart()), leftText(", about ")));
                    now = "";
                }
                // on a terminal the line keeps the case that just ended until the next begins (a GPU's set-up between)
            }
            case Step s -> {
                endStep();
                now = s.what();
                index = count = 0;
                timeLeft.outside();
                if (terminal) {
                    draw();
                } else {
                    pendingStep = s.what();
                    stepStart = nanoClock.getAsLong();
                }
            }
        }
    }

    /**
     * Work that may take more than a moment and is no test case (unpacking a large recording, a
     * checklist's sampling window): on a terminal the live line at once, cleared at the end;
     * elsewhere one line with its time as it ends, if it took a second, so quick runs stay silent.
     *
     * @param expectedNanos how long it will take when that is known beforehand (a sampling window), else 0
     */
    public static <T> T during(String what, long expectedNanos, Supplier<T> work) {
        try (Progress p = forStderr()) {
            p.expect(expectedNanos);
            p.step(what);
            return work.get();
        }
    }

    public static <T> T during(String what, Supplier<T> work) {
        return during(what, 0, work);
    }

    /**
     * Not on a terminal, a step (writing the test file) is one line as it ends, with its time, and
     * only when it took a second or more: a step that fails at once (bad --dir) then leaves just
     * the error's one line.
     */
    private void endStep() {
        if (pendingStep.isEmpty()) return;
        long took = nanoClock.getAsLong() - stepStart;
        if (took >= SHOW_AFTER_MS * 1_000_000L) line(String.format(Locale.ROOT, "%s%s: %s", prefix(), pendingStep, duration(took)));
        pendingStep = "";
    }

    /** A step whose length is known: the live line counts down to its end. */
    synchronized void expect(long nanos) {
        expectedEnd = nanos > 0 ? OptionalLong.of(nanoClock.getAsLong() + nanos) : OptionalLong.empty();
    }

    /** Clears the live line, for other output on stderr; the next event or tick draws it again. */
    public synchronized void clear() {
        if (!lineShown) return;
        out.print(CLEAR);
        out.flush();
        lineShown = false;
    }

    /** Stops the ticker, clears the live line and gives System.err back. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            t = ticker;
            ticker = null;
            endStep();
        }
        if (t != null) t.interrupt();
        clear();
        onClose.run();
    }

    /**
     * The live line as it reads now (terminal mode), shorter than the terminal is wide: a line that
     * reaches the last column wraps, and the next redraw then leaves the first half behind. What
     * gives way is what runs, cut at a word with an ellipsis; the counts and times never do.
     */
    synchronized String liveLine() {
        String lead = "hostside: " + prefix();
        StringBuilder figures = new StringBuilder();
        if (count > 0) figures.append(String.format(Locale.ROOT, " (%d of %d)", index, count));
        figures.append(", ").append(duration(sinceStart())).append(leftText(", about "));
        // what runs may name a recording's path or a GPU: shown, so the only control on the line is CLEAR
        return Fit.line(Printable.of(lead), Printable.of(now.isEmpty() ? "starting" : now), figures.toString(), width - 1);
    }

    /**
     * What is left: the cases' own costs summed ({@link TimeLeft}); a step whose length is known
     * counts down to its end. Empty before anything can be said.
     */
    synchronized OptionalLong left() {
        long t = nanoClock.getAsLong();
        // a step past its known length says nothing rather than "0.0 s left" for as long as it goes on
        if (expectedEnd.isPresent() && count == 0) {
            long rest = expectedEnd.getAsLong() - t;
            return rest > 0 ? OptionalLong.of(rest) : OptionalLong.empty();
        }
        return timeLeft.left(t);
    }

    /** 4.2 s, 42 s, 3m05s: short enough for the live line. */
    static String duration(long nanos) {
        double s = nanos / 1e9;
        if (s < 10) return String.format(Locale.ROOT, "%.1f s", s);
        if (s < 60) return String.format(Locale.ROOT, "%d s", Math.round(s));
        long whole = Math.round(s);
        return String.format(Locale.ROOT, "%dm%02ds", whole / 60, whole % 60);
    }

    private String leftText(String lead) {
        OptionalLong l = left();
        return l.isPresent() ? lead + duration(l.getAsLong()) + " left" : "";
    }

    private String prefix() {
        return drill.isEmpty() ? "" : "[" + drill + "] ";
    }

    private long sinceStart() {
        return nanoClock.getAsLong() - began;
    }

    private void draw() {
        out.print(CLEAR + liveLine());
        out.flush();
        lineShown = true;
    }

    private void line(String s) {
        out.println("hostside: " + Printable.of(s));
        out.flush();
    }

    private void tick() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(TICK_MS);
                synchronized (this) {
                    if (ticker != null && (!now.isEmpty() || lineShown)) draw();
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** System.err while the live line is up: whatever else is written there first clears the line. */
    private static final class Guard extends OutputStream {
        private final PrintStream original;
        private final Progress progress;

        Guard(PrintStream original, Progress progress) {
            this.original = original;
            this.progress = progress;
        }

        @Override
        public void write(int b) {
            progress.clear();
            original.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            progress.clear();
            original.write(b, off, len);
        }

        @Override
        public void flush() {
            original.flush();
        }
    }
}
