package hostside.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.testing.CliRun;
import hostside.core.Style;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;

/** hostside container as a user runs it: exit codes, one-line errors, the JSON, the text. */
class ContainerCommandTest {
    @TempDir
    Path tmp;

    static CliRun run(String... args) {
        return CliRun.of(args);
    }

    static void oneLineError(CliRun r, String start) {
        r.assertOneLineError(start);
    }

    @Test
    void jsonOfARecordedTightContainer() throws IOException {
        Rig.v2(tmp).tight();
        CliRun r = run("container", "--json", "--root", tmp.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        JsonNode n = Json.MAPPER.readTree(r.out());
        assertThat(n.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(n.path("kind").asText()).isEqualTo("container");
        assertThat(n.path("verdict").asText()).startsWith("in a container, docker");
        JsonNode f = n.path("facts");
        assertThat(f.path("cgroup").path("version").asText()).isEqualTo("v2");
        assertThat(f.path("memory").path("limit").path("value").asLong()).isEqualTo(128L << 30);
        assertThat(f.path("cpu").path("quotaCpus").asDouble()).isEqualTo(2.0);
        assertThat(f.path("pids").path("max").path("value").asLong()).isEqualTo(64);
        assertThat(f.path("shm").path("sizeBytes").asLong()).isEqualTo(64L << 20);
        assertThat(f.path("limits").path("memlock").path("soft").asLong()).isEqualTo(65536);
        assertThat(f.path("capabilities").path("ipcLock").asBoolean()).isFalse();
        assertThat(f.path("devices").path("envKnown").asBoolean()).as("a recording has no environment").isFalse();
        assertThat(n.path("plan").path("workers").asInt()).isEqualTo(DataLoaderPlan.DEFAULT_WORKERS);
        assertThat(n.path("plan").path("shmBytes").asLong()).isEqualTo(8L * 2 * DataLoaderPlan.DEFAULT_BATCH_BYTES);
        assertThat(n.path("figures").isArray()).as("every drill lists its figures; the container measures none").isTrue();
        assertThat(n.path("figures")).isEmpty();
        List<String> subjects = n.path("findings").findValuesAsText("subject");
        assertThat(subjects).containsExactlyInAnyOrder("/dev/shm", "CPU quota", "pids", "memlock");
    }

    @Test
    void theOptionsChangeThePlan() throws IOException {
        Rig.v2(tmp).tight();
        CliRun r = run("container", "--json", "--root", tmp.toString(), "--workers", "2", "--threads", "4", "--batch-bytes", "8M");
        JsonNode p = Json.MAPPER.readTree(r.out()).path("plan");
        assertThat(p.path("threads").asLong()).as("4 intra-op threads and 2 workers of one thread each").isEqualTo(6);
        assertThat(p.path("shmBytes").asLong()).isEqualTo(32L << 20);
        assertThat(p.path("threadsSource").asText()).isEqualTo("--threads");
        assertThat(Json.MAPPER.readTree(r.out()).path("findings").findValuesAsText("subject")).containsExactlyInAnyOrder("CPU quota", "memlock");
    }

    @Test
    void badInputIsOneLine() {
        oneLineError(run("container", "--root", tmp.resolve("nothing").toString()), "hostside: ");
        // the --workers of every command (hostside.cli.Counts): 1 to 64
        oneLineError(run("container", "--workers", "-1"), "hostside: Invalid value for option '--workers': \"-1\" is out of range: choose 1 to 64");
        oneLineError(run("container", "--workers", "0"), "hostside: Invalid value for option '--workers': \"0\" is out of range: choose 1 to 64");
        oneLineError(run("container", "--threads", "0"), "hostside: --threads 0: choose 1 to");
        oneLineError(run("container", "--batch-bytes", "lots"), "hostside: ");
        oneLineError(run("container", "--nosuch"), "hostside: ");
    }

    @Test
    void theTextOpensWithTheVerdictAndAlignsItsTables() {
        Rig.v1(tmp).tight();
        CliRun r = run("container", "--root", tmp.toString());
        assertThat(r.code()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.getFirst()).isEqualTo("hostside container: in a container, docker (/.dockerenv exists): 2 limits break training "
                + "(/dev/shm, pids); 2 to check (CPU quota, memlock)");
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("  limit ")).findFirst().orElseThrow());
        int valueEnd = lines.get(header).indexOf("value") + "value".length();
        for (String l : lines.subList(header + 1, header + 12)) {
            assertThat(l.charAt(valueEnd - 1)).as("values right-aligned: " + l).isNotEqualTo(' ');
        }
        assertThat(r.out()).containsPattern("(?m)^  pids +64 +12  /sys/fs/cgroup/pids/pids.max; room for 52 more$")
                .containsPattern("(?m)^  /dev/shm +64 MiB +-  mountinfo: size=65536k")
                .containsPattern("(?m)^  CPU quota +2.0 CPUs +/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us$")
                .contains("environment unknown: recorded machine").contains("Findings\n  ✗ /dev/shm is 64 MiB");
    }

