package hostside.learn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.junit.jupiter.api.Test;

import hostside.learn.m2.Drawn;
import hostside.container.ContainerRules;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.cpu.CpuRules;
import hostside.io.IoRules;
import hostside.machine.GpuRules;
import hostside.report.Fleet;
import hostside.report.RecordedReports;
import hostside.report.Report;
import hostside.report.Rulebook;
import hostside.report.platforms.Placement;
import hostside.vm.VmRules;

/**
 * The course says what the report says: each frame that judges what a rule judges quotes the
 * report's finding of that rule (its ID, severity and text), a finding the report could not judge
 * (measured busy) is said to be not judged and gives no cause or fix, and no prediction's answer
 * goes against the report's finding of the same rule. From the recorded H200 report, its findings
 * drawn by today's rules ({@link Rejudged}), quiet and with every drill begun busy.
 */
class QuotesTheReportTest {
    /**
     * One verdict question: the stepper, the frame's title, the question, the rule that judges the
     * same, and the answers (by index) each severity of the report's finding allows.
     */
    record Verdict(String stepper, String frame, String question, Rule rule, Map<Severity, Set<Integer>> allowed) {}

    static final List<Verdict> VERDICTS = List.of(
            // the bands are under 50%, 50-80, 80-95, over 95: ok is at or above the rule's 70%, warn below it
            new Verdict("h2d-copy", "How close pinned comes", "share of the link", GpuRules.LINK_SHARE,
                    Map.of(Severity.OK, Set.of(1, 2, 3), Severity.WARN, Set.of(0, 1), Severity.UNKNOWN, Set.of(4))),
            new Verdict("h2d-copy", "Pinned: the copy engine", "Which is faster", GpuRules.PAGEABLE,
                    Map.of(Severity.INFO, Set.of(0, 1, 2, 3), Severity.UNKNOWN, Set.of(4))),
            new Verdict("placement", "The floor", "above the class floor", Placement.CLASS_FLOOR,
                    Map.of(Severity.OK, Set.of(0), Severity.WARN, Set.of(1), Severity.UNKNOWN, Set.of(4))),
            new Verdict("feeder-step", "A syscall", "syscall", CpuRules.SYSCALL,
                    // a figure's band: over 800 ns is the rule's warn, under it its ok
                    Map.of(Severity.OK, Set.of(0, 1), Severity.WARN, Set.of(2), Severity.UNKNOWN, Set.of(0, 1, 2))),
            new Verdict("feeder-step", "A CPU hog", "hog on every core", CpuRules.TIMER,
                    Map.of(Severity.OK, Set.of(0, 1, 2), Severity.WARN, Set.of(0, 1, 2), Severity.UNKNOWN, Set.of(3))),
            new Verdict("feeder-step", "The feeder pinned", "pinning the feeder, or a CUDA graph", CpuRules.PIN,
                    // pinning the report found no help never wins
                    Map.of(Severity.OK, Set.of(1, 2), Severity.WARN, Set.of(0, 1, 2), Severity.UNKNOWN, Set.of(3))),
            new Verdict("tlb-reach", "At 1 GiB", "slower per load", VmRules.TLB_REACH,
                    Map.of(Severity.INFO, Set.of(0, 1, 2), Severity.UNKNOWN, Set.of(3))),
            new Verdict("coherent-access", "Managed memory", "managed memory", VmRules.MANAGED_PREFETCH,
                    Map.of(Severity.INFO, Set.of(0, 1, 2), Severity.UNKNOWN, Set.of(3))),
            new Verdict("read-paths", "read(), cold", "fastest", IoRules.LOAD_PATH,
                    Map.of(Severity.INFO, Set.of(0, 1, 2, 3), Severity.WARN, Set.of(1, 2), Severity.UNKNOWN, Set.of(4))),
            new Verdict("read-paths", "io_uring", "32 reads in flight", IoRules.LOAD_PATH,
                    Map.of(Severity.INFO, Set.of(0, 1, 2), Severity.WARN, Set.of(0, 1, 2), Severity.UNKNOWN, Set.of(3))));

