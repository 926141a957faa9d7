package hostside.vm.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.vm.explain.PageWalk.Layout;
import hostside.vm.explain.PageWalk.Options;

class StepTextTest {
    @Test
    void headingNarrationAndAlignedState() {
        Step s = new Step(2, "A title", "Some words.", new WalkState.TableBase("x86-64-4", "0x00007f3a12345678", "CR3", "0x1000", "PML4"));
        assertThat(s.lines(5)).containsExactly(
                "Step 2 of 5: A title",
                "  Some words.",
                "",
                "  register    CR3",
                "  table base  0x1000",
                "  table       PML4");
        assertThat(StepText.picture(Maps.of("kind", "x", "tableBase", "0x1000", "pageSizeBytes", 2097152L,
                "rows", List.of(Maps.of("field", "PT", "value", 325L), Maps.of("field", "offset", "value", 1656L))))).containsExactly(
                "table base  0x1000",
                "page size   2 MiB",
                "",
                "rows:",
                "field   value",
                "PT        325",
                "offset   1656");
    }

    @Test
    void labelsAndUnits() {
        assertThat(StepText.label("entryAddress")).isEqualTo("entry address");
        assertThat(StepText.label("tlbReachBytes")).isEqualTo("TLB reach");
        assertThat(StepText.label("pssBytes")).isEqualTo("PSS");
        assertThat(StepText.value("ussBytes", 0L)).isEqualTo("0 bytes");
        assertThat(StepText.value("pssBytes", 10922.7)).isEqualTo("10.7 KiB");
        assertThat(StepText.value("present", true)).isEqualTo("yes");
    }

    @Test
    void narrationWrapsUnderTheWidth() {
        List<String> lines = PageWalk.steps(Options.of(0x7f3a12345678L, Layout.X86_64_4LEVEL)).get(3).lines(8);
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(StepText.WIDTH));
        assertThat(lines.get(1)).startsWith("  Entry address = table base 0x");
    }

    @Test
    void pageWalkStepsSayTheAddressOnce() {
        List<Step> steps = PageWalk.steps(Options.of(0x7f3a12345678L, Layout.X86_64_4LEVEL));
        assertThat(steps.getFirst().lines(8)).contains("  address         0x00007f3a12345678");
        assertThat(steps.get(1).lines(8)).noneMatch(l -> l.startsWith("  address"));
        assertThat(steps.get(3).lines(8)).contains("  flags          P=1 RW=1 US=1 A=1 NX=0");
    }

    @Test
    void cowStepsDrawThePageGrid() {
        List<String> lines = CowScenarios.dataloader(2, 1, CowScenarios.Data.LIST).get(2).lines(6);
        assertThat(lines).containsSequence(
                "  page  main (100)  worker 0 (101)",
                "     0  f1 ro (1)   f3 rw (1) *",
                "     1  f2 ro (2)   f2 ro (2)");
        assertThat(lines).contains(
                "  process   pid    RSS    PSS    USS",
                "  main      100  8 KiB  6 KiB  4 KiB",
                "  worker 0  101  8 KiB  6 KiB  4 KiB",
                "  memory in use: 3 frames = 12 KiB (page size 4 KiB; peak so far 3 frames = 12 KiB)");
    }

    @Test
    void cowSummaryShowsTheComparison() {
        List<String> lines = CowScenarios.dataloader(8, 2, CowScenarios.Data.LIST).getLast().lines(10);
        assertThat(lines).contains(
                "  data   peak frames  peak memory",
                "  list            24       96 KiB",
                "  array            8       32 KiB");
    }

    @Test
    void statesKeepTheirOwnLists() {
        List<WalkState.FaultCase> cases = new ArrayList<>(List.of(new WalkState.FaultCase("address in no VMA", "send SIGSEGV", "-")));
        WalkState.FaultHandled s = new WalkState.FaultHandled("x86-64-4", "0x0000000000001000", "PT", "4 KiB page", cases);
        cases.add(new WalkState.FaultCase("another", "none", "-"));
        assertThat(s.cases()).hasSize(1);
        assertThat(new Step(1, "t", "n.", s).plainState()).containsOnlyKeys("kind", "layout", "address", "faultLevel", "missing", "cases");
    }
}
