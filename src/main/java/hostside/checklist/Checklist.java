package hostside.checklist;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Rule;

/**
 * One run of the 60-second checklist, in the order an on-call engineer reads it: the verdict,
 * then load and pressure, the kernel log, the CPUs, the process, disks and network, the GPUs.
 * This is the JSON ({@code hostside checklist PID --json}) and what {@link ChecklistDocument} shows;
 * the JSON reads back into an equal record ({@code figures} is derived, so it is written, not read).
 *
 * @param verdict   the first of {@code verdicts}: the line at the top
 * @param notes     what the reader must know to read the figures (the process exited early, one snapshot)
 * @param cpus      null without rates
 * @param io        null without rates
 * @param unknowns  what could not be read, one line each
 */
@JsonIgnoreProperties(value = "figures", allowGetters = true)
public record Checklist(String schema, String kind, long pid, String comm, Window window, Finding verdict, List<Finding> verdicts,
                        List<String> notes, LoadSection load, KernelSection kernel, CpuSection cpus, ProcessSection process,
                        IoSection io, GpuSection gpus, List<String> unknowns) {

    public Checklist {
        verdict = ofRule(verdict);
        verdicts = verdicts.stream().map(Checklist::ofRule).toList();
        notes = List.copyOf(notes);
        unknowns = List.copyOf(unknowns);
    }

    /**
     * A verdict of a report of an earlier version, named by its code ("memory-pressure"), as its
     * rule's finding (M4-60S-MEMORY-PRESSURE, with the rule's fix and source); one already of a rule
     * as it is.
     */
    static Finding ofRule(Finding f) {
        if (f == null) return null;
        Rule r = ChecklistRules.byCode(f.id());
        if (r == null || r.id().equals(f.id()) || !r.severities().contains(f.severity())) return f;
        return r.finding(f.severity(), f.subject(), f.text(), f.evidence());
    }

    /**
     * The readings a fleet compares, typed (docs/contract.md, Typed figures): only those the window
     * kept several samples of, with their spread. Most of the checklist's figures are one reading
     * per window (a rate from the first and last sample, memory read once at the end), which
     * would be a figure without a spread: those stay in their sections, and are no figures here.
     */
    @JsonProperty("figures")
    public List<Figure> figures() {
        return gpus == null ? List.of() : gpus.figures(window.intervalMs());
    }

    /**
     * The sampling window.
     *
     * @param mode               sampled over a window, or one look at a recorded machine
     * @param startedAt          the first sample, ISO-8601 UTC to the millisecond, to line the window up with other tools' logs; null for a snapshot
     * @param seconds            from the first sample to the last one taken
     * @param exitedAfterSeconds when the process was found gone, from the first sample; null if it lived on
     * @param ratesNotMeasured   why there are no rates, or null
     */
    public record Window(Mode mode, String startedAt, double seconds, int samples, long intervalMs, Double exitedAfterSeconds, String ratesNotMeasured) {}

    /** How the checklist looked: written "live" or "snapshot" in JSON. */
    public enum Mode {
        /** This machine, sampled over a window. */
        LIVE,
        /** A recorded machine (--root), in one look: no rates. */
        SNAPSHOT;

        @JsonValue
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        @JsonCreator
        public static Mode parse(String s) {
            for (Mode m : values()) if (m.json().equals(s)) return m;
            throw new IllegalArgumentException("\"" + s + "\" is not a checklist mode (live, snapshot)");
        }

        @Override
        public String toString() {
            return json();
        }
    }
}
