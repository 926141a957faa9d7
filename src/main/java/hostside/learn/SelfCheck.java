package hostside.learn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Scope;
import hostside.core.Severity;
import hostside.core.Units;
import hostside.io.IoRules;
import hostside.io.MeasuredVerdicts;
import hostside.report.Report;

/**
 * The course's final self-check, seven questions over Modules 1 to 4, each answered from the
 * report of the machine at hand: the reader answers first (out loud, or typed in the page), then
 * sees what this machine says and where it says it. A question the report cannot answer says
 * what is missing and which command measures it, never a typical value.
 */
public final class SelfCheck {
    private SelfCheck() {}

    /**
     * @param number   1 to 7
     * @param question as the course asks it, about "here"
     * @param answer   this machine's answer, in a sentence or two; what is missing where it is
     * @param evidence the figures and facts it stands on, and the module that explains them
     * @param answered false where the report lacks what the answer needs
     * @param findings the report's findings of the rules this question is about ({@link #RULES}), as page one
     *                 and compare read them: the course quotes the report's conclusions, it does not draw its own
     */
    public record Question(int number, String question, String answer, String evidence, boolean answered, List<Report.Concluded> findings) {
        public Question {
            findings = findings == null ? List.of() : List.copyOf(findings);
        }

        Question(int number, String question, String answer, String evidence, boolean answered) {
            this(number, question, answer, evidence, answered, List.of());
        }

        Question with(String answer) {
            return new Question(number, question, answer, evidence, answered, findings);
        }
    }

    public static List<Question> of(Report r) {
        List<Question> q = new ArrayList<>();
        q.add(answer(r, 1, "How much CPU feeds each GPU here?", "CPU", "Module 1 (topology) and Module 3 (launch jitter)"));
        q.add(answer(r, 2, "How fast does host memory reach each GPU here, and is it coherent?", "Link", "Module 1 (the copies) and Module 5 (coherence)"));
        q.add(pageable(r));
        q.add(thp(r));
        q.add(jitter(r));
        q.add(ioPath(r));
        q.add(container(r));
        return q.stream().map(x -> busy(r, quoting(r, x))).toList();
    }

    /**
     * The rules each question is about, by its number: the self-check shows the report's findings
     * of these beside its answer, with their IDs, so that what the course says of this machine is
     * what page one and compare say of it.
     */
    public static final List<List<String>> RULES = List.of(
            List.of("M1-LAUNCH-CORES", "M1-SMALL-CORE", "M3-LAUNCH", "M3-PIN", "M3-CPU-QUOTA", "M3-GPU-LOCAL-CPUS"),
            List.of("M1-LINK-SHARE", "M1-COPY-NODE", "M1-HOST-VS-COPIES", "M1-LINK-BELOW-MAX", "M1-IOMMU", "M1-CLASS-FLOOR"),
            List.of("M1-PAGEABLE", "M1-PIN-COST"),
            List.of("M2-THP", "M2-THP-FALLBACK", "M2-FIRST-TOUCH", "M2-HUGE-PAGES", "M2-TLB-REACH"),
            List.of("M3-TIMER", "M3-LAUNCH", "M3-PIN", "M3-GRAPH", "M3-JITTER-DISTURBED"),
            List.of("M4-LOAD-PATH", "M4-PAGE-CACHE", "M4-RANDOM-DEPTH", "M4-NETWORK-FS"),
            List.of("M4-SHM-SIZE", "M4-SHM-OVER-MEMORY", "M4-MEMLOCK", "M4-PIDS", "M4-NPROC", "M4-MEMORY-NEAR-LIMIT", "M4-OOM-KILLS"));

    /** The question with the report's findings of its rules, an answer the rules could not judge said to be so. */
    static Question quoting(Report r, Question x) {
        List<String> ids = RULES.get(x.number() - 1);
        List<Report.Concluded> found = r.findings().stream().filter(c -> ids.contains(c.id()) && c.severity() != Severity.OK).toList();
        return new Question(x.number(), x.question(), x.answer(), x.evidence(), x.answered(), found);
    }

    /** The drills whose figures each question's answer stands on, by its number (the container's limits are read, not measured). */
    static final List<List<String>> MEASURED_BY = List.of(List.of("machine", "cpu"), List.of("machine"), List.of("machine"), List.of("vm"), List.of("cpu"),
            List.of("io"), List.of());

    /**
     * The answer, said to rest on figures measured while the machine was busy where a drill it
     * stands on began busy (the report's conditions): the report counts those findings as not
     * judged, and the course must not teach from them as if they were the machine's.
     */
    static Question busy(Report r, Question x) {
        if (!x.answered() || r.confounders() == null) return x;
        List<String> busy = MEASURED_BY.get(x.number() - 1).stream().filter(r.confounders().busyDrills()::contains).toList();
        if (busy.isEmpty()) return x;
        return x.with(x.answer() + " Measured while the machine was busy (the " + String.join(" and ", busy) + " drill"
                + (busy.size() == 1 ? "" : "s") + " began busy): these figures may be slower and noisier than this machine's best; run hostside report again on a"
                + " quiet machine before acting on them.");
    }

