package hostside.cpu.dataloader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.cpu.dataloader.ProcMemory.Look;
import hostside.cpu.dataloader.ProcMemory.Sample;
import hostside.fs.FsRoot;
import hostside.harness.Child;

/**
 * Runs one dataset through cow_workers.py and watches it: main's memory before and after it
 * builds the dataset, then main and every worker every {@link #TICK} from the moment the workers
 * are ready until all have made their passes. The script waits for a command before each step,
 * so every look falls where it must; it ends by itself if no command comes. Each dataset has an
 * interpreter of its own, which the torch part may then take over ({@link PythonSession}).
 *
 * <p>Every wait is bounded by the target's timeout; on a timeout, an error, an interrupt or JVM
 * exit the whole process tree is killed ({@link Child}), and the script's temporary copy
 * removed.
 */
public final class CowSampler {
    public static final Duration TICK = Duration.ofMillis(100);
    static final String SCRIPT = "cow_workers.py";

    private final DataLoaderTarget t;
    private final DatasetKind kind;
    private final LongConsumer onProcess;
    private final PythonSession session;
    private Child tree;
    private EventStream events;
    private ScriptProcess script;
    private long deadline;
    private String waitingFor = "";

    private CowSampler(DataLoaderTarget t, DatasetKind kind, LongConsumer onProcess, PythonSession session) {
        this.t = t;
        this.kind = kind;
        this.onProcess = onProcess;
        this.session = session;
    }

    public static CowRun run(DataLoaderTarget t, DatasetKind kind) throws InterruptedException {
        return run(t, kind, pid -> {});
    }

    /**
     * As {@link #run(DataLoaderTarget, DatasetKind)}; {@code onProcess} hears the script's pid at
     * the start of the run, then each worker's as it becomes ready (for tests that check none is left).
     *
     * @throws RunFailed why there are no figures; {@link RunFailed#notRun()} where numpy is missing for an array
     */
    public static CowRun run(DataLoaderTarget t, DatasetKind kind, LongConsumer onProcess) throws InterruptedException {
        if (!t.hasPython()) throw new RunFailed("no python3 on PATH");
        if (t.session() != null) return new CowSampler(t, kind, onProcess, t.session()).measure();
        try (PythonSession own = new PythonSession(t.python())) {
            return new CowSampler(t, kind, onProcess, own).measure();
        }
    }

    /** The script's arguments: the dataset and the target's sizes; its own bound, behind ours. */
    List<String> arguments() {
        return List.of("--data", kind.key(), "--bytes", Long.toString(t.datasetBytes()), "--workers", Integer.toString(t.workers()),
                "--passes", Integer.toString(t.passes()), "--pass-ms", Long.toString(t.passTime().toMillis()),
                "--max-seconds", Long.toString(t.timeout().toSeconds() + 10));
    }

    private CowRun measure() throws InterruptedException {
        long started = System.nanoTime();
        deadline = started + t.timeout().toNanos();
        boolean ended = false;
        try {
            ScriptProcess driver = session.forDataset(arguments());
            script = driver;
            tree = driver.tree();
            events = driver.events();
            CowRun r = steps(started, await("start"));
            ended = true;
            return r;
        } catch (RunFailed e) {
            if (e.notRun()) ended = true; // it answered "unavailable" and waits for the torch part
            throw e;
        } finally {
            if (!ended) session.discard(); // kills whatever still runs: after a failure, a timeout or an interrupt
        }
    }

