package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Figure;
import hostside.core.Json;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.cpu.measure.LaunchJitter;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.DetailTypes;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Selection;

/** Module 3's document: every figure in all three renderings, the plots, and what the old view and the report's section said. */
class CpuDocumentTest {
    static final CpuRun RUN = Runs.full();
    static final Document DOC = CpuDocument.of(RUN);

    /** The lines of each rendering: text and Markdown by line, HTML by element that holds a row, a paragraph or an item. */
    static List<List<String>> renderings(Document d) {
        String text = new TextRenderer(Style.plain(), 1000).render(d);
        String md = new MarkdownRenderer().render(d);
        List<String> html = Jsoup.parse(new HtmlRenderer().render(d)).select("tr, p, li, dd, dt, figcaption").eachText();
        return List.of(text.lines().toList(), md.lines().toList(), html);
    }

    /** Where a figure shows and how: the row (or line) it is on, and its value as the document writes it. */
    record Expected(String row, String value) {}

    static Expected expected(Figure f) {
        String key = f.key();
        if (key.equals("syscall_getppid_kernel")) return new Expected("the kernel's own share is", Units.figure(f.value()) + " ns");
        for (String prefix : List.of("launch_jitter_", "timer_jitter_")) {
            if (!key.startsWith(prefix)) continue;
            String condition = (prefix.startsWith("timer") ? "timer " : "") + key.substring(prefix.length()).split("_")[0];
            if (key.endsWith("_missed_ticks")) return new Expected(condition, String.format(Locale.ROOT, "(%.1f%%)", f.value()));
            if (key.endsWith("_missed_count")) return new Expected(condition, String.format(Locale.ROOT, " %.0f (", f.value()));
            return new Expected(condition, String.format(Locale.ROOT, "%.1f", f.value()));
        }
        return new Expected(key, Units.figure(f.value()));
    }

    @Test
    void everyFigureIsInEveryRendering() {
        List<Figure> figures = RUN.figures();
        assertThat(figures).hasSize(47);
        List<List<String>> all = renderings(DOC);
        for (int r = 0; r < all.size(); r++) {
            List<String> lines = all.get(r);
            for (Figure f : figures) {
                Expected e = expected(f);
                assertThat(lines).as("rendering %d: %s (%s on the line of %s)", r, f.key(), e.value(), e.row())
                        .anyMatch(l -> l.contains(e.row()) && l.contains(e.value()));
            }
        }
    }

    @Test
    void eachConditionThatRanHasItsHistogramWithMarks() {
        List<Block.Histogram> plots = blocks(DOC).filter(b -> b instanceof Block.Histogram).map(b -> (Block.Histogram) b).toList();
        assertThat(plots).extracting(Block.Histogram::title).hasSize(6).allMatch(t -> t.startsWith("Wake-up lateness, "))
                .anyMatch(t -> t.startsWith("Wake-up lateness, timer noisy (hogs on CPUs 0-15"))
                .anyMatch(t -> t.contains("pinned (feeder on CPU 0, hogs on CPUs 1-15"))
                .anyMatch(t -> t.contains("graph (no hogs, 10 kernels per launch"));
        Block.Histogram quiet = plots.get(2);
        assertThat(quiet.title()).startsWith("Wake-up lateness, quiet (");
        assertThat(quiet.x().unit()).isEqualTo(Unit.US);
        assertThat(quiet.marks()).extracting(Block.Histogram.Mark::label).containsExactly("p50", "p99", "p99.9");
        assertThat(quiet.marks()).extracting(Block.Histogram.Mark::x).containsExactly(55.519, 61.791, 89.023);
        assertThat(quiet.bars()).first().isEqualTo(new Block.Histogram.Bar(40, 50, 310));
        assertThat(quiet.bars().stream().mapToLong(Block.Histogram.Bar::count).sum()).isEqualTo(20_000);
        assertThat(new HtmlRenderer().render(DOC)).as("drawn in HTML").contains("<svg");
        String text = new TextRenderer(Style.plain()).render(DOC);
        assertThat(text).containsPattern("\\n +50\\.\\.60 us +19210 +#{40}\\n").containsPattern("\\n +p99\\.9 +89\\.02 us\\n");
    }