    @Test
    void theDocumentShowsUnknownsAtTheEnd() {
        Rig r = Rig.v2(tmp).put(Rig.CG + "/memory.max", "lots\n");
        String text = new TextRenderer(Style.plain()).render(ContainerDocument.of(r.run()));
        assertThat(text.strip().lines().toList().getLast()).isEqualTo("  unknown: " + Rig.CG + "/memory.max: not a number or \"max\": \"lots\"");
        assertThat(text).containsPattern("(?m)^  memory +unknown +8 GiB  unknown: ");
    }

    /** The verdict, the limits, the plan and each finding with its fix: the same words in the text, the Markdown and the HTML. */
    @Test
    void everyLimitAndFindingIsInAllThreeRenderings() {
        ContainerRun run = Rig.v1(tmp).tight().run();
        Document d = ContainerDocument.of(run);
        String text = flat(new TextRenderer(Style.plain()).render(d));
        String md = flat(new MarkdownRenderer().render(d));
        String html = flat(org.jsoup.Jsoup.parse(new HtmlRenderer().render(d)).text());
        List<String> words = List.of(run.verdict(), "64 MiB", "8 GiB", "2.0 CPUs", "/sys/fs/cgroup/pids/pids.max; room for 52 more",
                "64 KiB", "8 NVIDIA GPUs on the PCI bus", "8 workers of one thread each", "--shm-size=");
        for (String w : words) {
            assertThat(text).as("text").contains(w);
            assertThat(html).as("HTML").contains(w);
        }
        for (String w : List.of("64 MiB", "8 GiB", "2.0 CPUs", "room for 52 more", "8 workers of one thread each")) assertThat(md).as("Markdown").contains(w);
        assertThat(run.findings()).hasSize(4);
        for (var f : run.findings()) {
            assertThat(text).contains(f.text());
            assertThat(html).contains(f.text());
        }
        assertThat(md).contains("## Limits on this process", "## Findings", "## DataLoader weighed against");
    }

    static String flat(String s) {
        return s.replaceAll("\\s+", " ");
    }

    /** This machine, live: whatever it is, the command runs and sees the CPUs `nproc` sees. */
    @Test
    void liveJsonOfThisMachine() throws Exception {
        CliRun r = run("container", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode n = Json.MAPPER.readTree(r.out());
        Process p = new ProcessBuilder("nproc").start();
        int nproc = Integer.parseInt(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
        assertThat(n.path("facts").path("cpu").path("visibleCpus").asInt()).isEqualTo(nproc);
        assertThat(n.path("facts").path("devices").path("envKnown").asBoolean()).isTrue();
        assertThat(n.path("facts").path("runtime").path("evidence").size()).isPositive();
        assertThat(n.path("facts").path("shm").path("source").asText()).startsWith("statvfs /dev/shm");
    }
}
