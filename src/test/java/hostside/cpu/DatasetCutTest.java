package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.core.Stats;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.cpu.dataloader.CowDetail;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.cpu.dataloader.DatasetKind;
import hostside.cpu.facts.CpuFactsReader;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.Cut;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.machine.MachineReader;

/** `cpu --dataset-size 1T`: the DataLoader results carry what was used instead, and the view says it. */
class DatasetCutTest {
    @Test
    void theCutIsInTheCowResultsAndTheView() throws Exception {
        var cow = DataLoaderTarget.tests();
        var d = Runs.cow(DatasetKind.LIST, 91, 4, 1L << 30, 3L << 30, null);
        List<Result> results = List.of(Result.ok(cow.get(0), Unit.PERCENT, Stats.of(90, 91, 92), "smaps_rollup", d),
                Result.ok(cow.get(2), Unit.S, Stats.of(3), "spawn", Runs.spawn(Runs.FORK_REFUSED)), Result.notRun(cow.get(1), "no numpy"));
        Cut cut = new Cut("--dataset-size", 1L << 40, 1L << 30, "a quarter of available memory (20.0 GiB) over the 4 workers and main");
        List<Result> with = CpuDrill.withCut(results, cut);
        assertThat(Cut.in(with.get(0))).contains(cut);
        assertThat(Cut.in(with.get(1))).as("a result that did not use the dataset").isEmpty();
        assertThat(with.get(1)).isEqualTo(results.get(1));
        assertThat(with.get(2)).as("a case that did not run").isEqualTo(results.get(2));
        assertThat(Json.MAPPER.valueToTree(with.get(0)).path("detail").path("cut").path("used").asLong()).isEqualTo(1L << 30);

        FsRoot h200 = FsRoot.open(CpuCommandTest.H200);
        var machine = MachineReader.read(h200);
        var facts = CpuFactsReader.read(h200, machine);
        CpuRun run = new CpuRun(machine.host(), facts, List.of(), new CpuDrill.Measured(List.of(), "", ""), with, List.of());
        assertThat(new TextRenderer(Style.plain(), 1000).render(CpuDocument.of(run)))
                .contains("note: --dataset-size 1.0 TiB asked, 1.0 GiB used: a quarter of available memory (20.0 GiB) over the 4 workers and main");
    }

    /** A stand-in for the copy-on-write measurement: the dataset it would build, without python. */
    record FakeCow() implements TestCase<DataLoaderTarget> {
        public String key() {
            return "dataloader_cow_list";
        }

        public String description() {
            return "copy-on-write, faked";
        }

        @Override
        public Class<CowDetail> detailType() {
            return CowDetail.class;
        }

        public Result run(DataLoaderTarget t) {
            return Result.ok(this, Unit.PERCENT, Stats.of(1, 2, 3), "fake",
                    Runs.cow(DatasetKind.LIST, 2, t.workers(), t.datasetBytes(), t.datasetBytes(), null));
        }
    }

    @Test
    void theDrillPutsTheCutInItsResults() {
        List<Result> r = CpuDrill.dataloader(FsRoot.live(), List.of(new FakeCow()), new CpuDrill.Options(1000, 100_000, 1L << 50, 2), step -> {});
        Cut c = Cut.in(r.getFirst()).orElseThrow(() -> new AssertionError("no cut in " + r.getFirst().detail()));
        assertThat(c.asked()).isEqualTo(1L << 50);
        assertThat(c.used()).isEqualTo(((CowDetail) r.getFirst().detail()).datasetBytes());
        assertThat(c.why()).contains("over the 2 workers and main");
    }
}
