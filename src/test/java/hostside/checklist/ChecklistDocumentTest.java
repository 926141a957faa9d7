package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Style;
import hostside.core.Units;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;
import hostside.process.TaskState;

/**
 * The checklist's one document, drawn for the terminal from a window over a recorded /proc: the
 * verdict, every step in order, the figures where they belong; and every reading the same in
 * text, Markdown and HTML.
 */
class ChecklistDocumentTest {
    @TempDir
    Path dir;

    /** Wide enough that no line wraps: each line below is checked whole. */
    static String text(Checklist c) {
        return new TextRenderer(Style.plain(), 400).render(ChecklistDocument.of(c));
    }

    /** The line after the one that is {@code heading}: a step's first line. */
    static String after(List<String> lines, String heading) {
        return lines.get(lines.indexOf(heading) + 1);
    }

    @Test
    void theTrainingJobOnOneScreen() throws InterruptedException {
        Checklist c = Checklists.job(dir);
        String text = text(c);
        List<String> lines = text.lines().toList();
        assertThat(lines.getFirst()).isEqualTo("hostside checklist: PID 100 python3");
        assertThat(lines.get(1)).isEqualTo("2.0 s from 2026-12-02T12:00:00Z (5 samples, every 500 ms)");
        assertThat(after(lines, "Verdict")).isEqualTo("  ! CPU-bound: 1 thread at 100% on core 2; GPUs not read: no NVIDIA driver (libnvidia-ml.so.1 not found)."
                + " Fix: " + ChecklistRules.CPU_BOUND_FEEDING.fix() + " [M4-60S-CPU-BOUND-FEEDING]");
        assertThat(text).doesNotContain("\u001b[");
        List<String> steps = lines.stream().filter(l -> l.matches("[1-6] \\S.*")).toList();
        assertThat(steps).containsExactly("1 Load", "2 Kernel", "3 CPUs", "4 Process", "5 I/O", "6 GPUs");
        assertThat(lines).anyMatch(l -> l.matches("\\s+load\\s+0\\.50 0\\.40 0\\.30 \\(1, 5, 15 min\\)"))
                .anyMatch(l -> l.matches("\\s+CPUs\\s+4"))
                .anyMatch(l -> l.matches("\\s+runnable\\s+3 \\(mean 2\\.6, most 3\\)"))
                .anyMatch(l -> l.matches("\\s+blocked on I/O\\s+1"))
                .as("PSI memory some: 10% of the window, avg10 10; full 0 and 0")
                .anyMatch(l -> l.matches("\\s+memory\\s+10\\s+10\\s+0\\s+0"));
        assertThat(after(lines, "2 Kernel")).startsWith("  log not read: a recorded machine has no kernel log");
        assertThat(lines).anyMatch(l -> l.matches("\\s+all\\s+27\\.5% busy \\(usr 27\\.5%, sys 0%, iowait 12\\.5%, irq 0%, soft 0%, steal 0%\\)"))
                .anyMatch(l -> l.matches("\\s+context switches\\s+2,000/s"))
                .anyMatch(l -> l.matches("\\s+pegged \\(≥95% busy\\)\\s+CPU 0"))
                .anyMatch(l -> l.matches("\\s+process\\s+python3, S \\(x\\), 135% CPU, 3 threads"))
                .anyMatch(l -> l.matches("\\s+memory\\s+RSS 20 MiB, PSS 10 MiB"))
                .anyMatch(l -> l.matches("\\s+faults\\s+20/s minor, 4/s major"))
                .anyMatch(l -> l.matches("\\s+I/O\\s+disk read 0\\.0 MB/s, write 2\\.1 MB/s \\(all read/write calls: 10\\.0 MB/s in, 0\\.0 MB/s out\\)"))
                .anyMatch(l -> l.matches("\\s+cgroup\\s+/job\\.slice/train\\.scope"))
                .anyMatch(l -> l.matches("\\s+allowed CPUs\\s+0-3"))
                .anyMatch(l -> l.matches("\\s+1 process, 50% CPU, RSS 20 MiB, PSS 10 MiB"));
        assertThat(after(lines, "6 GPUs")).isEqualTo("  not read: no NVIDIA driver (libnvidia-ml.so.1 not found)");
        assertThat(lines).anyMatch(l -> l.matches("\\s+101\\s+pt_data_loader\\s+100\\s+R 60% D 40%\\s+2\\s+20\\s+6"));
        assertThat(lines).anyMatch(l -> l.matches("\\s+nvme0n1\\s+0\\.0\\s+21\\.0\\s+0\\s+200\\s+2\\s+90"));
        assertThat(lines).anyMatch(l -> l.matches("\\s+eth0\\s+2\\.0\\s+0\\.0\\s+2000\\s+0\\s+0\\s+0"));
        assertThat(lines).as("no GPU sampled: no figures").doesNotContain("Figures");
        assertThat(new TextRenderer(Style.plain()).render(ChecklistDocument.of(c)).lines().count()).as("one screen, as the command prints it").isLessThan(60);
    }

