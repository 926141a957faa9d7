package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.harness.TestCase;
import hostside.libc.Libc;
import hostside.testing.CliRun;

/**
 * hostside vm as a user runs it: exit codes, one-line errors, the JSON. The measurements that
 * run here are the two small ones (a 64 MiB file read warm, an 8 MiB first touch), asserted for
 * what they counted, never for how fast.
 */
class VmCommandTest {
    @TempDir
    Path tmp;

    static CliRun run(String... args) {
        return CliRun.of(args);
    }

    static void oneLineError(CliRun r, String start) {
        r.assertOneLineError(start);
    }

    static JsonNode json(CliRun r) throws IOException {
        assertThat(r.code()).as(r.err()).isZero();
        return Json.MAPPER.readTree(r.out());
    }

    static List<String> leftovers(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("hostside-")).toList();
        }
    }

    static final List<String> KEYS = List.of("file_read_cold", "file_mmap_cold", "file_read_warm", "file_mmap_warm",
            "anon_first_touch_base", "anon_first_touch_thp", "tlb_reach_base", "tlb_reach_huge",
            "pin_cost_host_alloc", "pin_cost_host_register",
            "managed_gpu_faults_h2d", "managed_cpu_faults_d2h", "managed_prefetch_h2d", "managed_prefetch_d2h");

    @Test
    void listNamesEveryMeasurement() {
        CliRun r = run("vm", "--list");
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        List<String> keys = new ArrayList<>();
        VmDrill.hostTests().forEach(t -> keys.add(t.key()));
        VmDrill.gpuTests().forEach(t -> keys.add(t.key()));
        assertThat(keys).containsExactlyInAnyOrderElementsOf(KEYS);
        for (TestCase<?> t : VmDrill.hostTests()) assertThat(r.out()).contains(t.key()).contains(t.description());
        for (String k : KEYS) assertThat(r.out()).containsPattern("(?m)^\\s*" + k + "\\s");
        assertThat(r.out()).contains("(GPU)");
    }

    @Test
    void anUnknownKeyIsOneLine() {
        oneLineError(run("vm", "--only", "nosuch"), "hostside: no test case \"nosuch\"");
        oneLineError(run("vm", "--only", "file_read_warm,nosuch", "--dir", tmp.toString()), "hostside: no test case \"nosuch\"");
    }

    @Test
    void noMeasureGivesTheFactsAndFindingsUnderTheSchema() throws IOException {
        CliRun r = run("vm", "--no-measure", "--json");
        JsonNode j = json(r);
        assertThat(j.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(j.path("kind").asText()).isEqualTo("vm");
        assertThat(j.path("facts").isObject()).isTrue();
        assertThat(j.path("facts").path("pageSize").path("bytes").asLong()).isEqualTo(Libc.pageSize());
        assertThat(j.path("findings").isArray()).isTrue();
        assertThat(j.path("host").isArray()).isTrue();
        assertThat(j.path("host")).isEmpty();
        assertThat(j.path("machine").path("source").asText()).isEqualTo("live");
        assertThat(j.has("gpu") && j.has("verdicts")).isTrue();
    }

    @Test
    void aRecordedMachineIsNeverMeasured() throws IOException {
        Path h200 = hostside.Fixtures.h200();
        assertThat(h200).as("the fixture, relative to the project folder Maven runs in").isRegularFile()
                .satisfies(p -> assertThat(p.toAbsolutePath().normalize()).isEqualTo(Fixtures.h200()));
        JsonNode j = json(run("vm", "--root", h200.toString(), "--json"));
        String why = "recorded machine: nothing is measured under --root";
        assertThat(j.path("host")).hasSize(VmDrill.hostTests().size());
        for (JsonNode r : j.path("host")) {
            assertThat(r.path("status").asText()).as(r.path("key").asText()).isEqualTo("not run");
            assertThat(r.path("why").asText()).isEqualTo(why);
        }
        assertThat(j.path("gpu").path("notRun").asText()).isEqualTo(why);
        assertThat(j.path("verdicts")).isEmpty();
        assertThat(j.path("figures").isArray()).isTrue();
        assertThat(j.path("figures")).as("nothing measured, no figure").isEmpty();
        assertThat(j.path("machine").path("source").asText()).isNotEqualTo("live");
        assertThat(j.path("facts").path("pageSize").path("bytes").asLong()).isEqualTo(4096);
    }

    @Test
    void aRecordedMachineInTextSaysNotRun() {
        CliRun r = run("vm", "--root", Fixtures.h200().toString(), "--only", "anon_first_touch_base");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Measurements").contains("not run: recorded machine").doesNotContain("\u001b[");
    }

    @Test
    void smallFileReadAndFirstTouchRunAndCountExactly() throws IOException {
        CliRun r = run("vm", "--only", "file_read_warm,anon_first_touch_base", "--size", "64M", "--anon-size", "8M",
                "--dir", tmp.toString(), "--json");
        // progress only (hostside.cli.ProgressOnStderrTest): one line per case as it starts and ends, beside the busy line of a busy machine
        assertThat(r.errLinesBesideTheLoad()).hasSize(4).allMatch(l -> l.startsWith("hostside: "));
        JsonNode j = json(r);
        JsonNode host = j.path("host");
        assertThat(host).hasSize(2);
        JsonNode file = host.get(0), anon = host.get(1);
        assertThat(file.path("key").asText()).isEqualTo("file_read_warm");
        assertThat(file.path("status").asText()).as(file.path("why").asText()).isEqualTo("ok");
        assertThat(file.path("unit").asText()).isEqualTo("GB/s");
        assertThat(file.path("value").path("samples").asInt()).isEqualTo(5);
        assertThat(file.path("value").path("median").asDouble()).isPositive();
        assertThat(file.path("detail").path("fileBytes").asLong()).isEqualTo(64L << 20);
        assertThat(file.path("anchor").asText()).as("fio's job for this file").isEqualTo("fio --rw=read --bs=1M --ioengine=psync --fadvise_hint=0 --iomem=mmap --pre_read=1 --invalidate=0 --size=64m");
        assertThat(file.path("detail").path("residentAtStartPercent").isNull()).as("a warm read evicts nothing").isTrue();
        assertThat(file.path("detail").path("file").asText()).startsWith(tmp.toString());
        // read() into a buffer touched beforehand: no page of the buffer faults during the passes
        assertThat(file.path("detail").path("minorFaults").asLong()).isLessThan(64);

        assertThat(anon.path("key").asText()).isEqualTo("anon_first_touch_base");
        assertThat(anon.path("status").asText()).as(anon.path("why").asText()).isEqualTo("ok");
        assertThat(anon.path("unit").asText()).isEqualTo("ms/GiB");
        long page = Libc.pageSize();
        assertThat(anon.path("detail").path("regionBytes").asLong()).isEqualTo(8L << 20);
        assertThat(anon.path("detail").path("pageSize").asLong()).isEqualTo(page);
        // base pages (MADV_NOHUGEPAGE): one fault per page on the touching thread, plus the odd
        // fault of its own now and then (a stack or code page; seen once in many runs: 2049)
        long pages = (8L << 20) / page;
        assertThat(anon.path("detail").path("faults").asLong()).isBetween(pages, pages + 8);
        assertThat(anon.path("detail").path("faultsPerMiB").asDouble()).isBetween((double) (1L << 20) / page, (pages + 8) / 8.0);
        assertThat(anon.path("detail").path("thpFaultAlloc").asLong()).as("no huge page was asked for").isLessThanOrEqualTo(0);
        assertThat(anon.path("detail").path("usPerFault").asDouble()).isPositive();
        assertThat(anon.path("detail").path("hugePercent").isNull()).as("base pages: no share of huge pages").isTrue();
        assertThat(anon.path("detail").path("cut").isNull()).as("8 MiB fits: nothing cut").isTrue();
        assertThat(anon.path("anchor").isNull()).isTrue();

        assertThat(j.path("verdicts").toString()).contains("First touch costs");
        assertThat(j.path("figures").findValuesAsText("key")).containsExactly("file_read_warm", "anon_first_touch_base", "anon_first_touch_base_us_per_fault");
        assertThat(j.path("figures").get(0).path("scope").asText()).isEqualTo("dir:" + tmp.toAbsolutePath());
        assertThat(j.path("figures").get(0).path("value").asDouble()).isEqualTo(file.path("value").path("median").asDouble());
        assertThat(j.path("figures").get(1).path("scope").asText()).isEqualTo("machine");
        assertThat(leftovers(tmp)).as("the test file and the probe are gone").isEmpty();
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test
    void theTextViewShowsTheFigures() throws IOException {
        CliRun r = run("vm", "--only", "anon_first_touch_base", "--anon-size", "4M", "--dir", tmp.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Virtual memory").contains("Measurements").contains("What it means");
        // the finding: judged on a quiet machine; on a busy one (the suite's own other processes, a shared runner) unknown
        // with its figures said and no advice, as the drill must (a full run of the suite once found 0.46 CPUs busy here)
        if (r.out().contains("busy: the machine was busy as the vm drill began")) {
            // the text wraps where its numbers' widths put the line ends: any run of spaces may be a line break
            assertThat(r.out()).containsPattern(("(?s)\\? measured while the machine was busy .*so not judged: anon_first_touch_base_us_per_fault "
                    + "[0-9.]+ us, anon_first_touch_base [0-9.]+ ms/GiB; run again on a quiet machine \\[M2-FIRST-TOUCH\\]").replace(" ", "\\s+"))
                    .doesNotContain("First touch costs");
        } else {
            assertThat(r.out()).contains("First touch costs");
        }
        // the case's row: its figure in ms/GiB from 5 samples, and the faults it cost, 256 per MiB in 4 KiB pages
        assertThat(r.out()).containsPattern("(?m)^\\s+anon_first_touch_base\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s+ms/GiB\\s+5\\s+256\\.0$");
        assertThat(r.out()).containsPattern("(?m)^\\s+anon_first_touch_base_us_per_fault\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s+us\\s+5$");
        assertThat(leftovers(tmp)).isEmpty();
    }

    @Test
    void anUnwritableDirIsOneLineAndLeavesNothing() throws IOException {
        CliRun r = run("vm", "--dir", "/proc", "--only", "file_read_warm");
        oneLineError(r, "hostside: /proc: not writable");
        assertThat(leftovers(Path.of("/proc"))).isEmpty();
    }

    @Test
    void aMissingDirIsOneLine() {
        oneLineError(run("vm", "--dir", tmp.resolve("nope").toString(), "--only", "file_read_warm"), "hostside: " + tmp.resolve("nope"));
        assertThat(run("vm", "--dir", tmp.resolve("nope").toString(), "--only", "file_read_warm").err()).contains("no such folder");
    }

    @Test
    void aFileTooLargeForTheDiskIsOneLineAndLeavesNothing() throws IOException {
        CliRun r = run("vm", "--size", "100T", "--only", "file_read_warm", "--dir", tmp.toString());
        oneLineError(r, "hostside: " + tmp + ": not enough free space");
        assertThat(leftovers(tmp)).isEmpty();
    }

    @Test
    void aSizeThatIsNoSizeIsOneLine() {
        CliRun r = run("vm", "--size", "garbage");
        oneLineError(r, "hostside: ");
        assertThat(r.err()).contains("--size").contains("garbage");
        oneLineError(run("vm", "--anon-size", "0"), "hostside: ");
    }

    @Test
    void explainPagewalkPrintsEveryStep() {
        CliRun r = run("vm", "--explain", "pagewalk", "0x7f3a12345678", "--all");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Step 1 of").contains("0x00007f3a12345678");
    }

    @Test
    void explainCowAsJsonParses() throws IOException {
        CliRun r = run("vm", "--explain", "cow", "--json");
        JsonNode j = json(r);
        assertThat(j.isObject()).isTrue();
        assertThat(j.size()).isPositive();
    }

    @Test
    void explainOfAnUnknownTopicIsOneLine() {
        CliRun r = run("vm", "--explain", "nosuch");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
    }
}
