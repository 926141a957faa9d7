package hostside.vm;

import static hostside.vm.MeasuredVerdictsTest.METAL;
import static hostside.vm.MeasuredVerdictsTest.VM;
import static hostside.vm.MeasuredVerdictsTest.base;
import static hostside.vm.MeasuredVerdictsTest.failed;
import static hostside.vm.MeasuredVerdictsTest.file;
import static hostside.vm.MeasuredVerdictsTest.notRun;
import static hostside.vm.MeasuredVerdictsTest.ok;
import static hostside.vm.MeasuredVerdictsTest.points;
import static hostside.vm.MeasuredVerdictsTest.spread;
import static hostside.vm.MeasuredVerdictsTest.thp;
import static hostside.vm.MeasuredVerdictsTest.tlb;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.machine.Host;
import hostside.process.MachineLoad;
import hostside.testing.RuleTally;
import hostside.vm.facts.VmFactRules;

/**
 * Module 2's measured rules: each severity a rule gives, from figures made by hand; what keeps it
 * quiet; and a busy machine, which turns every one of them unknown with no fix.
 */
class VmRulesTest {
    static final MachineLoad BUSY = new MachineLoad(201, 2, 1.02, 0.1, 0.0, 35.0, 60.0, 4, 3.1, 0.25, true, null);
    static final MachineLoad QUIET = new MachineLoad(200, 2, 0.02, 0.1, 0.0, 0.5, 0.2, 1, 0.1, 0.25, false, null);

    static Finding only(Host machine, List<Result> host, List<Result> gpu, MachineLoad load) {
        List<Finding> f = MeasuredVerdicts.of(machine, host, gpu, load);
        assertThat(f).hasSize(1);
        return f.getFirst();
    }

    static Finding host(Result... rs) {
        return only(METAL, List.of(rs), List.of(), QUIET);
    }

    static Finding gpu(Result... rs) {
        return only(METAL, List.of(), List.of(rs), QUIET);
    }

    /** A finding of {@code rule} at {@code severity}, with the rule's fix exactly where it says to change something. */
    static void is(Finding f, Rule rule, Severity severity) {
        assertThat(f.id()).isEqualTo(rule.id());
        assertThat(f.severity()).isEqualTo(severity);
        assertThat(f.fix()).isEqualTo(severity.toFix() ? rule.fix() : "");
        assertThat(f.source()).isEqualTo(rule.sources().getFirst().toString());
        assertThat(f.evidence()).isNotEmpty();
    }

    // ---- M2-FIRST-TOUCH ----

    @Test
    void aSlowFirstTouchWarnsWithItsFixAndTheFigureItRead() {
        Finding f = only(VM, List.of(ok("anon_first_touch_base", 1300.0, base(5.0))), List.of(), QUIET);
        is(f, VmRules.FIRST_TOUCH, Severity.WARN);
        assertThat(f.subject()).isEqualTo("first touch");
        assertThat(f.evidence()).contains(Evidence.of("anon_first_touch_base_us_per_fault", 5.0, Unit.US));
    }

    @Test
    void aFastFirstTouchIsOk() {
        is(host(ok("anon_first_touch_base", 700.0, base(2.9))), VmRules.FIRST_TOUCH, Severity.OK);
    }

    // ---- M2-HUGE-PAGES ----

    @Test
    void hugePagesNotFormingWarn() {
        Finding f = host(ok("anon_first_touch_thp", 150.0, thp(10.0, 12L)));
        is(f, VmRules.HUGE_PAGES, Severity.WARN);
        assertThat(f.evidence()).contains(Evidence.of("anon_first_touch_thp_huge_percent", 10.0, Unit.PERCENT));
    }