    @Test
    void kernelEventsGpusUnknownsAndFiguresAsTheyRead() throws InterruptedException {
        String text = text(Checklists.full(dir));
        List<String> lines = text.lines().toList();
        assertThat(after(lines, "2 Kernel")).isEqualTo("  4 records");
        assertThat(lines).anyMatch(l -> l.matches("\\s+✗\\s+30 s ago\\s+hung task python3 \\(100\\)"))
                .anyMatch(l -> l.matches("\\s+✗\\s+4 min ago\\s+Xid 79 on 0000:3b:00 \\(2 times\\): GPU has fallen off the bus: unreachable over PCIe, needs a reboot"))
                .anyMatch(l -> l.matches("\\s+✗\\s+30 min ago\\s+OOM kill of pt_data_worker \\(200\\), this process, by its cgroup's limit"));
        assertThat(after(lines, "6 GPUs")).isEqualTo("  1 GPU (NVML)");
        assertThat(lines).anyMatch(l -> l.matches("\\s+0\\s+NVIDIA H200\\s+35\\.2 \\(20-60\\)\\s+12\\s+70 GiB of 141 GiB\\s+700/700\\s+1410/1980"
                + "\\s+power cap 80%\\s+1/15729\\s+yes"));
        assertThat(after(lines, "Unknown")).isEqualTo("  4 figures could not be read (--json lists all)");
        assertThat(lines).contains("  - a", "  - b", "  - c").doesNotContain("  - d");
        assertThat(after(lines, "Figures")).matches("\\s+figure\\s+scope\\s+median\\s+min\\s+max\\s+unit\\s+samples");
        assertThat(lines).anyMatch(l -> l.matches("\\s+gpu_util_percent\\s+gpu:0000:3b:00\\.0\\s+30\\.00\\s+20\\.00\\s+60\\.00\\s+%\\s+5"));
    }

    @Test
    void aSnapshotSaysWhatItCouldNotMeasure() throws Exception {
        ProcBox box = new ProcBox(dir);
        box.process(77, 1, "trainer", 'R', 0, 0, 10, 5, 2, 1).thread(77, 77, "trainer", 'R', 10, 5, 1, 0, 0);
        Checklist c = ChecklistRun.run(box.fs(), 77, 10, new FakeTicker(t -> {}), GpuFeed.none("unused"), i -> {});
        List<String> lines = text(c).lines().toList();
        assertThat(lines.get(1)).isEqualTo("one snapshot");
        assertThat(after(lines, "Verdict")).isEqualTo("  · one moment of a recorded machine: no rates, so no bottleneck is named [M4-60S-SNAPSHOT]");
        assertThat(after(lines, "3 CPUs")).startsWith("  not measured: a recorded machine is one moment");
        assertThat(after(lines, "5 I/O")).startsWith("  not measured: a recorded machine is one moment");
        assertThat(after(lines, "6 GPUs")).startsWith("  not read: a recorded machine");
        assertThat(lines).anyMatch(l -> l.matches("\\s+process\\s+trainer, R \\(x\\), 2 threads"));
    }