    static Frame frame(Inputs in, String stepper, String title) {
        return Steppers.get(stepper).orElseThrow().frames(in).stream().filter(f -> f.title().startsWith(title)).findFirst()
                .orElseThrow(() -> new AssertionError(stepper + " has no frame " + title));
    }

    static Report.Concluded finding(Inputs in, Rule rule) {
        return in.finding(rule).orElseThrow(() -> new AssertionError("the report drew no " + rule.id()));
    }

    @Test
    void inputsCarryTheReportsFindingsAndTheWorstOfARule() throws Exception {
        Inputs quiet = Inputs.from(Rejudged.quiet());
        assertThat(quiet.findings()).isNotEmpty();
        assertThat(finding(quiet, GpuRules.LINK_SHARE).severity()).isEqualTo(Severity.OK);
        assertThat(Inputs.typical(Map.of()).finding(GpuRules.LINK_SHARE)).as("no report, no finding").isEmpty();
        // one GPU ok, another warn: the frame is about the machine, and the worse is what a reader must not miss
        Report.Concluded ok = new Report.Concluded(1, GpuRules.LINK_SHARE.id(), Severity.OK, "GPU0", "88%", "");
        Report.Concluded warn = new Report.Concluded(1, GpuRules.LINK_SHARE.id(), Severity.WARN, "GPU1", "48%", GpuRules.LINK_SHARE.fix());
        Inputs two = new Inputs("two GPUs", quiet.values(), quiet.facts(), List.of(ok, warn));
        assertThat(two.finding(GpuRules.LINK_SHARE)).contains(warn);
        assertThat(two.finding(GpuRules.PAGEABLE)).isEmpty();
    }

    @Test
    void eachFrameQuotesTheQuietReportsFindingByRuleAndSeverity() throws Exception {
        Inputs in = Inputs.from(Rejudged.quiet());
        for (Verdict v : VERDICTS) {
            Report.Concluded c = finding(in, v.rule());
            Frame f = frame(in, v.stepper(), v.frame());
            String said = f.caption() + " " + f.predict().why();
            assertThat(said).as(v.stepper() + ": " + v.frame()).contains(v.rule().id() + " (" + c.severity() + ")").contains(c.text())
                    .doesNotContain("not judged");
        }
        // the quiet H200's verdicts, as its report draws them
        assertThat(frame(in, "h2d-copy", "How close pinned comes").caption()).contains("The report's finding M1-LINK-SHARE (ok): pinned copies reach 88%");
        assertThat(frame(in, "placement", "The floor").caption()).contains("The report's finding M1-CLASS-FLOOR (ok): host to device 55.3 GB/s, above");
        assertThat(frame(in, "feeder-step", "A syscall").caption()).contains("The report's finding M3-SYSCALL (ok): A trivial syscall costs 94 ns")
                .doesNotContain("That is cheap");
        assertThat(frame(in, "feeder-step", "The feeder pinned").caption()).contains("M3-PIN (ok)").doesNotContain("pinning alone does not help: the noise");
        assertThat(frame(in, "read-paths", "Which path").caption()).contains("The report's finding M4-LOAD-PATH (info)").contains("even within noise");
    }

