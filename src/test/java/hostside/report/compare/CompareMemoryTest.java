package hostside.report.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.HostsideJvm;
import hostside.core.Json;

/**
 * compare holds what it compares, not the reports (issue 36: 12 reports of 44 MB took 4.3 GB, and
 * out of memory it printed a Java stack trace and exit 1). Four reports of about 15 MB each (a
 * long data-loader run keeps a memory sample every 100 ms) are compared in a JVM of 64 MiB of
 * heap: one of them read whole as a tree needs more than that (the version that did so ran out of
 * heap here below 128 MiB), its head (class, software, confounders, figures) far less.
 */
class CompareMemoryTest {
    @TempDir
    Path tmp;

    /** The H200's report with {@code samples} memory samples for each process of its first data-loader case, as nodeN.json. */
    static void large(Path dir, int n, int samples) throws Exception {
        ObjectNode r = (ObjectNode) Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside2.json").toFile());
        ObjectNode detail = (ObjectNode) r.at("/modules/2/data/dataloader/0/detail");
        List<ObjectNode> processes = new java.util.ArrayList<>(List.of((ObjectNode) detail.get("main")));
        detail.get("perWorker").forEach(w -> processes.add((ObjectNode) w));
        for (ObjectNode p : processes) {
            ObjectNode first = (ObjectNode) p.get("samples").get(0);
            ArrayNode all = p.putArray("samples");
            for (int i = 0; i < samples; i++) all.add(first.deepCopy().put("tMs", 100L * i));
        }
        String text = Json.write(r);
        for (int i = 0; i < n; i++) Files.writeString(dir.resolve("node" + i + ".json"), text.replace("\"name\" : \"h200\"", "\"name\" : \"node" + i + "\""));
    }

    @Test
    void fourReportsOfFifteenMegabytesInSixtyFourMebibytesOfHeap() throws Exception {
        Path fleet = Files.createDirectory(tmp.resolve("fleet"));
        large(fleet, 4, 15_000);
        assertThat(Files.size(fleet.resolve("node0.json"))).isGreaterThan(14L << 20);
        Path out = tmp.resolve("out.txt");
        Process p = new ProcessBuilder(HostsideJvm.command(List.of("-Xmx64m"), "compare", fleet.toString()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("compare finished").isTrue();
        String said = Files.readString(out);
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(said).contains("Fleet: 4 reports of 1 machine, 1 class").contains("node3").doesNotContain("OutOfMemoryError");
    }
}
