package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.FakeNvml;

/**
 * A checklist reads back from its own JSON into an equal record, and writes the same JSON again:
 * a recorded machine's snapshot, a window over a recorded /proc with every section filled, and a
 * live window over this JVM with the fake GPUs. The derived figures are written, not read.
 */
class ChecklistReadBackTest {
    @TempDir
    Path dir;

    @AfterEach
    void restore() {
        FakeNvml.resetActivity(FakeNvml.Variant.CURRENT);
    }

    static Checklist readBack(Checklist c) throws Exception {
        JsonNode tree = Json.MAPPER.valueToTree(c);
        Checklist back = Json.MAPPER.treeToValue(tree, Checklist.class);
        assertThat(back).isEqualTo(c);
        assertThat((JsonNode) Json.MAPPER.valueToTree(back)).isEqualTo(tree);
        return back;
    }

    @Test
    void aRecordedMachinesSnapshot() throws Exception {
        ProcBox box = new ProcBox(dir);
        box.process(77, 1, "trainer", 'R', 0, 0, 10, 5, 2, 1).thread(77, 77, "trainer", 'R', 10, 5, 1, 0, 0)
                .thread(77, 78, "pt_data_loader", 'D', 0, 0, 3, 0, 0);
        Checklist c = ChecklistRun.run(box.fs(), 77, 10, new FakeTicker(t -> {}), GpuFeed.none("unused"), i -> {});
        assertThat(c.window().mode()).isEqualTo(Checklist.Mode.SNAPSHOT);
        readBack(c);
    }

    @Test
    void aWindowWithEverySectionFilled() throws Exception {
        Checklist c = Checklists.job(dir);
        KernelSection kernel = KernelSectionTest.section(Set.of(SamplerTest.PID, SamplerTest.WORKER),
                KernelSectionTest.record(1, 1800, "Memory cgroup out of memory: Killed process 200 (pt_data_worker) total-vm:1kB, anon-rss:1kB"),
                KernelSectionTest.record(2, 600, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                KernelSectionTest.record(3, 30, "INFO: task python3:100 blocked for more than 122 seconds."),
                KernelSectionTest.record(4, 20, "EDAC MC0: 2 CE memory read error on DIMM_A1"));
        GpuSection gpus = new GpuSection(null, List.of(Checklists.gpu(0, "0000:3b:00.0", 35.2, 20, 60, 30.0, 5),
                new GpuSection.GpuUse(1, null, null, null, null, null, null, 0, null, null, null, null, null, null, null,
                        Map.of("power cap", 0.8, "idle", 0.2), null, null, List.of(), false)));
        Checklist full = Checklists.with(c, kernel, gpus, List.of("a", "b"));
        assertThat(full.cpus()).isNotNull();
        assertThat(full.io().disks()).isNotEmpty();
        assertThat(full.process().children().list()).isNotEmpty();
        Checklist back = readBack(full);
        assertThat(back.figures()).isEqualTo(full.figures()).hasSize(1);
    }

    @Test
    void aLiveWindowOverThisJvm() throws Exception {
        long me = ProcessHandle.current().pid();
        Checklist c;
        try (GpuFeed gpus = GpuFeed.nvml(FakeNvml.library())) {
            c = ChecklistRun.run(FsRoot.live(), me, 1, Ticker.system(), gpus, i -> {});
        }
        assertThat(c.window().mode()).isEqualTo(Checklist.Mode.LIVE);
        assertThat(c.gpus().gpus()).hasSize(2);
        assertThat(c.process().threadList()).hasSizeGreaterThan(5);
        readBack(c);
    }
}
