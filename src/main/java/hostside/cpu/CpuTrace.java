package hostside.cpu;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.core.BadInputException;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Style;
import hostside.cpu.trace.BuiltinStep;
import hostside.cpu.trace.CrossCheck;
import hostside.cpu.trace.ProfileVerdicts;
import hostside.cpu.trace.QuietWindow;
import hostside.cpu.trace.Strace;
import hostside.cpu.trace.SyscallProfile;
import hostside.cpu.trace.Target;
import hostside.cpu.trace.TraceLimits;
import hostside.cpu.trace.TraceRun;
import hostside.cpu.trace.TraceUnavailableException;
import hostside.cpu.trace.Tracer;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.ProgressSink;
import hostside.harness.Status;
import hostside.machine.MachineFacts;

/**
 * {@code hostside cpu --trace}: the syscall profile of a training step, strace run twice over the
 * same workload (a summary with -c, a timed trace with -tt -T), grouped as Module 3 groups them,
 * with the two runs checked against each other. With no command: the built-in PyTorch step where
 * torch is installed, else hostside's own launch loop.
 */
public final class CpuTrace {
    private CpuTrace() {}

    /** A pass of the trace, reported as the harness reports a case: started, then ended with its time. */
    private static <T> T pass(ProgressSink progress, String what, int i, java.util.function.Supplier<T> work) {
        long start = System.nanoTime();
        progress.accept(new ProgressSink.CaseStarted(what, i, 2));
        Status status = Status.FAILED;
        try {
            T r = work.get();
            status = Status.OK;
            return r;
        } finally {
            progress.accept(new ProgressSink.CaseEnded(what, i, 2, status, System.nanoTime() - start));
        }
    }

    public static int run(List<String> command, Long pid, int seconds, boolean json, PrintWriter out, ProgressSink progress,
                          String mainClass) {
        if (pid != null && command != null && !command.isEmpty()) throw new BadInputException("--pid and a command: give one or the other");
        if (pid != null && ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) throw new BadInputException("--pid " + pid + ": no such process");
        if (seconds < 1 || seconds > 3600) throw new BadInputException("--seconds " + seconds + ": choose 1 to 3600");
        Strace strace;
        try {
            strace = Strace.locate();
        } catch (TraceUnavailableException e) {
            return notRun(e.getMessage(), json, out);
        }
        String builtinNote = "";
        Target target;
        if (pid != null) {
            target = Target.pid(pid);
        } else if (command != null && !command.isEmpty()) {
            target = Target.command(command);
        } else {
            BuiltinStep step = BuiltinStep.probe();
            if (step.target().isPresent()) {
                target = step.target().get();
            } else {
                builtinNote = "no PyTorch step to trace (" + step.reason() + "): tracing hostside's own launch loop instead";
                target = Target.command(ownLoop(mainClass), "hostside's launch loop (hostside cpu --only launch_jitter_quiet,timer_jitter_quiet)");
            }
        }
        Tracer tracer = new Tracer(strace);
        TraceLimits limits = TraceLimits.of(Duration.ofSeconds(seconds));
        Tracer.SummaryRun summary;
        Tracer.TimedRun timed;
        // two passes of up to --seconds each: the harness's progress, as two cases
        try {
            summary = pass(progress, "strace -c (call counts)", 1, () -> tracer.summary(target, limits));
            timed = pass(progress, "strace -T (call times)", 2, () -> tracer.timed(target, limits));
        } catch (TraceUnavailableException e) {
            return notRun(e.getMessage(), json, out);
        }
        SyscallProfile whole = SyscallProfile.of(timed);
        SyscallProfile profile = SyscallProfile.stepsOf(timed).orElse(whole);
        SyscallProfile summaryProfile = SyscallProfile.of(summary);
        CrossCheck.Result check = CrossCheck.compare(summary, timed);
        // an attached process that finished no call: the note says what that means, and no verdict on shares of nothing applies
        java.util.Optional<String> quiet = QuietWindow.timed(timed.run(), timed.trace(), FsRoot.live());
        List<Finding> findings = quiet.isPresent() ? List.of() : ProfileVerdicts.of(profile);
        String headline = quiet.orElseGet(() -> ProfileVerdicts.headline(profile));
        if (json) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("schema", MachineFacts.SCHEMA);
            j.put("kind", "cpu-trace");
            j.put("target", target.describe());
            j.put("note", builtinNote);
            j.put("strace", strace.version());
            j.put("headline", headline);
            // the command's own status, from each of the two runs (each ran it once); null where hostside stopped it
            timed.run().commandExit().ifPresent(e -> {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("summaryRun", summary.run().commandExit().orElseThrow());
                x.put("timedRun", e);
                j.put("commandExit", x);
            });
            j.put("profile", profile);
            j.put("summary", summaryProfile);
            j.put("crossCheck", check);
            j.put("findings", findings);
            j.put("caveat", ProfileVerdicts.CAVEAT);
            out.print(Json.write(Json.MAPPER.valueToTree(j)));
            out.flush();
            return 0;
        }
        List<String> notes = profile.notes().stream().filter(n -> !quiet.equals(java.util.Optional.of(n))).toList();
        TraceDocument.Trace t = new TraceDocument.Trace(target.describe(), builtinNote, strace.version(), headline,
                exitLine(summary.run(), timed.run()).orElse(""), profile != whole, profile, summary.summary(), summaryProfile, check, findings, notes,
                ProfileVerdicts.CAVEAT);
        out.print(new TextRenderer(Style.forTerminal()).render(TraceDocument.of(t)));
        out.flush();
        return 0;
    }

    /**
     * The command's exit, once where both runs ended alike, else per run: what the command did,
     * not how hostside did (its exit code stays 0).
     */
    static java.util.Optional<String> exitLine(TraceRun summary, TraceRun timed) {
        var s = summary.commandExit();
        var t = timed.commandExit();
        if (t.isEmpty() || s.isEmpty()) return java.util.Optional.empty();
        if (s.get().equals(t.get())) return java.util.Optional.of(t.get().text() + " (in both runs)");
        return java.util.Optional.of("strace -c run: " + s.get().text() + "; timed run: " + t.get().text());
    }

    private static int notRun(String why, boolean json, PrintWriter out) {
        if (json) out.print(Json.write(Json.MAPPER.valueToTree(Map.of("schema", MachineFacts.SCHEMA, "kind", "cpu-trace", "notRun", why))));
        else out.println("hostside cpu --trace: not run: " + why);
        out.flush();
        return 0;
    }

    /**
     * This JVM's java and class path running hostside's {@code mainClass} in the quiet launch
     * condition (on a GPU) and the quiet timer one: a loop of launches and of timer ticks to trace
     * (without a GPU the launch condition is not run, so the timer's alone).
     */
    private static List<String> ownLoop(String mainClass) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.addAll(List.of(mainClass, "cpu", "--only", "launch_jitter_quiet,timer_jitter_quiet", "--launches", "2000", "--json"));
        return cmd;
    }
}
