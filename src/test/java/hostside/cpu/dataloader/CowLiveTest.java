package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import hostside.fs.FsRoot;
import hostside.harness.Result;
import hostside.harness.Runner;

/**
 * The real thing on this machine, small: a 16 MiB list dataset, two workers, two passes of
 * 300 ms. A list's refcount updates copy it into every worker; an array stays shared.
 */
class CowLiveTest {
    static DataLoaderTarget target;

    @BeforeAll
    static void machine() {
        String python = Python.find().orElse(null);
        target = new DataLoaderTarget(FsRoot.live(), python, 16L << 20, 2, 2, Duration.ofMillis(300), Duration.ofSeconds(30));
    }

    @Test
    void listCopiesArrayStaysShared() throws Exception {
        assumeThat(target.hasPython()).as("python3 on PATH").isTrue();
        List<Result> rs = Runner.run(List.of(new CowGrowth(DatasetKind.LIST), new CowGrowth(DatasetKind.ARRAY)), target, k -> {});
        Result list = rs.get(0), array = rs.get(1);
        report(list);
        report(array);
        assertThat(list.status()).as(list.why()).isEqualTo(hostside.harness.Status.OK);
        assertThat(list.unit()).isEqualTo(hostside.core.Unit.of("%"));
        assertThat(list.value().samples()).isEqualTo(2);
        assertThat(list.value().min()).as("every list worker copied most of the dataset").isGreaterThan(50);
        assertThat(hostside.harness.MapDetail.of(list)).containsEntry("workers", 2).containsKeys("datasetBytes", "totalPssBytes", "perWorker", "main", "rssCheck");
        assertThat((String) hostside.harness.MapDetail.of(list).get("rssCheck")).startsWith("VmRSS (/proc/PID/status) and Rss (smaps_rollup) agree");
        long dataset = ((Number) hostside.harness.MapDetail.of(list).get("datasetBytes")).longValue();
        assertThat(dataset).as("main's USS grew by about the dataset").isBetween(12L << 20, 24L << 20);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> workers = (List<Map<String, Object>>) hostside.harness.MapDetail.of(list).get("perWorker");
        for (Map<String, Object> w : workers) {
            long rss = ((Number) w.get("finalRssBytes")).longValue(), pss = ((Number) w.get("finalPssBytes")).longValue();
            long uss = ((Number) w.get("finalUssBytes")).longValue();
            assertThat(uss).isLessThanOrEqualTo(pss);
            assertThat(pss).isLessThanOrEqualTo(rss);
            assertThat((List<?>) w.get("samples")).as("samples every 100 ms over two 300 ms passes").hasSizeGreaterThanOrEqualTo(4);
        }

        if (array.status() == hostside.harness.Status.NOT_RUN) {
            assertThat(array.why()).contains("numpy");
            return;
        }
        assertThat(array.status()).as(array.why()).isEqualTo(hostside.harness.Status.OK);
        assertThat(array.value().max()).as("array workers kept the dataset shared").isLessThan(10);
        List<String> verdicts = DataLoaderVerdicts.of(rs);
        System.out.println(verdicts);
        assertThat(verdicts).singleElement().asString().startsWith("Python list: each worker's private memory grew by")
                .contains("a numpy array stayed shared");
    }

    static void report(Result r) {
        System.out.println(r.key() + " " + r.status() + " " + r.why() + " " + r.value());
        if (!r.isOk()) return;
        System.out.println("  dataset " + hostside.harness.MapDetail.of(r).get("datasetBytes") + " (estimate " + hostside.harness.MapDetail.of(r).get("datasetEstimateBytes") + "), items "
                + hostside.harness.MapDetail.of(r).get("items") + ", totalPss " + hostside.harness.MapDetail.of(r).get("totalPssBytes") + ", rounds " + hostside.harness.MapDetail.of(r).get("rounds") + ", "
                + hostside.harness.MapDetail.of(r).get("seconds") + " s, " + hostside.harness.MapDetail.of(r).get("rssCheck"));
        @SuppressWarnings("unchecked")
        Map<String, Object> main = (Map<String, Object>) hostside.harness.MapDetail.of(r).get("main");
        System.out.println("  main: before build USS " + main.get("beforeBuildUssBytes") + ", after " + main.get("afterBuildUssBytes") + ", final RSS "
                + main.get("finalRssBytes") + " PSS " + main.get("finalPssBytes") + " USS " + main.get("finalUssBytes"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> ws = (List<Map<String, Object>>) hostside.harness.MapDetail.of(r).get("perWorker");
        for (Map<String, Object> w : ws) {
            System.out.println("  worker " + w.get("worker") + ": RSS " + w.get("finalRssBytes") + " VmRSS " + w.get("finalVmRssBytes") + " PSS "
                    + w.get("finalPssBytes") + " USS " + w.get("startUssBytes") + " -> " + w.get("finalUssBytes") + " shared " + w.get("finalSharedBytes")
                    + " growth " + w.get("growthPercent") + "%");
        }
    }
}
