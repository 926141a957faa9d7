package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.core.Stats;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.Cut;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.machine.Host;
import hostside.process.LoadWindow;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.HostTarget;

/** `vm --anon-size 1T` on a machine with less: the first-touch results say what they used instead, and why. */
class AnonCutTest {
    static final long GIB = 1L << 30;

    static HostTarget target(long budget) {
        return new HostTarget(FsRoot.live(), 4096, 2L << 20, "madvise", budget, VmDrill.budgetWhy(budget), Path.of("/tmp"), "tmpfs", null, 0);
    }

    static Result touched(AnonTouch t, long bytes) {
        long faults = bytes / 4096;
        var d = new AnonTouch.TouchDetail(bytes, 4096, faults, 256.0, 3.2, t.huge() ? 2L << 20 : null, 0, null, null, null, null);
        return Result.ok(t, Unit.MS_PER_GIB, Stats.of(new double[] {800, 810, 820}), "mmap", d);
    }

    @Test
    void aCutSizeIsInTheDetailAndTheText() throws Exception {
        HostTarget t = target(5 * GIB);
        List<Result> results = VmDrill.withAnonCut(List.of(touched(new AnonTouch(false), 5 * GIB), touched(new AnonTouch(true), 5 * GIB)),
                t, 1L << 40);
        for (Result r : results) {
            Cut c = Cut.in(r).orElseThrow();
            assertThat(c.option()).isEqualTo("--anon-size");
            assertThat(c.asked()).isEqualTo(1L << 40);
            assertThat(c.used()).isEqualTo(5 * GIB);
            assertThat(c.why()).startsWith("a quarter of available memory (5.0 GiB of 20.0 GiB");
        }
        var json = Json.MAPPER.valueToTree(results.getFirst());
        assertThat(json.path("detail").path("cut").path("asked").asLong()).isEqualTo(1L << 40);
        assertThat(json.path("detail").path("cut").path("used").asLong()).isEqualTo(5 * GIB);
        assertThat(json.path("detail").path("cut").path("why").asText()).contains("a quarter of available memory");

        FsRoot h200 = FsRoot.open(hostside.Fixtures.h200().toString());
        VmRun run = new VmRun(Host.read(h200), VmDrill.DRILL.facts(h200), List.of(), results, VmGpu.notRun("no GPU here"), List.of());
        // the note may wrap at the terminal's width: compared with its spaces made one
        assertThat(new TextRenderer(Style.plain()).render(VmDocument.of(run)).replaceAll("\\s+", " "))
                .contains("note: anon_first_touch_base: --anon-size 1.0 TiB asked, 5.0 GiB used: a quarter of available memory (5.0 GiB of 20.0 GiB");
    }

    /** A stand-in for the first-touch measurement: the key and the region it would touch, without touching it. */
    record FakeTouch() implements TestCase<HostTarget> {
        public String key() {
            return "anon_first_touch_base";
        }

        public String description() {
            return "first touch, faked";
        }

        public Result run(HostTarget t) {
            return touched(new AnonTouch(false), t.bounded(t.anonBytes(), Math.max(t.hugePageSize(), t.pageSize())));
        }
    }

    @Test
    void theDrillPutsTheCutInItsResults() {
        VmRun run = VmDrill.run(FsRoot.live(), Host.read(FsRoot.live()), List.of(new FakeTouch()), List.of(), new VmDrill.Options(null, null, 1L << 50), key -> {}, VmDrill.Reused.NONE, LoadWindow.NONE);
        Cut c = Cut.in(run.host().getFirst()).orElseThrow(() -> new AssertionError("no cut in " + run.host().getFirst().detail()));
        assertThat(c.asked()).isEqualTo(1L << 50);
        assertThat(c.used()).isEqualTo(((AnonTouch.TouchDetail) run.host().getFirst().detail()).regionBytes());
    }

    @Test
    void aSizeThatFitsIsNotACut() {
        List<Result> asked = List.of(touched(new AnonTouch(false), 256L << 20));
        assertThat(VmDrill.withAnonCut(asked, target(5 * GIB), 256L << 20)).allSatisfy(r -> assertThat(Cut.in(r)).isEmpty());
        assertThat(VmDrill.withAnonCut(asked, target(5 * GIB), null)).as("the default fits too").allSatisfy(r -> assertThat(Cut.in(r)).isEmpty());
        assertThat(VmDrill.withAnonCut(asked, target(64L << 20), null)).as("the default cut on a small machine is said")
                .allSatisfy(r -> assertThat(Cut.in(r).orElseThrow().used()).isEqualTo(64L << 20));
    }
}
