package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.Json;

/**
 * A PCIe tree whose upstream links go round (issue 36): in a recording, made by nesting sysfs
 * folders against the bus's links; in a report, by an upstream equal to the function's own
 * address or a pair naming each other. Every walk up the tree went round for ever; now a
 * recording is read with the cycle cut and said, and a report holding one is refused.
 */
class PciCycleTest {
    /** Far beyond what a recording of one box or a report takes; the old walks never ended. */
    static final Duration LIMIT = Duration.ofSeconds(60);
    static final String GPU = "0000:00:06.0", NIC = "0000:00:03.0";

    @TempDir
    Path tmp;

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        return assertTimeoutPreemptively(LIMIT, () -> {
            StringWriter out = new StringWriter(), err = new StringWriter();
            int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
            return new Result(code, out.toString(), err.toString());
        }, () -> "hostside " + String.join(" ", args) + " did not end");
    }

    /** The H200 recording changed by {@code script}, run in its sys/ folder with $D the host bridge's. */
    private Path recording(String script) throws IOException, InterruptedException {
        return PlantedRecording.of(tmp, "cd sys; D=devices/pci0000:00; " + script);
    }

    /** The GPU's folder inside a folder of its own name, and the bus's link pointing there: the GPU is its own bridge. */
    private Path gpuAboveItself() throws IOException, InterruptedException {
        return recording("mv $D/" + GPU + " $D/gpu; mkdir $D/" + GPU + "; mv $D/gpu $D/" + GPU + "/" + GPU + "; "
                + "ln -sfn ../../../devices/pci0000:00/" + GPU + "/" + GPU + " bus/pci/devices/" + GPU);
    }

    /** The GPU nested in the NIC's folder and a copy of the NIC's in a GPU-named folder: each is the other's bridge. */
    private Path gpuAndNicAboveEachOther() throws IOException, InterruptedException {
        return recording("mv $D/" + GPU + " $D/" + NIC + "/" + GPU + "; mkdir $D/" + GPU + "; cp -a $D/" + NIC + " $D/" + GPU + "/" + NIC + "; "
                + "ln -sfn ../../../devices/pci0000:00/" + NIC + "/" + GPU + " bus/pci/devices/" + GPU + "; "
                + "ln -sfn ../../../devices/pci0000:00/" + GPU + "/" + NIC + " bus/pci/devices/" + NIC);
    }

    @Test
    void machineReadsARecordingWhoseGpuIsItsOwnBridgeAndSaysWhere() throws Exception {
        Result r = run("machine", "--root", gpuAboveItself().toString());
        assertThat(r.code()).as(r.err()).isZero();
        // the text is wrapped to the terminal's width
        assertThat(r.out().replaceAll("\\s+", " ")).contains("PCIe tree: a cycle at " + GPU + " (a bridge above itself) in the recording's /sys/devices; "
                + GPU + " is shown under an unknown host bridge");
        assertThat(r.out()).contains("host bridge unknown").contains("GPU0");
    }

    @Test
    void machineReadsARecordingWhoseGpuAndNicAreEachOthersBridge() throws Exception {
        Result r = run("machine", "--root", gpuAndNicAboveEachOther().toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode facts = Json.MAPPER.readTree(r.out());
        assertThat(facts.path("unknowns").toString()).contains("PCIe tree: a cycle at");
        // one link cut: one of the two has no bridge above it now, the other hangs below it
        long placed = 0;
        for (JsonNode d : facts.path("pci")) {
            if (d.path("address").asText().equals(GPU) || d.path("address").asText().equals(NIC)) placed += d.path("upstream").isNull() ? 0 : 1;
        }
        assertThat(placed).isEqualTo(1);
    }

    @Test
    void reportOfACyclicRecordingIsWrittenWithTheCycleCutAndReadsBack() throws Exception {
        Path out = tmp.resolve("out");
        Files.createDirectories(out);
        Result r = run("report", "--root", gpuAndNicAboveEachOther().toString(), "--out", out.toString(), "--name", "looped");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(out.resolve("looped.md"))).contains("PCIe tree: a cycle at");
        Result again = run("report", "--from", out.resolve("looped.json").toString(), "--out", tmp.resolve("again").toString());
        assertThat(again.code()).as(again.err()).isZero();
    }

    /** The fixture report with {@code address}'s upstream set to {@code upstream}, written to a file. */
    private Path report(String name, String... addressAndUpstream) throws IOException {
        JsonNode json = Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside1.json").toFile());
        for (int i = 0; i < addressAndUpstream.length; i += 2) {
            boolean found = false;
            for (JsonNode d : json.path("modules").get(0).path("data").path("pci")) {
                if (d.path("address").asText().equals(addressAndUpstream[i])) {
                    ((ObjectNode) d).put("upstream", addressAndUpstream[i + 1]);
                    found = true;
                }
            }
            assertThat(found).as(addressAndUpstream[i] + " in the fixture").isTrue();
        }
        Path p = tmp.resolve(name + ".json");
        Files.writeString(p, Json.write(json));
        return p;
    }

    @Test
    void reportFromAReportWhoseGpuIsItsOwnUpstreamIsRefusedInOneLine() throws Exception {
        Path p = report("self", GPU, GPU);
        Result r = run("report", "--from", p.toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).isEqualTo("hostside: " + p + ": module 1's PCIe tree has a cycle at " + GPU
                + " (a bridge above itself), which hostside never writes: a damaged or edited report\n");
        assertThat(tmp.resolve("out/self.json")).doesNotExist();
    }

    @Test
    void reportFromAReportWhoseGpuAndNicNameEachOtherIsRefused() throws Exception {
        Path p = report("pair", GPU, NIC, NIC, GPU);
        Result r = run("report", "--from", p.toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("hostside: " + p + ": module 1's PCIe tree has a cycle at ").doesNotContain("Exception");
    }

    @Test
    void compareOfAFolderPassesOverACyclicReport() throws Exception {
        Path folder = tmp.resolve("fleet");
        Files.createDirectories(folder);
        Files.move(report("pair", GPU, NIC, NIC, GPU), folder.resolve("pair.json"));
        Files.copy(Fixtures.testdata().resolve("reports/h200-hostside1.json"), folder.resolve("good.json"));
        Result r = run("compare", folder.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("passed over").contains("a cycle at");
    }
}
