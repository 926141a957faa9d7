package hostside.learn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.process.MachineLoad;
import hostside.report.Fleet;
import hostside.report.Report;
import hostside.report.ReportReader;

/** The final self-check answered from real reports: the H200's (GPU, measured) and the dev VM's (no GPU). */
class SelfCheckTest {
    static Report report(String path) throws Exception {
        return ReportReader.read(Json.MAPPER.readTree(Path.of(path).toFile()), path);
    }

    @Test
    void answersFromADrillThatBeganBusySaySo() throws Exception {
        Report r = report("testdata/reports/h200-hostside2.json");
        assertThat(SelfCheck.of(r)).as("a quiet report").noneMatch(q -> q.answer().contains("busy"));
        var busy = new MachineLoad(201, 2, 1.02, 0.1, 0.0, 35.0, 60.0, 4, 3.1, 0.25, true, null);
        var c = r.confounders();
        Report loaded = new Report(r.schema(), r.kind(), r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(c.clocksLocked(), c.numaBalancing(), c.thp(), c.loadAtStart(),
                        List.of(new Fleet.DrillLoad("io", busy)), c.mode()),
                r.title(), r.questions(), r.headlines(), r.figures(), r.modules());
        List<SelfCheck.Question> q = SelfCheck.of(loaded);
        assertThat(q.get(5).answer()).as("the I/O answer").contains("Measured while the machine was busy (the io drill began busy)");
        assertThat(q.get(2).answer()).as("the copies were measured quiet").doesNotContain("busy");
    }

    @Test
    void theH200AnswersAllSevenFromItsFigures() throws Exception {
        Report r = report("testdata/reports/h200-hostside2.json");
        List<SelfCheck.Question> q = SelfCheck.of(r);
        assertThat(q).extracting(SelfCheck.Question::number).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(q).allMatch(SelfCheck.Question::answered);
        assertThat(q.get(0).answer()).isEqualTo(r.questions().get(0).answer());
        assertThat(q.get(1).answer()).contains("pinned 55.3 GB/s");
        // pageable 7.96 against pinned 55.3 GB/s: the ratio and 10 GB both ways, from the figures
        assertThat(q.get(2).answer()).startsWith("A pageable copy runs at 7.96 GB/s against 55.3 GB/s pinned: 6.95x slower").contains("10 GB takes 1.26 s pageable and 0.181 s pinned");
        assertThat(q.get(3).answer()).startsWith("THP is set to madvise").contains("First touch of 1 GiB: 384 ms with base pages, 140 ms with THP (100% of it huge)")
                .as("PyTorch asks for huge pages only when told to (c10 alloc_cpu, THP_MEM_ALLOC_ENABLE, off by default)").contains("asks only with THP_MEM_ALLOC_ENABLE=1").doesNotContain("allocator asks for its large blocks");
        assertThat(q.get(4).answer()).startsWith("Kernel launches run late by").contains("with a hog on every core").contains("As a CUDA graph");
        assertThat(q.get(5).answer()).startsWith("read() through the page cache, cold, at 1.72 GB/s");
        assertThat(q.get(6).answer()).startsWith("not in a container");
    }

    @Test
    void aMachineWithoutAGpuSaysWhatIsMissingAndWhichCommandMeasuresIt() throws Exception {
        List<SelfCheck.Question> q = SelfCheck.of(report("testdata/reports/devvm-hostside2.json"));
        assertThat(q.get(2).answered()).isFalse();
        assertThat(q.get(2).answer()).isEqualTo("Not in this report: no host-to-device copies in this report (no GPU, or not measured). hostside machine on a GPU machine measures it.");
        // the timer's wake-ups stand in for the launches, and say so
        assertThat(q.get(4).answer()).startsWith("Timer wake-ups run late by").endsWith("(No GPU: these are the timer's wake-ups, the feeder's side of a launch.)");
        assertThat(q.get(5).answered()).isTrue();
    }
}
