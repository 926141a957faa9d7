package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.core.Stats;
import hostside.harness.Result;
import hostside.io.IoRun;
import hostside.vm.VmRun;

/** Page one's two cold reads: named by drill and key, and their disagreement said where it is beyond both spreads. */
class ColdReadsTest {
    static Report h200() throws Exception {
        return ReportReader.read(Json.MAPPER.readTree(Path.of("testdata/reports/h200-hostside2.json").toFile()), "h200");
    }

    static Result with(Result r, double median, double min, double max) {
        return new Result(r.key(), r.description(), r.status(), r.why(), r.unit(), new Stats(median, min, max, r.value().samples()), r.better(), r.method(),
                r.anchor(), r.detail());
    }

    static VmRun vmWith(VmRun v, double median, double min, double max) {
        List<Result> host = new ArrayList<>();
        for (Result r : v.host()) host.add(r.key().equals(ColdReads.VM_KEY) ? with(r, median, min, max) : r);
        return new VmRun(v.machine(), v.facts(), v.findings(), host, v.gpu(), v.verdicts());
    }

    @Test
    void twoColdReadsThatDisagreeAreSaidToWithBothFigures() throws Exception {
        Report r = h200();
        VmRun vm = vmWith(r.module(VmRun.class), 6.38, 6.30, 6.45);
        IoRun io = r.module(Report.Storage.class).io();
        assertThat(ColdReads.disagreement(vm, io)).get().asString()
                .startsWith("; Module 2's cold read of its own file (file_read_cold) gave 6.38 GB/s (6.30-6.45) against this 1.72 GB/s")
                .contains("seq_read_cold_qd1").contains("disagree beyond their spreads");
        List<Report.Answer> a = ReportBuilder.withColdReads(r.questions(), vm, io);
        assertThat(a.get(3).answer()).contains("file_read_cold) gave 6.38 GB/s");
    }

    @Test
    void twoThatAgreeWithinTheirSpreadsSayNothingMore() throws Exception {
        Report r = h200();
        IoRun io = r.module(Report.Storage.class).io();
        // the recorded H200 run: 1.61 (1.59-1.62) against 1.72 (1.46-1.80): overlapping
        assertThat(ColdReads.disagreement(r.module(VmRun.class), io)).isEmpty();
        assertThat(ReportBuilder.withColdReads(r.questions(), r.module(VmRun.class), io)).isEqualTo(r.questions());
        assertThat(ColdReads.disagreement(null, io)).isEmpty();
    }
}