    @Test
    void whatTheOldViewAndTheReportSectionShowedIsStillShown() {
        String text = new TextRenderer(Style.plain(), 1000).render(DOC);
        String md = new MarkdownRenderer().render(DOC);
        for (String s : new String[] {"6.18.44-fc-v973-gpu: EEVDF scheduler, preemption dynamic", "0-15 online, 16 cores",
                "isolcpus -, nohz_full -, rcu_nocbs -; isolated now: none", "may run on 0-15 (16 CPUs), no CPU quota", "no cpufreq (VM or firmware-controlled)",
                "cpuidle unknown, governor unknown", "IRQs of GPUs, NICs and NVMe drives (irqbalance unknown)", "GPU0 is fed best from CPUs 0-15 (local: 0-15)",
                "unknown: /proc/irq: missing for IRQs 34-36,42-49", "Median of the samples, with min and max.",
                "The timer conditions run refs timer's loop (cyclictest's, without SCHED_FIFO) in a JVM thread",
                "The launch conditions add an empty kernel on GPU0: NVIDIA H200 (0000:00:06.0) each tick: their lateness less the timer's is the launch's own share.",
                "missed: ticks that had passed by the time the feeder woke", "hogs: one process per CPU spinning in user space",
                "A launch call takes 5.1 us at p50, 17.0 us at p99; launching on each tick moves the p99 lateness from 60 us (timer alone) to 62 us quiet",
                "Forked Python workers reading a dataset", "note: --dataset-size 1.0 TiB asked, 257.0 MiB used",
                "A trivial syscall costs 151 ns here", "fork() touching CUDA", "spawn touching CUDA"}) {
            assertThat(text).as("text").contains(s);
            assertThat(md.replace("\\_", "_")).as("Markdown").contains(s);
        }
        assertThat(text).containsPattern("\\n +context_switch_cross_core +6237 +5764 +6474 +ns +7 +0-1\\n")
                .containsPattern("\\n +noisy +55\\.1 +56\\.8 +96\\.3 +7082\\.0 +451 \\(2\\.2%\\) +4\\.7 +7\\.1 +16\\.2 +34\\.8 +106\\.0 +1300\\.0\\n")
                .containsPattern("\\n +timer noisy +54\\.9 +61\\.8 +76\\.0 +3913\\.7 +38 \\(0\\.2%\\) +- +- +- +- +106\\.0 +1300\\.0\\n")
                .containsPattern("\\n +dataloader_cow_list +94\\.10 +94\\.00 +94\\.20 +% +257 MiB +4\\n");
        assertThat(md).contains("## Scheduler, isolation, IRQs", "## Findings", "## What the scheduler charges", "## Timer and launch jitter", "## DataLoader workers",
                "## What it means", "| GPU0 | gpu | 8 | 0 | 0 | 14 |", "| `syscall_getppid` | 151 | 144 | 157 | ns | 7 |  |");
    }

