package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import hostside.core.Unit;
import hostside.fs.FsRoot;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;

/**
 * The real thing on this machine, small: a 16 MiB list dataset, two workers, two passes of
 * 300 ms. A list's refcount updates copy it into every worker; an array stays shared. Both run as
 * the drill runs them, in one session ({@link PythonSession}): an interpreter each.
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
        List<Result> rs;
        try (PythonSession session = new PythonSession(target.python())) {
            rs = Runner.run(List.of(new CowGrowth(DatasetKind.LIST), new CowGrowth(DatasetKind.ARRAY)), target.withSession(session), k -> {});
        }
        assertThat(Leftovers.scriptsRunning()).as("the session's end ends its interpreter").isEmpty();
        Result list = rs.get(0), array = rs.get(1);
        report(list);
        report(array);
        assertThat(list.status()).as(list.why()).isEqualTo(Status.OK);
        assertThat(list.unit()).isEqualTo(Unit.of("%"));
        assertThat(list.value().samples()).isEqualTo(2);
        assertThat(list.value().min()).as("every list worker copied most of the dataset").isGreaterThan(50);
        CowDetail d = (CowDetail) list.detail();
        assertThat(d.workers()).isEqualTo(2);
        assertThat(d.perWorker()).hasSize(2);
        assertThat(d.totalPssBytes()).isPositive();
        assertThat(d.main().samples()).isNotEmpty();
        assertThat(d.rssCheck()).startsWith("VmRSS (/proc/PID/status) and Rss (smaps_rollup) agree");
        assertThat(d.datasetBytes()).as("main's USS grew by about the dataset").isBetween(12L << 20, 24L << 20);
        for (CowDetail.Worker w : d.perWorker()) {
            assertThat(w.finalUssBytes()).isLessThanOrEqualTo(w.finalPssBytes());
            assertThat(w.finalPssBytes()).isLessThanOrEqualTo(w.finalRssBytes());
            assertThat(w.samples()).as("samples every 100 ms over two 300 ms passes").hasSizeGreaterThanOrEqualTo(4);
        }

        if (array.status() == Status.NOT_RUN) {
            assertThat(array.why()).contains("numpy");
            return;
        }
        assertThat(array.status()).as(array.why()).isEqualTo(Status.OK);
        assertThat(array.value().max()).as("array workers kept the dataset shared").isLessThan(10);
        CowDetail a = (CowDetail) array.detail();
        assertThat(a.main().pid()).as("each dataset in an interpreter that served none before").isNotEqualTo(d.main().pid());
        assertThat(a.datasetBytes()).as("main's USS grew by the array alone: numpy was imported before the first look")
                .isBetween(a.datasetEstimateBytes() / 2, a.datasetEstimateBytes() * 2);
        List<String> verdicts = VerdictsTest.texts(rs);
        System.out.println(verdicts);
        assertThat(verdicts).singleElement().asString().startsWith("Python list: each worker's private memory grew by")
                .contains("a numpy array stayed shared");
    }

    static void report(Result r) {
        System.out.println(r.key() + " " + r.status() + " " + r.why() + " " + r.value());
        if (!r.isOk()) return;
        CowDetail d = (CowDetail) r.detail();
        System.out.println("  dataset " + d.datasetBytes() + " (estimate " + d.datasetEstimateBytes() + "), items " + d.items() + ", totalPss "
                + d.totalPssBytes() + ", rounds " + d.rounds() + ", " + d.seconds() + " s, " + d.rssCheck());
        CowDetail.MainProcess main = d.main();
        System.out.println("  main: before build USS " + main.beforeBuildUssBytes() + ", after " + main.afterBuildUssBytes() + ", final RSS "
                + main.finalRssBytes() + " PSS " + main.finalPssBytes() + " USS " + main.finalUssBytes());
        for (CowDetail.Worker w : d.perWorker()) {
            System.out.println("  worker " + w.worker() + ": RSS " + w.finalRssBytes() + " VmRSS " + w.finalVmRssBytes() + " PSS " + w.finalPssBytes()
                    + " USS " + w.startUssBytes() + " -> " + w.finalUssBytes() + " shared " + w.finalSharedBytes() + " growth " + w.growthPercent() + "%");
        }
    }
}
