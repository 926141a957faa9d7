package hostside.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.core.BadInputException;
import hostside.fs.FsRoot;
import hostside.libc.Libc;

/**
 * Runs test cases in order, each guarded: one that does not apply says why, one that throws is a
 * failed row with the message; neither stops the others.
 */
public final class Runner {
    private Runner() {}

    /** Why every case of a recorded machine is not run (docs/contract.md, --root): facts only. */
    public static final String RECORDED = "recorded machine: nothing is measured under --root";

    /**
     * The cases on the machine {@code fs} reads: on a recording each is "not run" ({@link #RECORDED})
     * and the target is never made (a GPU never opened, a test file never written); live, as
     * {@link #run(List, Object, ProgressSink)}. The one place that keeps the rule.
     */
    public static <C> List<Result> run(FsRoot fs, List<? extends TestCase<C>> tests, java.util.function.Supplier<C> target,
                                       ProgressSink progress) {
        if (!fs.isLive()) return notRun(tests, RECORDED);
        return run(tests, target.get(), progress);
    }

    /** Why every case is not run on a live machine whose libc cannot be called (the measurements need mmap, sched and the *at calls). */
    public static final String NO_LIBC = "libc could not be called on this system";

    /**
     * The cases on the machine {@code fs} reads, against a target made only when they run: on a
     * recording each is "not run" ({@link #RECORDED}), where libc cannot be called each says so
     * ({@link #NO_LIBC}), and in neither case, nor where every case is {@link Skipped}, is the target made. The caller closes the target, on
     * every exit path, with try-with-resources.
     */
    public static <C> List<Result> run(FsRoot fs, List<? extends TestCase<C>> tests, DrillTarget<C> target, ProgressSink progress) {
        if (tests.isEmpty()) return List.of();
        if (!fs.isLive()) return notRun(tests, RECORDED);
        if (!Libc.available()) return notRun(tests, NO_LIBC);
        if (noneRuns(tests)) return run(tests, null, progress); // nothing to make a target for
        return run(tests, target.make(), progress);
    }

    /** Whether every case is {@link Skipped}: then nothing a target needs is worth preparing. */
    public static boolean noneRuns(List<? extends TestCase<?>> tests) {
        return tests.stream().allMatch(t -> t instanceof Skipped<?>);
    }

    /** Every case "not run", with the same reason. */
    public static List<Result> notRun(List<? extends TestCase<?>> tests, String why) {
        return tests.stream().map(t -> Result.notRun(t, why)).toList();
    }

    /**
     * Each case reports its start and end to {@code progress} (with its place, i of n, and how long it
     * took), the harness being the one place that sees every case of every drill, as JMH's runner is.
     */
    public static <C> List<Result> run(List<? extends TestCase<C>> tests, C target, ProgressSink progress) {
        progress.accept(new ProgressSink.CasesPlanned(tests.stream().map(t -> cost(t, target)).toList()));
        List<Result> results = new ArrayList<>();
        int n = tests.size(), i = 0;
        for (TestCase<C> t : tests) {
            i++;
            long start = System.nanoTime();
            Result r;
            try {
                Optional<String> skip = t.notApplicable(target);
                if (skip.isPresent()) {
                    r = Result.notRun(t, skip.get());
                } else {
                    progress.accept(new ProgressSink.CaseStarted(t.key(), i, n));
                    List<Settling> log = Settling.newLog();
                    r = ScopedValue.where(Settling.LOG, log).call(() -> t.run(target));
                    Settling s = Settling.summary(log);
                    if (s != null && r.settling() == null) r = r.withSettling(s);
                }
            } catch (RuntimeException e) {
                r = Result.failed(t, e.getMessage() == null ? e.toString() : e.getMessage());
            }
            results.add(r);
            progress.accept(new ProgressSink.CaseEnded(t.key(), i, n, r.status(), System.nanoTime() - start));
        }
        return results;
    }

    /** A case's declared cost; one that cannot say (or fails to) has none: progress is no reason to stop a run. */
    private static <C> Optional<Duration> cost(TestCase<C> t, C target) {
        try {
            return t.cost(target).filter(d -> d.isPositive());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The tests whose keys are selected (all when {@code keys} is empty); an unknown key is bad input. */
    public static <T extends TestCase<?>> List<T> select(List<T> all, List<String> keys) {
        if (keys.isEmpty()) return all;
        List<T> chosen = new ArrayList<>();
        for (String k : keys) {
            T t = all.stream().filter(x -> x.key().equals(k)).findFirst()
                    .orElseThrow(() -> new BadInputException("no test case \"" + k + "\"; see --list"));
            chosen.add(t);
        }
        return chosen;
    }
}