    /** The report's own answer to one of its four questions. */
    private static Question answer(Report r, int n, String question, String axis, String module) {
        Optional<Report.Answer> a = r.questions() == null ? Optional.empty() : r.questions().stream().filter(x -> x.axis().equals(axis)).findFirst();
        if (a.isEmpty()) return missing(n, question, "the report has no answer to its " + axis + " question", "hostside report");
        boolean answered = !"not measured".equals(a.get().status());
        return new Question(n, question, a.get().answer(), a.get().evidence() + "; " + module, answered);
    }

    private static Question pageable(Report r) {
        String question = "What does pageable memory cost a host-to-device copy here?";
        Optional<Figure> pinned = figure(r, "host_to_device_ce_pinned"), pageable = figure(r, "host_to_device_ce_pageable");
        if (pinned.isEmpty() || pageable.isEmpty()) return missing(3, question, "no host-to-device copies in this report (no GPU, or not measured)", "hostside machine on a GPU machine");
        double p = pinned.get().value(), g = pageable.get().value();
        String answer = String.format(Locale.ROOT, "A pageable copy runs at %s GB/s against %s GB/s pinned: %sx slower, since the driver first copies each chunk "
                + "into a pinned staging buffer. 10 GB takes %s s pageable and %s s pinned: pin the batches (pin_memory=True) that cross every step.",
                Units.sig3(g), Units.sig3(p), Units.sig3(p / g), Units.sig3(10 / g), Units.sig3(10 / p));
        return new Question(3, question, answer, "host_to_device_ce_pinned and host_to_device_ce_pageable (" + scope(pinned.get()) + "), Module 1 and Module 2", true);
    }

    private static Question thp(Report r) {
        String question = "What do transparent huge pages do here?";
        String mode = r.confounders() == null ? null : r.confounders().thp();
        Optional<Figure> base = figure(r, "anon_first_touch_base"), huge = figure(r, "anon_first_touch_thp"), share = figure(r, "anon_first_touch_thp_huge_percent");
        if (mode == null) return missing(4, question, "the THP setting was not read", "hostside vm");
        StringBuilder a = new StringBuilder("THP is set to " + mode + ": ");
        a.append(switch (mode) {
            case "always" -> "every large enough anonymous region is backed by 2 MiB pages where the kernel can find them.";
            case "madvise" -> "only regions that ask with madvise(MADV_HUGEPAGE) get 2 MiB pages (PyTorch's CPU allocator asks only with THP_MEM_ALLOC_ENABLE=1, for blocks of 2 MiB or more; a plain malloc does not).";
            case "never" -> "no region gets 2 MiB pages; each 4 KiB page is its own fault and TLB entry.";
            default -> "a setting hostside does not know.";
        });
        if (base.isPresent() && huge.isPresent()) {
            a.append(String.format(Locale.ROOT, " First touch of 1 GiB: %s ms with base pages, %s ms with THP%s.", Units.sig3(base.get().value()), Units.sig3(huge.get().value()),
                    share.map(s -> String.format(Locale.ROOT, " (%s%% of it huge)", Units.sig3(s.value()))).orElse("")));
        }
        return new Question(4, question, a.toString(), "/sys/kernel/mm/transparent_hugepage/enabled; anon_first_touch_base and _thp; Module 2", true);
    }

    private static Question jitter(Report r) {
        String question = "What jitter does a feeder thread see here, quiet and loaded?";
        boolean launch = figure(r, "launch_jitter_quiet_p99").isPresent();
        String kind = launch ? "launch_jitter" : "timer_jitter";
        Optional<Figure> quiet = figure(r, kind + "_quiet_p99"), noisy = figure(r, kind + "_noisy_p99"), noisy999 = figure(r, kind + "_noisy_p999");
        if (quiet.isEmpty()) return missing(5, question, "no jitter was measured", "hostside cpu");
        StringBuilder a = new StringBuilder(String.format(Locale.ROOT, "%s late by %s us at p99 on a quiet machine", launch ? "Kernel launches run" : "Timer wake-ups run",
                Units.sig3(quiet.get().value())));
        noisy.ifPresent(n -> a.append(String.format(Locale.ROOT, ", %s us at p99 with a hog on every core", Units.sig3(n.value()))));
        noisy999.ifPresent(n -> a.append(String.format(Locale.ROOT, " and %s us at p99.9", Units.sig3(n.value()))));
        a.append('.');
        figure(r, "launch_jitter_pinned_p99").ifPresent(p -> a.append(String.format(Locale.ROOT, " Pinned to its own core: %s us.", Units.sig3(p.value()))));
        figure(r, "launch_jitter_graph_p99").ifPresent(g -> a.append(String.format(Locale.ROOT, " As a CUDA graph: %s us.", Units.sig3(g.value()))));
        if (!launch) a.append(" (No GPU: these are the timer's wake-ups, the feeder's side of a launch.)");
        return new Question(5, question, a.toString(), kind + "_quiet_p99 and _noisy_p99, cyclictest's method; Module 3", true);
    }