    @Test
    void aReportMeasuredBusyIsNotJudgedAndTheAnswerIsThatOneCannotTell() throws Exception {
        Inputs in = Inputs.from(Rejudged.busy());
        for (Verdict v : VERDICTS) {
            Report.Concluded c = finding(in, v.rule());
            assertThat(c.severity()).as(v.rule().id()).isEqualTo(Severity.UNKNOWN);
            Frame f = frame(in, v.stepper(), v.frame());
            String said = f.caption() + " " + f.predict().why();
            assertThat(said).as(v.stepper() + ": " + v.frame()).contains("(" + v.rule().id() + ", unknown)").contains("not judged")
                    .contains("no cause and no fix").doesNotContain("Fix:").doesNotContain("The report's finding " + v.rule().id());
        }
        // no verdict of the stepper's own beside the report's silence
        assertThat(frame(in, "h2d-copy", "How close pinned comes").predict().why()).doesNotContain("healthy link gives").doesNotContain("check the link");
        assertThat(frame(in, "h2d-copy", "Pinned: the copy engine").predict().why()).doesNotContain("pays for the CPU's staging memcpy");
        assertThat(frame(in, "h2d-copy", "What to do in PyTorch").caption()).doesNotContain("By the figures above").contains("M1-PAGEABLE, unknown");
        assertThat(frame(in, "h2d-copy", "What pinning itself costs").caption()).contains("(M1-PIN-COST, unknown)").doesNotContain("so pin buffers once");
        assertThat(frame(in, "placement", "The floor").caption()).doesNotContain("above it").doesNotContain("below it");
        assertThat(frame(in, "feeder-step", "A syscall").caption()).doesNotContain("That is cheap").doesNotContain("That is slow");
        assertThat(frame(in, "feeder-step", "A CPU hog").predict().why()).doesNotContain("competes with the hogs (in training");
        assertThat(frame(in, "read-paths", "io_uring").caption()).doesNotContain("More in flight adds nothing here");
        for (Verdict v : VERDICTS) {
            Frame.Predict p = frame(in, v.stepper(), v.frame()).predict();
            if (v.allowed().get(Severity.UNKNOWN).size() == 1) {
                assertThat(p.choices().get(p.answer())).as(v.question()).containsIgnoringCase("cannot tell").contains("did not judge");
            }
        }
    }

    @Test
    void noAnswerGoesAgainstTheReportsFindingOfTheSameRule() throws Exception {
        for (Report r : List.of(Rejudged.quiet(), Rejudged.busy())) {
            Inputs in = Inputs.from(r);
            for (Verdict v : VERDICTS) {
                Severity s = finding(in, v.rule()).severity();
                Frame.Predict p = frame(in, v.stepper(), v.frame()).predict();
                assertThat(p.question()).containsIgnoringCase(v.question());
                assertThat(v.allowed()).as(v.rule().id() + " gives " + s).containsKey(s);
                assertThat(v.allowed().get(s)).as(in.machine() + ", " + v.stepper() + ": '" + p.question() + "' answered '" + p.choices().get(p.answer())
                        + "' against the report's " + v.rule().id() + " (" + s + ")").contains(p.answer());
            }
        }
    }

    @Test
    void theRecordedReportMadeBusyLeavesTheClassFloorUnjudged() throws Exception {
        // the report as recorded, the machine drill alone begun busy: its own M1-CLASS-FLOOR turns unknown
        Report r = RecordedReports.h200();
        var c = r.confounders();
        Report busy = new Report(r.schema(), r.kind(), r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(c.clocksLocked(), c.numaBalancing(), c.thp(), c.loadAtStart(),
                        List.of(new Fleet.DrillLoad("machine", InputsBusyTest.BUSY)), c.mode()),
                r.title(), r.questions(), r.headlines(), r.figures(), r.modules());
        Inputs quiet = Inputs.from(r), made = Inputs.from(busy);
        assertThat(finding(quiet, Placement.CLASS_FLOOR).severity()).isEqualTo(Severity.OK);
        assertThat(finding(made, Placement.CLASS_FLOOR).severity()).isEqualTo(Severity.UNKNOWN);
        Frame.Predict above = frame(made, "placement", "The floor").predict();
        assertThat(above.choices().get(above.answer())).isEqualTo("Cannot tell: the report did not judge the copies");
        assertThat(frame(quiet, "placement", "The floor").predict().answer()).isZero();
        assertThat(made.values().get("host_to_device_ce_pinned").source()).isEqualTo(Inputs.Source.MEASURED_BUSY);
    }

