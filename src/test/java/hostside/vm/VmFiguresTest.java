package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.vm.measure.AnonTouch;

/** Module 2's typed figures, from a run built by hand: keys, scopes, units, directions and values. */
class VmFiguresTest {
    static Figure figure(List<Figure> all, String key) {
        return all.stream().filter(f -> f.key().equals(key)).findFirst().orElseThrow(() -> new AssertionError("no figure " + key));
    }

    @Test
    void everyMeasuredCaseIsAFigureInOrderWithTheDerivedOnesAfterTheirCase() {
        List<Figure> f = Runs.measured().figures();
        assertThat(f).extracting(Figure::key).containsExactly(
                "file_read_cold", "file_mmap_cold", "file_read_warm", "file_mmap_warm",
                "anon_first_touch_base", "anon_first_touch_base_us_per_fault",
                "anon_first_touch_thp", "anon_first_touch_thp_us_per_fault", "anon_first_touch_thp_huge_percent",
                "tlb_reach_base", "tlb_reach_huge",
                "pin_cost_host_alloc", "pin_cost_host_register",
                "managed_gpu_faults_h2d", "managed_cpu_faults_d2h", "managed_prefetch_h2d", "managed_prefetch_d2h");
    }

    @Test
    void fileReadsAreAboutTheirFolderTheOtherHostCasesAboutTheMachineTheGpuCasesAboutTheGpu() {
        List<Figure> f = Runs.measured().figures();
        for (Figure x : f) {
            Scope expected = x.key().startsWith("file_") ? Scope.dir(Runs.DIR)
                    : x.key().startsWith("pin_") || x.key().startsWith("managed_") ? Scope.gpu(Runs.PCI) : Scope.MACHINE;
            assertThat(x.scope()).as(x.key()).isEqualTo(expected);
        }
        assertThat(figure(f, "file_read_cold").scope().toString()).isEqualTo("dir:/var/tmp");
        assertThat(figure(f, "managed_prefetch_h2d").scope().toString()).isEqualTo("gpu:0000:00:06.0");
    }

    @Test
    void unitsAndDirections() {
        List<Figure> f = Runs.measured().figures();
        assertThat(figure(f, "file_mmap_warm")).extracting(Figure::unit, Figure::better).containsExactly(Unit.GB_PER_S, Better.HIGHER);
        assertThat(figure(f, "anon_first_touch_base")).extracting(Figure::unit, Figure::better).containsExactly(Unit.MS_PER_GIB, Better.LOWER);
        assertThat(figure(f, "anon_first_touch_base_us_per_fault")).extracting(Figure::unit, Figure::better).containsExactly(Unit.US, Better.LOWER);
        assertThat(figure(f, "anon_first_touch_thp_huge_percent").better()).as("more huge pages is better, unlike most percentages")
                .isEqualTo(Better.HIGHER);
        assertThat(figure(f, "anon_first_touch_thp_huge_percent").unit()).isEqualTo(Unit.PERCENT);
        assertThat(figure(f, "tlb_reach_huge")).extracting(Figure::unit, Figure::better).containsExactly(Unit.NS, Better.LOWER);
        assertThat(figure(f, "pin_cost_host_alloc")).extracting(Figure::unit, Figure::better).containsExactly(Unit.MS_PER_GIB, Better.LOWER);
        assertThat(figure(f, "managed_cpu_faults_d2h")).extracting(Figure::unit, Figure::better).containsExactly(Unit.GB_PER_S, Better.HIGHER);
    }