    @Test
    void hugePagesThatFormedAreOkAndAShareNotReadOnlyCompares() {
        is(host(ok("anon_first_touch_thp", 50.0, thp(95.0, 0L))), VmRules.HUGE_PAGES, Severity.OK);
        // exactly half is not "under half"
        is(host(ok("anon_first_touch_thp", 50.0, thp(50.0, 0L))), VmRules.HUGE_PAGES, Severity.OK);
        List<Finding> noShare = MeasuredVerdicts.of(METAL, List.of(ok("anon_first_touch_base", 200.0, base(0.8)), ok("anon_first_touch_thp", 100.0,
                thp(null, 0L))), List.of(), QUIET);
        is(noShare.getLast(), VmRules.HUGE_PAGES, Severity.INFO);
    }

    // ---- M2-TLB-REACH ----

    @Test
    void aKneeIsAnExplanation() {
        Finding f = host(tlb("tlb_reach_base", points(1, 1, 2, 4, 5)), tlb("tlb_reach_huge", points(1, 1, 1, 1.5, 2)));
        is(f, VmRules.TLB_REACH, Severity.INFO);
        assertThat(f.evidence()).extracting(e -> ((Evidence.Measured) e).key()).containsExactly("tlb_reach_base", "tlb_reach_huge");
    }

    @Test
    void curvesTooNoisyToTellAreUnknownNotAnExplanation() {
        // +-60% samples at every size: no gap can be told, and no mechanism is offered
        Finding f = host(tlb("tlb_reach_base", spread(0.6, 1, 1, 2, 4, 5)), tlb("tlb_reach_huge", spread(0.6, 1, 1, 1, 1.5, 2)));
        is(f, VmRules.TLB_REACH, Severity.UNKNOWN);
        assertThat(f.text()).endsWith("measure again on a quiet machine").doesNotContain("page walk").doesNotContain(MeasuredVerdicts.NESTED);
    }

    // ---- M2-READ-VS-MMAP ----

    @Test
    void readAgainstMmapIsAnExplanationWithOrWithoutAWinner() {
        Finding winner = host(ok("file_read_cold", new Stats(2.0, 1.9, 2.1, 3), null), ok("file_mmap_cold", new Stats(1.0, 0.95, 1.05, 3), file(256.0)));
        is(winner, VmRules.READ_VS_MMAP, Severity.INFO);
        assertThat(winner.text()).contains("read() 2.0x faster");
        Finding even = host(ok("file_read_cold", new Stats(2.0, 0.9, 2.2, 3), null), ok("file_mmap_cold", new Stats(1.0, 0.95, 1.05, 3), file(16.0)));
        is(even, VmRules.READ_VS_MMAP, Severity.INFO);
        assertThat(even.text()).as("within the spread no winner is named").contains("even within noise").doesNotContain("faster");
    }

    // ---- M2-MANAGED-PREFETCH, M2-PIN-COST ----

    @Test
    void managedMemoryAndPinningAreExplanations() {
        Finding managed = gpu(ok("managed_gpu_faults_h2d", new Stats(5.0, 4.5, 5.5, 5), null), ok("managed_prefetch_h2d", new Stats(20.0, 19.0, 22.0, 5), null));
        is(managed, VmRules.MANAGED_PREFETCH, Severity.INFO);
        assertThat(managed.evidence()).hasSize(2);
        Finding even = gpu(ok("managed_gpu_faults_h2d", new Stats(5.0, 4.5, 5.5, 5), null), ok("managed_prefetch_h2d", new Stats(20.0, 4.0, 22.0, 5), null));
        assertThat(even.text()).contains("even within noise").doesNotContain("cudaMemPrefetchAsync");
        is(gpu(ok("pin_cost_host_alloc", 300.0), ok("pin_cost_host_register", 120.0)), VmRules.PIN_COST, Severity.INFO);
    }

    // ---- quiet: the explanations (info) speak only where both their figures were measured ----

    /** The findings of a quiet machine's run whose healthy first touch (ok) is judged beside what is tested. */
    static List<Finding> quietRun(List<Result> host, List<Result> gpu) {
        List<Result> all = new java.util.ArrayList<>(host);
        all.add(ok("anon_first_touch_base", 700.0, base(1.55)));
        List<Finding> f = MeasuredVerdicts.of(METAL, all, gpu, QUIET);
        assertThat(f).extracting(Finding::id).contains(VmRules.FIRST_TOUCH.id());
        return f;
    }