    @Test
    void everyRuleAFrameQuotesIsInTheRulebook() throws Exception {
        for (Report r : List.of(Rejudged.quiet(), Rejudged.busy())) {
            Inputs in = Inputs.from(r);
            for (Stepper s : Steppers.all()) {
                for (Frame f : s.frames(in)) {
                    String said = f.caption() + (f.predict() == null ? "" : " " + f.predict().why());
                    var m = java.util.regex.Pattern.compile("finding (M[1-6]-[A-Z0-9-]+) \\((\\w+)\\)|this \\((M[1-6]-[A-Z0-9-]+), unknown\\)").matcher(said);
                    while (m.find()) {
                        String id = Objects.requireNonNullElse(m.group(1), m.group(3));
                        assertThat(Rulebook.find(id)).as(s.key() + ": " + id).isPresent();
                        Severity quoted = m.group(2) == null ? Severity.UNKNOWN : Severity.parse(m.group(2));
                        assertThat(in.findings()).as(s.key() + " quotes " + id + " (" + quoted + ")")
                                .anyMatch(c -> c.id().equals(id) && c.severity() == quoted);
                    }
                }
            }
        }
    }

    static Report.Concluded concluded(Finding f) {
        return new Report.Concluded(4, f.id(), f.severity(), f.subject(), f.text(), f.fix());
    }

    @Test
    void theContainersLimitsAreTheReportsFindings() {
        // limits read here that the stepper's default job would fit (16 GiB of /dev/shm, 2 GiB locked, 100000 tasks),
        // but the report's plan, counting what is already in use, does not: the course answers as the report does
        Map<String, String> words = Map.of("container", "docker", "shm_bytes", String.valueOf(16L << 30), "memlock_bytes", String.valueOf(2L << 30),
                "cap_ipc_lock", "false", "pids_max", "100000", "cores", "16");
        Map<String, Inputs.Fact> facts;
        Inputs none = Drawn.machine(words, Map.of());
        facts = none.facts();
        Stepper s = Steppers.get("container-limits").orElseThrow();
        assertThat(answer(s.frames(none), "/dev/shm?")).isEqualTo("yes");
        assertThat(answer(s.frames(none), "fit under")).isEqualTo("yes");

        Report.Concluded shm = concluded(ContainerRules.SHM_SIZE.finding(Severity.BAD, "/dev/shm", "/dev/shm is 16 GiB, 15 GiB of it in use, but 8 DataLoader workers keep 2 batches"));
        Report.Concluded pids = concluded(ContainerRules.PIDS.finding(Severity.BAD, "pids", "pids.max is 100000 with 99990 tasks in use, room for 10 more"));
        Report.Concluded memlock = concluded(ContainerRules.MEMLOCK.finding(Severity.WARN, "memlock", "memlock soft limit 64 KiB and no CAP_IPC_LOCK"));
        Inputs judged = new Inputs("a container", none.values(), facts, List.of(shm, pids, memlock));
        List<Frame> frames = s.frames(judged);
        assertThat(answer(frames, "/dev/shm?")).startsWith("no");
        assertThat(answer(frames, "fit under")).startsWith("no");
        assertThat(answer(frames, "memlock limit")).startsWith("RDMA registration");
        assertThat(frames.stream().filter(f -> f.title().startsWith("/dev/shm")).findFirst().orElseThrow().caption())
                .contains("The report's finding M4-SHM-SIZE (bad): /dev/shm is 16 GiB").doesNotContain("They fit.");
        assertThat(frames.stream().filter(f -> f.title().startsWith("pids.max")).findFirst().orElseThrow().caption())
                .contains("The report's finding M4-PIDS (bad)").contains("Fix: " + ContainerRules.PIDS.fix()).doesNotContain("They fit.");
        assertThat(frames.getLast().caption()).contains("the report's finding M4-SHM-SIZE (bad)").contains("the report's finding M4-MEMLOCK (warn)")
                .contains("the report's finding M4-PIDS (bad)").doesNotContain("room for the default job's threads");
    }

    static String answer(List<Frame> frames, String question) {
        Frame.Predict p = frames.stream().map(Frame::predict).filter(Objects::nonNull).filter(x -> x.question().contains(question)).findFirst()
                .orElseThrow(() -> new AssertionError("no question " + question));
        return p.choices().get(p.answer());
    }
}