    private CowRun steps(long started, JsonNode start) throws InterruptedException {
        FsRoot fs = t.fs();
        long mainPid = start.path("pid").asLong();
        if (!tree.remember(mainPid)) throw new RunFailed("the script's pid " + mainPid + " is not one it started from here");
        onProcess.accept(mainPid);
        String version = start.path("python").asText("");
        long pageSize = ProcMemory.pageSize(fs, mainPid);

        Sample beforeBuild = required(fs, mainPid, "main before it builds the dataset");
        script.send("build");
        JsonNode built = await("built");
        Sample afterBuild = required(fs, mainPid, "main after it built the dataset");
        script.send("fork");
        JsonNode forked = await("forked");
        List<Series> workers = new ArrayList<>();
        for (JsonNode p : forked.path("workers")) {
            long pid = p.asLong();
            if (!tree.remember(pid)) throw new RunFailed("worker pid " + pid + " is not below the script");
            workers.add(new Series(pid, "worker " + workers.size()));
        }
        if (workers.size() != t.workers())
            throw new RunFailed("the script forked " + workers.size() + " workers, not " + t.workers());
        Set<Long> ready = new HashSet<>();
        while (ready.size() < workers.size()) {
            JsonNode e = await("ready");
            long pid = e.path("pid").asLong();
            ready.add(pid);
            onProcess.accept(pid);
        }

        Series main = new Series(mainPid, "main");
        long t0 = System.nanoTime();
        int rounds = lookAll(fs, main, workers, t0);
        if (workers.stream().anyMatch(w -> w.first().isEmpty()))
            throw new RunFailed("a worker could not be read before its first pass: " + problems(workers));
        script.send("go");
        Set<Long> pids = new HashSet<>();
        for (Series w : workers) pids.add(w.pid());
        Set<Long> finished = new HashSet<>();
        long nextTick = t0 + TICK.toNanos();
        waitingFor = "the workers' passes";
        while (finished.size() < workers.size()) {
            long now = System.nanoTime();
            if (now >= deadline) throw timedOut();
            if (now >= nextTick) {
                rounds += lookAll(fs, main, workers, t0);
                nextTick += TICK.toNanos() * Math.max(1, (now - nextTick) / TICK.toNanos() + 1);
                continue;
            }
            JsonNode e = events.poll(Math.min(nextTick, deadline) - now);
            if (e == null) continue;
            switch (e.path("event").asText()) {
                case "finished" -> {
                    if (pids.contains(e.path("pid").asLong())) finished.add(e.path("pid").asLong());
                }
                case "error", "done", EventStream.EOF -> throw failure(e);
                default -> {} // pass: progress only
            }
        }
        rounds += lookAll(fs, main, workers, t0); // the final look: every worker idle after its last pass
        for (Series w : workers)
            if (w.last().isEmpty() || w.samples().size() < 2) throw new RunFailed(w.role() + " has no final sample: " + problems(workers));
        script.send("exit");
        JsonNode done = await("done");
        if (!"ok".equals(done.path("status").asText("ok"))) throw new RunFailed("the script: " + done.path("status").asText());

        long items = built.path("items").asLong();
        long estimate = built.path("estimate_bytes").asLong();
        long grew = afterBuild.uss() - beforeBuild.uss();
        // the measured growth is the truth unless something else moved main's memory far more than the dataset could
        boolean measured = grew > 0 && grew < 4 * Math.max(estimate, 1);
        double seconds = (System.nanoTime() - started) / 1e9;
        return new CowRun(kind, items, measured ? grew : Math.max(1, estimate), estimate, measured, beforeBuild, afterBuild, main,
                List.copyOf(workers), rounds, seconds, version, pageSize);
    }

    /** One look at main and every worker; returns 1 (a round). */
    static int lookAll(FsRoot fs, Series main, List<Series> workers, long t0) {
        long at = (System.nanoTime() - t0) / 1_000_000;
        main.add(ProcMemory.look(fs, main.pid(), at));
        for (Series w : workers) w.add(ProcMemory.look(fs, w.pid(), at));
        return 1;
    }

    private static Sample required(FsRoot fs, long pid, String what) {
        Look l = ProcMemory.look(fs, pid, 0);
        return switch (l) {
            case Look.Seen s -> s.sample();
            case Look.Vanished v -> throw new RunFailed(what + ": the process has gone (" + v.why() + ")");
            case Look.Unreadable u -> throw new RunFailed(what + ": " + u.why());
        };
    }

    private static String problems(List<Series> ws) {
        List<String> p = new ArrayList<>();
        for (Series w : ws) {
            if (w.unreadableLooks() > 0) p.add(w.role() + ": " + w.problem());
            else if (w.vanishedLooks() > 0) p.add(w.role() + " exited");
        }
        return p.isEmpty() ? "no reason given" : String.join("; ", p);
    }

    private JsonNode await(String event) throws InterruptedException {
        waitingFor = "\"" + event + "\"";
        long left = deadline - System.nanoTime();
        if (left <= 0) throw timedOut();
        JsonNode e = events.next(event, left);
        if (e == null) throw timedOut();
        if (!e.path("event").asText().equals(event)) throw failure(e);
        return e;
    }

    private RunFailed timedOut() {
        return new RunFailed("timed out after " + t.timeout().toSeconds() + " s waiting for " + waitingFor
                + " (the script and its workers were killed)");
    }

    private RunFailed failure(JsonNode e) throws InterruptedException {
        String name = e.path("event").asText();
        if (name.equals(EventStream.UNAVAILABLE)) return RunFailed.notRun(e.path("reason").asText("the script cannot make this dataset here"));
        if (name.equals("error")) return new RunFailed(e.path("reason").asText("the script reported an error"));
        if (name.equals("done")) return new RunFailed("the script stopped early: " + e.path("status").asText() + stderrTail());
        // end of output: give the process a moment to exit so its status can be told
        tree.process().waitFor(Math.min(1_000_000_000L, Math.max(0, deadline - System.nanoTime())), java.util.concurrent.TimeUnit.NANOSECONDS);
        String how = tree.process().isAlive() ? "closed its output" : "exited with " + tree.process().exitValue();
        return new RunFailed("the script " + how + " while waiting for " + waitingFor + stderrTail());
    }

    private String stderrTail() {
        return script.stderrTail();
    }
}