    @Test
    void longListsAreCutToOneScreenAndSaySo() throws InterruptedException {
        Checklist c = Checklists.job(dir);
        List<ProcessSection.ThreadUse> many = new ArrayList<>();
        for (int i = 0; i < 12; i++) many.add(KernelSectionTest.thread(1000 + i, 50.0 - i, java.util.Map.of(TaskState.SLEEPING, 1.0)));
        ProcessSection p = c.process();
        ProcessSection more = new ProcessSection(p.pid(), p.comm(), p.state(), 12L, p.cpuPercent(), p.rssBytes(), p.pssBytes(), p.memoryNotRead(),
                p.minorFaultsPerSecond(), p.majorFaultsPerSecond(), p.io(), p.ioNotRead(), p.cgroup(), p.cpusAllowed(), many, p.children());
        Checklist with = new Checklist(c.schema(), c.kind(), c.pid(), c.comm(), c.window(), c.verdict(), c.verdicts(), c.notes(), c.load(),
                c.kernel(), c.cpus(), more, c.io(), c.gpus(), c.unknowns());
        String text = text(with);
        assertThat(text).contains("t1007").doesNotContain("t1008").contains("the busiest 8 of 12 threads");
    }

    /** Markdown's backslash escapes taken out, so that a reading reads as it does elsewhere. */
    static String unescaped(String markdown) {
        return markdown.replaceAll("\\\\(\\p{Punct})", "$1");
    }

    @Test
    void everyReadingInAllThreeRenderings() throws InterruptedException {
        Checklist c = Checklists.full(dir);
        Document d = ChecklistDocument.of(c);
        String text = new TextRenderer(Style.plain(), 400).render(d);
        String markdown = unescaped(new MarkdownRenderer().render(d));
        String html = Jsoup.parse(new HtmlRenderer().render(d)).text();

        List<String> readings = new ArrayList<>(List.of("PID 100 python3", "0.50 0.40 0.30", "3 (mean 2.6, most 3)", "27.5% busy",
                "iowait 12.5%", "2,000/s", "CPU 0", "python3, S (x), 135% CPU, 3 threads", "RSS 20 MiB, PSS 10 MiB", "20/s minor, 4/s major",
                "write 2.1 MB/s", "10.0 MB/s in", "/job.slice/train.scope", "0-3", "R 60% D 40%", "1 process, 50% CPU", "pt_data_worker",
                "nvme0n1", "21.0", "eth0", "2000", "hung task python3 (100)", "Xid 79 on 0000:3b:00 (2 times)",
                "OOM kill of pt_data_worker (200), this process, by its cgroup's limit", "NVIDIA H200", "35.2 (20-60)", "70 GiB of 141 GiB",
                "700/700", "1410/1980", "power cap 80%", "1/15729", "4 figures could not be read"));
        for (Finding f : c.verdicts()) readings.add(f.text());
        for (String n : c.notes()) readings.add(n);
        for (ProcessSection.ThreadUse t : c.process().threadList()) readings.add(t.name());
        for (IoSection.DiskUse disk : c.io().disks()) readings.add(disk.name());
        assertThat(c.figures()).isNotEmpty();
        for (Figure f : c.figures()) {
            readings.addAll(List.of(f.key(), f.scope().toString(), Units.figure(f.value()), Units.figure(f.min()), Units.figure(f.max()),
                    Integer.toString(f.samples())));
        }
        for (String r : readings) {
            assertThat(text).as("text: " + r).contains(r);
            assertThat(markdown).as("Markdown: " + r).contains(r);
            assertThat(html).as("HTML: " + r).contains(r);
        }
    }
}