    @Test
    void valuesSpreadsSamplesMethodsAndAnchors() {
        List<Figure> f = Runs.measured().figures();
        Figure cold = figure(f, "file_read_cold");
        assertThat(cold.value()).isEqualTo(1.594);
        assertThat(cold.min()).isEqualTo(1.567);
        assertThat(cold.max()).isEqualTo(1.607);
        assertThat(cold.samples()).isEqualTo(3);
        assertThat(cold.anchor()).isEqualTo("fio --rw=read --size=1g");
        // the TLB figure is the walk's largest set, 4 GiB, and its peer is lat_mem_rd
        Figure tlb = figure(f, "tlb_reach_base");
        assertThat(tlb.value()).isEqualTo(276.9);
        assertThat(tlb.min()).isCloseTo(276.9 * 0.95, within(1e-9));
        assertThat(tlb.anchor()).isEqualTo("lmbench lat_mem_rd");
        assertThat(figure(f, "managed_prefetch_h2d").value()).isEqualTo(48.2);
        assertThat(figure(f, "managed_prefetch_h2d").samples()).isEqualTo(5);
    }

    @Test
    void theCostPerFaultScalesTheTimesSpreadAndTheHugeShareIsOneValue() {
        List<Figure> f = Runs.measured().figures();
        Figure us = figure(f, "anon_first_touch_base_us_per_fault");
        assertThat(us.value()).isEqualTo(1.65);
        // 433 ms per GiB median, 419..555.9: the per-fault figure spreads alike
        assertThat(us.min()).isCloseTo(1.65 * 419.0 / 433.0, within(1e-9));
        assertThat(us.max()).isCloseTo(1.65 * 555.9 / 433.0, within(1e-9));
        assertThat(us.samples()).isEqualTo(5);
        Figure huge = figure(f, "anon_first_touch_thp_huge_percent");
        assertThat(huge.value()).isEqualTo(100.0);
        assertThat(huge.min()).isEqualTo(100.0);
        assertThat(huge.max()).isEqualTo(100.0);
        assertThat(figure(f, "anon_first_touch_thp_us_per_fault").value()).as("a huge page's fault zeroes 2 MiB").isEqualTo(274.5);
    }

    @Test
    void onlyWhatRanIsAFigure() {
        List<Figure> f = Runs.someNotMeasured().figures();
        assertThat(f).extracting(Figure::key).doesNotContain("file_mmap_cold", "tlb_reach_huge").contains("file_read_cold", "tlb_reach_base");
        // a first touch that counted no fault has no cost per fault, and a base-page touch no huge share
        var d = new AnonTouch.TouchDetail(1L << 20, 4096, 0, 0, null, null, 0, null, null, null, null);
        var r = Runs.touchBase(null).withDetail(d);
        assertThat(VmRun.touchFigures(r, d)).isEmpty();
        assertThat(VmRun.touchFigures(Runs.touchBase(null), (AnonTouch.TouchDetail) Runs.touchBase(null).detail()))
                .extracting(Figure::key).containsExactly("anon_first_touch_base_us_per_fault");
    }

    @Test
    void noGpuMeansNoGpuFigures() {
        VmRun all = Runs.measured();
        VmRun none = new VmRun(all.machine(), all.facts(), all.findings(), all.host(), VmGpu.notRun("no NVIDIA driver"), List.of());
        assertThat(none.figures()).noneMatch(x -> x.scope().kind() == Scope.Kind.GPU);
        assertThat(none.figures()).hasSize(11);
    }

    @Test
    void theJsonCarriesTheFigures() {
        JsonNode j = Runs.measured().json();
        assertThat(j.path("figures")).hasSize(17);
        JsonNode first = j.path("figures").get(0);
        assertThat(first.path("key").asText()).isEqualTo("file_read_cold");
        assertThat(first.path("scope").asText()).isEqualTo("dir:/var/tmp");
        assertThat(first.path("unit").asText()).isEqualTo("GB/s");
        assertThat(first.path("better").asText()).isEqualTo("higher");
        assertThat(first.path("value").asDouble()).isEqualTo(1.594);
        assertThat(j.path("gpu").has("figures")).as("the GPU's figures are in the one flat list, not beside its results").isFalse();
        assertThat(j.path("gpu").path("measuredPciAddress").asText()).isEqualTo(Runs.PCI);
    }
}
