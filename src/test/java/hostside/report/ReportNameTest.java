package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.cli.IoCommand;
import hostside.cli.ReportCommand;
import hostside.core.Json;
import hostside.io.IoDrill;

/**
 * The report's default name: the host name and a short hash of the machine's identity, so that
 * two VMs both called "vm" write two reports; and report's --dir and --size for the storage drill.
 */
class ReportNameTest {
    @TempDir
    Path tmp;

    static final String ID_A = "0123456789abcdef0123456789abcdef", ID_B = "fedcba9876543210fedcba9876543210";
    static final String UUID = "4c4c4544-0042-3510-8051-b4c04f4d3732", BOOT = "9e1c7d2a-5b3f-4e8a-a1d0-6f2b8c4e7a91";

    /** The H200 recording unpacked, called "vm", with the identity files given. */
    Path h200(String name, Map<String, String> identity) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Process tar = new ProcessBuilder("tar", "xzf", Fixtures.h200().toString(), "-C", dir.toString()).inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        Files.createDirectories(dir.resolve("proc/sys/kernel/random"));
        Files.writeString(dir.resolve("proc/sys/kernel/hostname"), "vm.cloud.internal\n");
        for (var e : identity.entrySet()) {
            Path p = dir.resolve(e.getKey().substring(1));
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue() + "\n");
        }
        return dir;
    }

    static ReportOutputTest.Result run(String... args) {
        return ReportOutputTest.run(args);
    }

    /** Runs a report of the recording into {@code out} and gives the name it chose. */
    static String report(Path root, Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("report", "--root", root.toString(), "--out", out.toString(), "--json"));
        args.addAll(List.of(more));
        ReportOutputTest.Result r = run(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isZero();
        return readJson(r.out()).path("machine").path("name").asText();
    }

    static JsonNode readJson(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static List<String> files(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void twoMachinesCalledVmGetTwoStableNames() throws Exception {
        Path a = h200("a", Map.of("/etc/machine-id", ID_A)), b = h200("b", Map.of("/etc/machine-id", ID_B));
        Path out = tmp.resolve("results");
        String nameA = report(a, out), nameB = report(b, out);
        assertThat(nameA).matches("vm-[0-9a-f]{4}");
        assertThat(nameB).matches("vm-[0-9a-f]{4}").isNotEqualTo(nameA);
        assertThat(files(out)).containsExactlyInAnyOrder(nameA + ".json", nameA + ".md", nameA + ".html", nameB + ".json", nameB + ".md", nameB + ".html");
        // the same machine again: the same name, its report replaced, no third pair
        assertThat(report(a, out)).isEqualTo(nameA);
        assertThat(report(h200("a-copied", Map.of("/etc/machine-id", ID_A)), out)).isEqualTo(nameA);
        assertThat(files(out)).hasSize(6);

        String text = Files.readString(out.resolve(nameA + ".json"));
        JsonNode m = readJson(text).path("machine");
        assertThat(m.path("name").asText()).isEqualTo(nameA);
        assertThat(m.path("hostname").asText()).isEqualTo("vm");
        assertThat(m.path("id").asText()).matches("[0-9a-f]{16}").startsWith(nameA.substring(3));
        assertThat(m.path("idFrom").asText()).isEqualTo("/etc/machine-id");
        assertThat(text + Files.readString(out.resolve(nameA + ".md"))).doesNotContain(ID_A).doesNotContain(ID_A.substring(0, 16));

        // --name still wins; the identity is still in the JSON
        assertThat(report(a, out, "--name", "h200")).isEqualTo("h200");
        assertThat(readJson(Files.readString(out.resolve("h200.json"))).path("machine").path("id").asText()).isEqualTo(m.path("id").asText());
    }

    @Test
    void withoutMachineIdTheDmiUuidThenTheBootIdThenTheHostNameAlone() throws Exception {
        Path out = tmp.resolve("results");
        Path dmi = h200("dmi", Map.of("/sys/class/dmi/id/product_uuid", UUID, "/proc/sys/kernel/random/boot_id", BOOT));
        Path boot = h200("boot", Map.of("/proc/sys/kernel/random/boot_id", BOOT));
        Path none = h200("none", Map.of());
        String byDmi = report(dmi, out), byBoot = report(boot, out), byName = report(none, out);
        assertThat(byDmi).matches("vm-[0-9a-f]{4}");
        assertThat(byBoot).matches("vm-[0-9a-f]{4}").isNotEqualTo(byDmi);
        assertThat(byName).isEqualTo("vm");
        assertThat(readJson(Files.readString(out.resolve(byDmi + ".json"))).path("machine").path("idFrom").asText())
                .isEqualTo("/sys/class/dmi/id/product_uuid");
        JsonNode b = readJson(Files.readString(out.resolve(byBoot + ".json"))).path("machine");
        assertThat(b.path("idFrom").asText()).isEqualTo("/proc/sys/kernel/random/boot_id");
        assertThat(b.path("note").asText()).contains("changes at every boot");
        JsonNode n = readJson(Files.readString(out.resolve("vm.json"))).path("machine");
        assertThat(n.path("id").isNull()).as(n.toString()).isTrue();
        assertThat(n.path("note").asText()).contains("/etc/machine-id missing").contains("host name alone");
        assertThat(Files.readString(out.resolve(byDmi + ".json")) + Files.readString(out.resolve(byBoot + ".json")))
                .doesNotContain(UUID).doesNotContain(BOOT);
    }

    @Test
    void aSnapshotHoldsNoRawIdAndKeepsTheReportsName() throws Exception {
        Path a = h200("a", Map.of("/etc/machine-id", ID_A, "/sys/class/dmi/id/product_uuid", UUID, "/proc/sys/kernel/random/boot_id", BOOT));
        Path box = tmp.resolve("box.tar.gz");
        ReportOutputTest.Result s = run("snapshot", "--root", a.toString(), "-o", box.toString());
        assertThat(s.code()).as(s.err()).isZero();
        String tar;
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(box))) {
            tar = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        assertThat(tar).contains("hostside/machine-id.sha256").doesNotContain(ID_A).doesNotContain(UUID).doesNotContain(BOOT);
        Path out = tmp.resolve("results");
        String fromFolder = report(a, out);
        assertThat(report(box, out)).isEqualTo(fromFolder);
        JsonNode m = readJson(Files.readString(out.resolve(fromFolder + ".json"))).path("machine");
        assertThat(m.path("note").asText()).contains("recorded in the snapshot");
    }

    @Test
    void dirAndSizeReachTheStorageDrill() throws Exception {
        Path out = tmp.resolve("results");
        report(Fixtures.h200(), out, "--name", "h200", "--dir", "/data/checkpoints", "--size", "64M");
        JsonNode io = readJson(Files.readString(out.resolve("h200.json"))).path("modules").get(3);
        assertThat(io.path("module").asInt()).isEqualTo(4);
        assertThat(io.path("data").path("facts").path("dataDirs").findValuesAsText("path")).containsExactly("/data/checkpoints");

        // under --root nothing is measured, so the size shows only in the drill's options
        ReportCommand c = new ReportCommand();
        new picocli.CommandLine(c).parseArgs("--dir", "/data/checkpoints", "--size", "64M");
        assertThat(c.ioOptions()).isEqualTo(new IoDrill.Options(Path.of("/data/checkpoints"), 64L << 20, null, null));
        ReportCommand plain = new ReportCommand();
        new picocli.CommandLine(plain).parseArgs();
        assertThat(plain.ioOptions()).isEqualTo(new IoDrill.Options(null, null, null, null));
        // the same options, with the same help, as hostside io's
        var report = new picocli.CommandLine(new ReportCommand()).getCommandSpec();
        var ioSpec = new picocli.CommandLine(new IoCommand()).getCommandSpec();
        for (String o : List.of("--dir", "--size")) {
            assertThat(report.findOption(o).description()).isEqualTo(ioSpec.findOption(o).description());
            assertThat(report.findOption(o).paramLabel()).isEqualTo(ioSpec.findOption(o).paramLabel());
        }
    }

    @Test
    void badDirAndSizeAreOneLineBeforeAnythingIsMeasured() throws IOException {
        // a bad --root as well: --size is named, so it was checked before the machine was read
        String missing = tmp.resolve("missing").toString(), out = tmp.resolve("results").toString();
        ReportOutputTest.oneLineError(run("report", "--root", missing, "--out", out, "--size", "1M"), "--size");
        ReportOutputTest.oneLineError(run("report", "--root", missing, "--out", out, "--size", "lots"), "--size");
        // --out first, as before
        ReportOutputTest.oneLineError(run("report", "--out", "/proc/hostside-cannot-write-here", "--size", "1M"), "--out");
        // live: a --dir that is not there is said at once, not after the other drills' minute
        ReportOutputTest.oneLineError(run("report", "--out", out, "--dir", missing), "--dir " + missing + ": no such folder");
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        ReportOutputTest.oneLineError(run("report", "--out", out, "--dir", file.toString()), "not a folder");
        ReportOutputTest.oneLineError(run("report", "--out", out, "--dir", tmp.toString(), "--size", "1T"), "not enough free space");
        ReportOutputTest.oneLineError(run("report", "--from", file.toString(), "--out", out, "--dir", tmp.toString()), "--from");
        ReportOutputTest.oneLineError(run("report", "--from", file.toString(), "--out", out, "--quick"), "--quick have no use");
        // --out is made when it is missing (checked first), but nothing is written into it
        assertThat(files(tmp.resolve("results"))).as("nothing written").isEmpty();
    }
}