    @Test
    void readAgainstMmapIsQuietWhereTheMappedReadDidNotRun() {
        RuleTally.quiet(quietRun(List.of(ok("file_read_cold", 2.0), failed("file_mmap_cold"), ok("file_read_warm", 8.0), notRun("file_mmap_warm")),
                List.of()), VmRules.READ_VS_MMAP);
    }

    @Test
    void tlbReachIsQuietWhereTheBasePageWalkFailed() {
        RuleTally.quiet(quietRun(List.of(failed("tlb_reach_base"), tlb("tlb_reach_huge", points(1, 1, 1, 1.5, 2))), List.of()), VmRules.TLB_REACH);
    }

    @Test
    void managedPrefetchIsQuietWherePrefetchWasNotRun() {
        // cudaMemPrefetchAsync needs concurrent managed access, which some GPUs and VMs lack
        RuleTally.quiet(quietRun(List.of(), List.of(ok("managed_gpu_faults_h2d", 5.0), notRun("managed_prefetch_h2d"), ok("managed_cpu_faults_d2h", 4.0))),
                VmRules.MANAGED_PREFETCH);
    }

    @Test
    void pinCostIsQuietWhereCudaHostAllocFailed() {
        RuleTally.quiet(quietRun(List.of(), List.of(failed("pin_cost_host_alloc"), ok("pin_cost_host_register", 120.0))), VmRules.PIN_COST);
    }

    // ---- busy ----

    @Test
    void aBusyMachineLeavesEveryMeasuredFindingUnknownWithItsFiguresAndNoFix() {
        List<Result> host = List.of(ok("file_read_cold", 2.0), ok("file_mmap_cold", 1.0, file(256.0)), ok("anon_first_touch_base", 1300.0, base(5.0)),
                ok("anon_first_touch_thp", 150.0, thp(10.0, 12L)), tlb("tlb_reach_base", points(1, 1, 2, 4, 5)), tlb("tlb_reach_huge", points(1, 1, 1, 1.5, 2)));
        List<Result> gpu = List.of(ok("managed_gpu_faults_h2d", 5.0), ok("managed_prefetch_h2d", 20.0), ok("pin_cost_host_alloc", 300.0));
        List<Finding> quiet = MeasuredVerdicts.of(VM, host, gpu, QUIET), busy = MeasuredVerdicts.of(VM, host, gpu, BUSY);
        assertThat(quiet).extracting(Finding::severity).contains(Severity.WARN);
        assertThat(busy).hasSameSizeAs(quiet).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(f.fix()).isEmpty();
            assertThat(f.text()).startsWith("measured while the machine was busy (other processes used 1.02 CPUs").endsWith("run again on a quiet machine");
            // the figures it read, and nothing drawn from them
            assertThat(f.text()).doesNotContainIgnoringCase("huge pages").doesNotContain("slow").doesNotContain("prefetch them");
        });
        assertThat(busy).extracting(Finding::text).anySatisfy(t -> assertThat(t).contains("so not judged: anon_first_touch_base_us_per_fault 5.00 us, anon_first_touch_base 1300 ms;"));
        assertThat(busy).extracting(Finding::id).containsExactlyElementsOf(quiet.stream().map(Finding::id).toList());
        assertThat(busy).extracting(Finding::evidence).containsExactlyElementsOf(quiet.stream().map(Finding::evidence).toList());
        // a load not read (a recording's) judges as a quiet one
        assertThat(MeasuredVerdicts.of(VM, host, gpu, null)).isEqualTo(quiet);
    }

    @Test
    void everyMeasuredRuleCanBeUnknownAndEveryFindingIsOfAMeasuredRule() {
        assertThat(VmRules.measured()).allSatisfy(r -> assertThat(r.severities()).contains(Severity.UNKNOWN));
        assertThat(VmRules.all()).containsAll(VmRules.measured()).containsAll(VmFactRules.all());
    }
}
