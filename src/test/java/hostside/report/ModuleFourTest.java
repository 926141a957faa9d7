package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.cli.Main;
import hostside.core.Findings;
import hostside.core.Json;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.CpuDrill;
import hostside.cpu.CpuRun;
import hostside.cpu.Runs;
import hostside.cpu.measure.LaunchJitter;
import hostside.doc.MarkdownRenderer;
import hostside.fs.FsRoot;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Selection;
import hostside.io.IoDocument;
import hostside.io.IoDrill;
import hostside.io.IoResults;
import hostside.io.IoRun;
import hostside.io.facts.IoFacts;
import hostside.machine.Host;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;

/** Module 4 in the report: its section drawn from the records read back, and the lines of the four questions it feeds. */
class ModuleFourTest {
    static final Host HOST = new Host("box", "6.8", "x86_64", "none detected", "", null, "live");

    static IoRun measured() {
        Result cold = IoResults.read("seq_read_cold_qd1", new Stats(1.65, 1.59, 1.76, 5), null, null);
        Result ring = IoResults.read("rand_read_direct_uring_qd32", new Stats(99_382, 87_400, 108_118, 5), null, null);
        Result sync = IoResults.write("write_fsync", new Stats(1.70, 1.52, 1.75, 3), Stats.of(400));
        Result skipped = Result.notRun(IoResults.test("seq_read_direct_uring_qd32"), "io_uring is refused (EPERM)");
        return new IoRun(HOST, null, List.of(), new IoRun.FileUsed("/var/tmp/hostside-io-1.tmp", 2L << 30, "ext4", true), List.of(cold, ring, sync, skipped),
                List.of(Findings.info("/var/tmp", "Loading a checkpoint: fine")));
    }

    /** Module 4's section of the report: the drill's own document, in Markdown. */
    static String md(IoRun run) {
        return new MarkdownRenderer().render(IoDocument.of(run));
    }

    @Test
    void theSectionTablesEveryFigureWithItsFioJob() {
        String s = md(measured());
        assertThat(s).contains("Of `/var/tmp/hostside-io-1.tmp` (2 GiB, ext4).");
        assertThat(s).contains("| `seq_read_cold_qd1` | 1.65 | 1.59 | 1.76 | GB/s | 1,574 IOPS |  |  | `fio --rw=read --bs=1M --size=2147483648 --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --fadvise_hint=0 --iomem=mmap --io_size=268435456` |");
        assertThat(s).contains("| `rand_read_direct_uring_qd32` | 99,382 | 87,400 | 108,118 | IOPS | 0.41 GB/s |");
        assertThat(s).contains("_`seq_read_direct_uring_qd32`: not run: io\\_uring is refused (EPERM)_");
        assertThat(s).contains("## What it means\n\n- Loading a checkpoint: fine\n");
    }

    @Test
    void aReportOfTheFirstSchemaNamesTheFioJobItsDetailsKept() throws Exception {
        JsonNode old = Json.MAPPER.readTree(hostside.Fixtures.testdata().resolve("reports/h200-hostside1.json").toFile());
        assertThat(ReportMarkdown.render(old)).contains("| `seq_read_cold_qd1` | 1.75 | 1.64 | 1.78 | GB/s | 1,666 IOPS | 136 us | 8118 us | `fio --rw=read --bs=1M --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --io_size=1073741824` |");
    }

    @Test
    void aRecordingSaysOnceWhyNothingWasMeasured() {
        IoRun none = new IoRun(HOST, null, List.of(), null, IoDrill.notRun(IoDrill.tests(), "recorded machine: nothing is measured under --root"), List.of());
        assertThat(md(none)).contains("## Reads and writes\n\n_not run: recorded machine: nothing is measured under --root_\n");
    }

    @Test
    void beyondTheBoxNamesTheStorageTier() {
        assertThat(ReportBuilder.storage(measured())).isEqualTo("storage under /var/tmp (ext4): a checkpoint reads at 1.65 GB/s cold (Module 4, seq_read_cold_qd1), writes 1.70 GB/s with fsync");
        assertThat(ReportBuilder.storage(null)).isEqualTo("storage not measured (Module 4 not asked for)");
        IoRun none = new IoRun(HOST, null, List.of(), null, IoDrill.notRun(IoDrill.tests(), "/var/tmp: no room"), List.of());
        assertThat(ReportBuilder.storage(none)).isEqualTo("storage not measured (/var/tmp: no room)");
    }

    @Test
    void theFactsOfARecordingBecomeTheStorageAndNetworkTables() {
        var fs = FsRoot.open(hostside.Fixtures.h200().toString());
        var facts = IoDrill.facts(fs, Host.read(fs), new IoDrill.Options(java.nio.file.Path.of("/tmp"), null, null, null));
        IoRun run = new IoRun(HOST, facts, List.of(), null, List.of(), List.of());
        assertThat(md(run)).contains("## Data paths", "| `/tmp` | / | ext4 | local: ext4 |", "## Network interfaces", "| eth0 |", "| 1400 |",
                "- **GPUDirect RDMA**: unknown", "- **GPUDirect Storage**: unknown", "- **/etc/cufile.json**: absent");
    }

