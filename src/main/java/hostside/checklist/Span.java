package hostside.checklist;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import hostside.process.TaskState;

/**
 * A thread or process as the samples saw it: its first and last look and when, and the states
 * it was seen in. A task that started or ended inside the window is measured over the part of
 * the window it was seen in.
 */
record Span(ProcessLook.TaskLook first, long firstAt, ProcessLook.TaskLook last, long lastAt, Map<TaskState, Integer> states,
            int seen) {

    double seconds() {
        return (lastAt - firstAt) / 1e9;
    }

    /** Percent of one CPU over the part of the window it was seen in; null when seen once. */
    Double cpuPercent() {
        return seen < 2 || seconds() <= 0 ? null
                : Rates.round(Rates.cpuPercent(first.stat().cpuTicks(), last.stat().cpuTicks(), seconds()), 1);
    }

    Double perSecond(Function<ProcessLook.TaskLook, Long> counter) {
        if (seen < 2 || seconds() <= 0) return null;
        Long a = counter.apply(first), b = counter.apply(last);
        return a == null || b == null ? null : Rates.round(Rates.perSecond(a, b, seconds()), 1);
    }

    /** Share of the looks in each state (R 0.75, D 0.25), most frequent first; ties in letter order. */
    Map<TaskState, Double> stateShares() {
        Map<TaskState, Double> out = new LinkedHashMap<>();
        states.entrySet().stream().sorted(Map.Entry.<TaskState, Integer>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), Rates.round((double) e.getValue() / seen, 2)));
        return out;
    }

    /** Letter order, as the states were counted when they were letters: ties among shares keep that order. */
    private static final java.util.Comparator<TaskState> BY_LETTER = java.util.Comparator.comparing(t -> t.letter);

    /** One span per key over all samples; {@code looks} picks a sample's tasks (its threads, or the processes below). */
    static Map<Long, Span> of(List<Sample> samples, Function<ProcessLook, Map<Long, ProcessLook.TaskLook>> looks) {
        Map<Long, Span> out = new TreeMap<>();
        for (Sample s : samples) {
            if (s.process() == null) continue;
            for (var e : looks.apply(s.process()).entrySet()) {
                Span old = out.get(e.getKey());
                ProcessLook.TaskLook t = e.getValue();
                // a pid the kernel handed to a new task in the window is another task: start over
                if (old != null && old.first.stat().startTime() != t.stat().startTime()) old = null;
                Map<TaskState, Integer> states = new TreeMap<>(BY_LETTER);
                if (old != null) states.putAll(old.states);
                states.merge(t.stat().state(), 1, Integer::sum);
                out.put(e.getKey(), old == null ? new Span(t, s.atNanos(), t, s.atNanos(), states, 1)
                        : new Span(old.first, old.firstAt, t, s.atNanos(), states, old.seen + 1));
            }
        }
        return out;
    }
}
