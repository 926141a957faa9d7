package hostside.vm.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import hostside.vm.explain.CowScenarios.Data;

class CowScenariosTest {
    @Test
    void listStoryStepByStep() {
        List<Step> steps = CowScenarios.dataloader(8, 2, Data.LIST);
        assertThat(steps).extracting(Step::title).containsExactly(
                "main builds the dataset: 8 pages",
                "fork(): worker 0 starts",
                "fork(): worker 1 starts",
                "worker 0 touches an item on page 0: copied",
                "worker 0 goes over pages 1-7: 7 more copies",
                "worker 1 goes over every page: 8 copies",
                "main touches page 0: last mapper, no copy",
                "worker 0 exits: 8 frames freed",
                "worker 1 exits: 8 frames freed",
                "Summary: list 24 pages at peak, array 8 pages");
        assertThat(steps).extracting(s -> s.plainState().get("framesInUse")).containsExactly(8, 8, 8, 9, 16, 24, 24, 16, 8, 8);
        assertThat(steps).extracting(Step::number).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);

        // After both forks: one frame per page, three mappers, everyone read-only.
        assertThat(pageTable(steps.get(2), 0)).allSatisfy(e -> assertThat(e).containsEntry("writable", false).containsEntry("mapcount", 3));

        // The first incref copies page 0 for worker 0 and leaves two mappers on the original.
        Map<String, Object> first = accesses(steps.get(3)).getFirst();
        assertThat(first).containsEntry("op", "incref").containsEntry("outcome", "copied").containsEntry("frameBefore", 1)
                .containsEntry("frameAfter", 9).containsEntry("mapcountBefore", 3);
        assertThat(steps.get(3).plainState().get("changed")).isEqualTo(List.of(Map.of("pid", 101, "page", 0)));
        assertThat(steps.get(3).narration()).contains("ob_refcnt").contains("mapcount 2");

        // Worker 1's copies are made while main still maps the originals (mapcount 2, not 1).
        assertThat(accesses(steps.get(5))).allSatisfy(a -> assertThat(a).containsEntry("outcome", "copied").containsEntry("mapcountBefore", 2));

        // main is the last mapper of frame 1: write bit back, no new frame.
        assertThat(accesses(steps.get(6)).getFirst()).containsEntry("outcome", "reused").containsEntry("frameAfter", 1);
        assertThat(steps.get(6).narration()).contains("last process mapping f1").contains("no copy");

        // Per-process figures at the peak: everyone has a private copy.
        for (Map<String, Object> p : processes(steps.get(5)))
            assertThat(p).containsEntry("rssBytes", 32768L).containsEntry("pssBytes", 32768.0).containsEntry("ussBytes", 32768L);
        assertThat(processes(steps.get(8))).extracting(p -> p.get("name")).containsExactly("main");
    }

    @Test
    void summaryComparesListAndArray() {
        Step summary = CowScenarios.dataloader(8, 2, Data.LIST).getLast();
        assertThat(summary.narration()).contains("With a numpy array the 3 processes would use 8 pages in all, not 24.")
                .contains("/proc/PID/smaps_rollup").contains("hostside cpu");
        assertThat(summary.plainState().get("comparison")).isEqualTo(List.of(
                Map.of("data", "list", "peakFrames", 24, "peakMemoryBytes", 98304L),
                Map.of("data", "array", "peakFrames", 8, "peakMemoryBytes", 32768L)));
        Step other = CowScenarios.dataloader(8, 2, Data.ARRAY).getLast();
        assertThat(other.narration()).contains("With a Python list the 3 processes would use 24 pages, not 8");
    }

    @Test
    void arrayStoryNeverCopies() {
        List<Step> steps = CowScenarios.dataloader(8, 2, Data.ARRAY);
        assertThat(steps).extracting(Step::title).containsExactly(
                "main builds the dataset: 8 pages",
                "fork(): worker 0 starts",
                "fork(): worker 1 starts",
                "worker 0 reads page 0: no copy",
                "worker 0 reads pages 1-7: no copies",
                "worker 1 reads every page: no copies",
                "worker 0 exits: no frame freed",
                "worker 1 exits: no frame freed",
                "Summary: array 8 pages at peak, list 24 pages");
        assertThat(steps).allSatisfy(s -> assertThat(s.plainState().get("framesInUse")).isEqualTo(8));
        assertThat(steps).flatExtracting(CowScenariosTest::accesses).allSatisfy(a -> assertThat(a).containsEntry("outcome", "read"));
        // PSS splits the dataset three ways; USS shows nothing private.
        for (Map<String, Object> p : processes(steps.get(5))) {
            assertThat((Double) p.get("pssBytes")).isCloseTo(32768 / 3.0, within(0.1));
            assertThat(p).containsEntry("ussBytes", 0L).containsEntry("rssBytes", 32768L);
        }
        assertThat(processes(steps.get(6)).getFirst()).containsEntry("pssBytes", 16384.0);
    }

    @ParameterizedTest
    @CsvSource({"8,2,LIST", "8,2,ARRAY", "1,1,LIST", "5,4,LIST", "3,3,ARRAY", "64,16,LIST"})
    void pssAddsUpToMemoryEveryStep(int pages, int workers, Data data) {
        List<Step> steps = CowScenarios.dataloader(pages, workers, data);
        for (Step s : steps) {
            double pss = processes(s).stream().mapToDouble(p -> (Double) p.get("pssBytes")).sum();
            // The state rounds PSS to 0.1 byte per process.
            assertThat(pss).as(s.title()).isCloseTo(((Number) s.plainState().get("memoryBytes")).doubleValue(), within(0.1 * (workers + 1)));
            assertThat(Narration.sentences(s.narration())).as(s.title()).isBetween(1, 4);
        }
        int peak = (Integer) steps.getLast().plainState().get("peakFrames");
        assertThat(peak).isEqualTo(data == Data.LIST ? pages * (workers + 1) : pages);
    }

    @Test
    void pageSizeIsAParameter() {
        Step first = CowScenarios.dataloader(2, 1, Data.LIST, 65536).getFirst();
        assertThat(first.plainState()).containsEntry("pageSizeBytes", 65536L).containsEntry("memoryBytes", 131072L);
        assertThat(first.narration()).contains("128 KiB");
    }

    @Test
    void badSizes() {
        assertThatThrownBy(() -> CowScenarios.dataloader(0, 2, Data.LIST)).hasMessage("--pages 0: choose 1 to 64");
        assertThatThrownBy(() -> CowScenarios.dataloader(8, 65, Data.LIST)).hasMessage("--workers 65: choose 1 to 64");
        assertThatThrownBy(() -> Data.parse("tensor")).hasMessage("unknown --data 'tensor': choose list or array");
        assertThat(Data.parse(" ARRAY")).isEqualTo(Data.ARRAY);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> processes(Step s) {
        return (List<Map<String, Object>>) s.plainState().get("processes");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> accesses(Step s) {
        return (List<Map<String, Object>>) s.plainState().get("accesses");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> pageTable(Step s, int process) {
        return (List<Map<String, Object>>) processes(s).get(process).get("pageTable");
    }
}