    @Test
    void moduleFourOfAReportHoldsTheContainerTheFactsAndWhyNothingWasMeasured(@org.junit.jupiter.api.io.TempDir java.nio.file.Path out) throws Exception {
        String h200 = hostside.Fixtures.h200().toString();
        java.io.StringWriter o = new java.io.StringWriter(), e = new java.io.StringWriter();
        int code = Main.run(new String[] {"report", "--root", h200, "--out", out.toString(), "--name", "box"},
                new java.io.PrintWriter(o, true), new java.io.PrintWriter(e, true));
        assertThat(code).as(e.toString()).isZero();
        String md = java.nio.file.Files.readString(out.resolve("box.md"));
        String four = md.substring(md.indexOf("## Module 4"), md.indexOf("## Module 5"));
        assertThat(four).contains("### Container: not in a container", "#### Limits on this process", "| /dev/shm |", "### Data paths",
                "### Network interfaces", "| eth0 |", "### Reads and writes\n\n_not run: recorded machine");
        assertThat(four).as("one GPU, said in the singular").contains("1 NVIDIA GPU on the PCI bus");
    }

    @Test
    void withoutAGpuTheCpuAnswerStillQuotesTheTimerJitter() {
        MachineRun run = MachineDrill.DRILL.run(DrillContext.alone(FsRoot.open(
                hostside.Fixtures.hwloc().resolve("16amd64-8n2c-cpusets.tar.bz2").toString()), Selection.none(), ProgressSink.NONE, null), MachineDrill.DRILL.defaults());
        Result quiet = Runs.ok("timer_jitter_quiet", Unit.US, new Stats(94, 1, 900, 20_000),
                new Runs.Jitter().late(Runs.ns(94_000L, 142_000L, 170_000L, 900_000L)).missed(10).build());
        Result noGpu = Result.notRun(new LaunchJitter(LaunchJitter.Condition.QUIET), "no GPU to launch on");
        CpuRun cpu = new CpuRun(HOST, null, List.of(), new CpuDrill.Measured(List.of(quiet, noGpu), "", "no NVIDIA driver"),
                List.of(), List.of());
        var answers = ReportBuilder.build(new ReportBuilder.Drills(run, null, cpu, null, null, null), ReportBuilder.Circumstances.unknown(run),
                java.time.ZonedDateTime.parse("2026-12-02T12:00:00Z")).questions();
        assertThat(answers.getFirst().answer()).startsWith("no GPU found").endsWith("; timer wake-ups late by 142 us at p99 quiet");
        // a report from before the timer conditions: launch_jitter_quiet ran on the timer alone, without launch times
        Result old = Runs.ok("launch_jitter_quiet", Unit.US, new Stats(94, 1, 900, 20_000),
                new Runs.Jitter().late(Runs.ns(94_000L, 142_000L, 170_000L, 900_000L)).missed(10).build());
        assertThat(ReportBuilder.jitter(new CpuRun(HOST, null, List.of(), new CpuDrill.Measured(List.of(old), "", "no NVIDIA driver"),
                List.of(), List.of()))).isEqualTo("timer wake-ups late by 142 us at p99 quiet");
    }

    @Test
    void beyondTheBoxSaysWhetherGpuDirectIsOn() {
        var off = new IoFacts(List.of(), List.of(), List.of(), List.of(),
                new IoFacts.GpuDirect(false, null, false, "/proc/modules", null), List.of());
        assertThat(ReportBuilder.gpuDirect(new IoRun(HOST, off, List.of(), null, List.of(), List.of())))
                .isEqualTo("; GPUDirect RDMA off (no nvidia_peermem), GPUDirect Storage off (no nvidia_fs)");
        var on = new IoFacts(List.of(), List.of(), List.of(), List.of(),
                new IoFacts.GpuDirect(true, "nvidia_peermem", true, "/proc/modules", null), List.of());
        assertThat(ReportBuilder.gpuDirect(new IoRun(HOST, on, List.of(), null, List.of(), List.of())))
                .isEqualTo("; GPUDirect RDMA on (nvidia_peermem), GPUDirect Storage on (nvidia_fs)");
    }

    @Test
    void theCpuQuestionQuotesTheJitter() {
        Result quiet = Runs.ok("launch_jitter_quiet", Unit.US, new Stats(54, 1, 200, 20_000),
                new Runs.Jitter().late(Runs.ns(54_000L, 60_000L, 90_000L, 200_000L)).launch(5).missed(10).build());
        Result noisy = Runs.ok("launch_jitter_noisy", Unit.US, new Stats(55, 1, 5000, 19_600),
                new Runs.Jitter().late(Runs.ns(55_000L, 61_000L, 133_000L, 5_700_000L)).missed(400).build());
        CpuRun run = new CpuRun(HOST, null, List.of(), new CpuDrill.Measured(List.of(quiet, noisy), "GPU0: H200", ""),
                List.of(), List.of());
        assertThat(ReportBuilder.jitter(run)).isEqualTo("launches late by 60 us at p99 quiet, 61 us at p99 and 133 us at p99.9 with a hog on every core (2.0% of ticks missed)");
        assertThat(ReportBuilder.jitter(null)).isEqualTo("jitter not measured (Module 3 not asked for)");
    }
}