    private static Question ioPath(Report r) {
        String question = "Which I/O path should a checkpoint loader take here?";
        List<String[]> paths = List.of(new String[] {"seq_read_cold_qd1", "read() through the page cache, cold"},
                new String[] {"seq_read_direct_qd1", "O_DIRECT, one read at a time"},
                new String[] {"seq_read_direct_uring_qd32", "O_DIRECT with io_uring, 32 in flight"});
        List<Figure> found = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String[] p : paths) {
            Optional<Figure> f = figure(r, p[0]);
            if (f.isPresent()) {
                found.add(f.get());
                names.add(p[1]);
            }
        }
        if (found.isEmpty()) return missing(6, question, "no checkpoint reads were measured", "hostside io");
        Optional<Report.Concluded> judged = r.findings().stream().filter(c -> c.id().equals(IoRules.LOAD_PATH.id())).findFirst();
        if (judged.isPresent()) {
            // the report's rule weighs the spreads and the load: the course says its conclusion, not one of its own from the medians
            List<String> all = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) all.add(names.get(i) + " " + Units.sig3(found.get(i).value()) + " GB/s");
            Report.Concluded c = judged.get();
            String said = c.severity() == Severity.UNKNOWN
                    ? "The report could not judge which is faster (" + c.id() + "): " + c.text() + "."
                    : "The report (" + c.id() + ", " + c.severity() + "): " + c.text() + "." + (c.fix().isEmpty() ? "" : " Fix: " + c.fix() + ".");
            return new Question(6, question, "Measured: " + String.join(", ", all) + " (" + scope(found.getFirst()) + "). " + said,
                    "seq_read_* beside fio's jobs; Module 4", true);
        }
        int best = 0;
        for (int i = 1; i < found.size(); i++) if (found.get(i).value() > found.get(best).value()) best = i;
        StringBuilder a = new StringBuilder(names.get(best) + ", at " + Units.sig3(found.get(best).value()) + " GB/s");
        List<String> others = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) if (i != best) others.add(names.get(i) + " " + Units.sig3(found.get(i).value()) + " GB/s");
        if (!others.isEmpty()) a.append(", against ").append(String.join(", ", others));
        a.append(" (").append(scope(found.get(best))).append(").");
        // a report older than the rulebook: the I/O drill's threshold, a gain under MATERIAL of the slower figure being no reason to change a loader
        double top = found.get(best).value();
        boolean close = found.stream().allMatch(f -> top <= (1 + MeasuredVerdicts.MATERIAL) * f.value());
        if (found.size() > 1 && close) a.append(String.format(Locale.ROOT, " They are within %.0f%% of each other: the path matters less here than the storage.",
                100 * MeasuredVerdicts.MATERIAL));
        return new Question(6, question, a.toString(), "seq_read_* beside fio's jobs; Module 4", true);
    }

    private static Question container(Report r) {
        String question = "Which container limit would break training here?";
        Report.Storage s = r.module(Report.Storage.class);
        if (s == null || s.container() == null) return missing(7, question, "the container's limits were not read", "hostside container");
        List<Finding> bad = s.container().findings().stream().filter(f -> f.severity() == Severity.BAD || f.severity() == Severity.WARN)
                .sorted(Comparator.comparing(Finding::severity)).toList();
        String answer = bad.isEmpty() ? s.container().verdict() + "."
                : bad.stream().map(f -> f.subject() + ": " + f.text()).reduce((x, y) -> x + " " + y).orElse("");
        return new Question(7, question, answer, "cgroup limits, /dev/shm, RLIMIT_MEMLOCK, pids.max; Module 4", true);
    }

    private static Question missing(int n, String question, String why, String command) {
        return new Question(n, question, "Not in this report: " + why + ". " + command + " measures it.", "", false);
    }

    /** The machine-wide figure, else the first of any scope. */
    private static Optional<Figure> figure(Report r, String key) {
        if (r.figures() == null) return Optional.empty();
        Optional<Figure> machine = r.figures().stream().filter(f -> f.key().equals(key) && f.scope().kind() == Scope.Kind.MACHINE).findFirst();
        return machine.isPresent() ? machine : r.figures().stream().filter(f -> f.key().equals(key)).findFirst();
    }

    private static String scope(Figure f) {
        return f.scope().toString();
    }
}