    @Test
    void notRunSaysWhyOnceOrPerRow() {
        CliRunOnRecording recorded = CliRunOnRecording.INSTANCE;
        String text = new TextRenderer(Style.plain(), 1000).render(CpuDocument.of(recorded.run()));
        assertThat(text).as("one reason for every measurement, said once").containsPattern("\\nMeasurements\\n +not run: recorded machine: nothing is measured under --root\\n");
        assertThat(text).containsPattern("\\n +dataloader_cow_list +not run: recorded machine");
        assertThat(text).containsPattern("\\nFindings\\n +· eth0's 2 IRQs land on CPUs 7-8");

        var failed = Result.failed(new LaunchJitter(LaunchJitter.Condition.NOISY), "boom");
        var quiet = Runs.measured().get(5);
        assertThat(quiet.key()).isEqualTo("timer_jitter_quiet");
        var noGpu = Result.notRun(new LaunchJitter(LaunchJitter.Condition.QUIET), "no GPU to launch on");
        CpuRun some = new CpuRun(RUN.machine(), null, List.of(), new CpuDrill.Measured(List.of(quiet, noGpu, failed), "", "no NVIDIA driver"), List.of(), List.of());
        String s = new TextRenderer(Style.plain(), 1000).render(CpuDocument.of(some));
        assertThat(s).contains("No GPU (no NVIDIA driver): the launch conditions are not run.").containsPattern("\\n +noisy +failed: boom\\n")
                .contains("not run: quiet (no GPU to launch on)").doesNotContainPattern("\\n +quiet +not run").containsPattern("\\n +timer quiet +54\\.3 +60\\.1 ")
                .contains("None.").doesNotContain("What the scheduler charges");
    }

    /** A recording the JIT compiled during is said, with how long it compiled; none (0 ms, or not counted) says nothing. */
    @Test
    void aRecordingTheJitCompiledDuringIsSaid() {
        Result compiled = new Runs.Jitter().jitInRecording(3L).result("timer_jitter_noisy", 20_000);
        Result none = new Runs.Jitter().jitInRecording(0L).result("timer_jitter_quiet", 20_000);
        Result uncounted = new Runs.Jitter().jitInRecording(null).result("launch_jitter_quiet", 20_000);
        String note = "the JIT compiled during the recording";
        String quiet = new TextRenderer(Style.plain(), 1000).render(CpuDocument.of(withJitter(List.of(none, uncounted))));
        assertThat(quiet).contains("hogs: one process per CPU").doesNotContain(note);
        String said = new TextRenderer(Style.plain(), 1000).render(CpuDocument.of(withJitter(List.of(none, compiled, uncounted))));
        assertThat(said).contains(note + " (timer noisy 3 ms): a compiler thread ran beside the feeder");
        assertThat(new MarkdownRenderer().render(CpuDocument.of(withJitter(List.of(compiled))))).contains(note);
    }

    static CpuRun withJitter(List<Result> rs) {
        return new CpuRun(RUN.machine(), null, List.of(), new CpuDrill.Measured(rs, "GPU0: NVIDIA H200 (0000:00:06.0)", ""), List.of(), List.of());
    }

    @Test
    void anOldReportRendersAndSaysItHasNoHistograms() throws Exception {
        DetailTypes.register(CpuDrill.DRILL.cases());
        JsonNode data = hostside.Fixtures.firstSchemaReport().path("modules").get(2).path("data");
        String text = new TextRenderer(Style.plain(), 1000).render(CpuDocument.of(Json.MAPPER.treeToValue(data, CpuRun.class)));
        assertThat(text).contains("noisy: no histogram of the lateness").containsPattern("\\n +noisy +55\\.1 +56\\.8 +96\\.3 +7082\\.0 +451 \\(2\\.2%\\)");
    }

    @Test
    void numbersIgnoreTheLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertThat(new TextRenderer(Style.plain()).render(CpuDocument.of(RUN))).isEqualTo(new TextRenderer(Style.plain()).render(DOC));
        } finally {
            Locale.setDefault(before);
        }
    }

    static Stream<Block> blocks(Document d) {
        return d.blocks().stream().flatMap(CpuDocumentTest::flat);
    }

    static Stream<Block> flat(Block b) {
        return b instanceof Block.Section s ? Stream.concat(Stream.of(b), s.blocks().stream().flatMap(CpuDocumentTest::flat)) : Stream.of(b);
    }

    /** The H200 recording's run, made once. */
    enum CliRunOnRecording {
        INSTANCE;

        private final CpuRun run = CpuDrill.DRILL.run(DrillContext.alone(FsRoot.open(CpuCommandTest.H200), Selection.all(), ProgressSink.NONE, null),
                CpuDrill.Options.defaults());

        CpuRun run() {
            return run;
        }
    }

}
