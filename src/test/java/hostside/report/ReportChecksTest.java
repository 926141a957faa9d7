package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.testing.CliRun;

/**
 * Figures another machine wrote are checked as they are read (issue 36: Infinity and 1e400 were
 * shown as "Infinity" and "NaN%", negative bandwidths compared as real values): a report with a
 * figure no machine measures is refused by report --from, compare and learn --from in one line
 * that names the file, the figure and the value; in a folder, compare passes it over and says so.
 */
class ReportChecksTest {
    @TempDir
    Path tmp;

    /** The H200's second-schema report with {@code change} made to it, as {@code name}. */
    Path report(String name, Consumer<ObjectNode> change) throws Exception {
        ObjectNode n = (ObjectNode) Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside2.json").toFile());
        change.accept(n);
        Path p = tmp.resolve(name);
        Files.writeString(p, Json.write(n));
        return p;
    }

    /** The H200's first-schema report with {@code change} made to it, as {@code name}: its figures follow from its results. */
    Path firstSchema(String name, Consumer<ObjectNode> change) throws Exception {
        ObjectNode n = (ObjectNode) Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside1.json").toFile());
        change.accept(n);
        Path p = tmp.resolve(name);
        Files.writeString(p, Json.write(n));
        return p;
    }

    /** The samples of modules[0].data.gpu.runs[0].results[0], host_to_device_ce_pinned, in either schema. */
    static ObjectNode copySamples(ObjectNode n) {
        return (ObjectNode) n.at("/modules/0/data/gpu/runs/0/results/0/value");
    }

    /** figures[i] of the report, the H200's own: 0 is host_to_device_ce_pinned (GB/s), 30 a share of huge pages (%), 47 a count. */
    static ObjectNode figure(ObjectNode n, int i) {
        return (ObjectNode) n.get("figures").get(i);
    }

    /** report --from, compare (with a good report beside it) and learn --from: each refuses it in one line that says {@code says}. */
    void refusedEverywhere(Path bad, String... says) throws Exception {
        Path good = report("good.json", n -> {});
        for (CliRun r : new CliRun[] {CliRun.of("report", "--from", bad.toString(), "--out", tmp.resolve("out").toString()),
                CliRun.of("compare", good.toString(), bad.toString()), CliRun.of("learn", "h2d-copy", "--json", "--from", bad.toString())}) {
            r.assertOneLineError("hostside: " + bad + ": ");
            assertThat(r.err()).contains(says).doesNotContain("`hostside.");
        }
    }

    @Test
    void anInfiniteFigureIsRefusedNamingItsKeyAndValue() throws Exception {
        // 1e400 is a JSON number that reads as Infinity
        Path p = report("inf.json", n -> figure(n, 0).set("max", new DecimalNode(new BigDecimal("1e400"))));
        assertThat(Files.readString(p)).contains("1E+400");
        refusedEverywhere(p, "figures[0] (\"host_to_device_ce_pinned\" about \"gpu:0000:00:06.0\"): its max is Infinity, not a finite number");

        Path all = report("inf-all.json", n -> {
            for (String f : new String[] {"value", "min", "max"}) figure(n, 0).set(f, new DecimalNode(new BigDecimal("1e400")));
        });
        refusedEverywhere(all, "host_to_device_ce_pinned", "its value is Infinity, not a finite number");

        Path text = report("nan.json", n -> figure(n, 0).put("value", "NaN"));
        refusedEverywhere(text, "host_to_device_ce_pinned");
    }

    @Test
    void aNegativeBandwidthIsRefusedNotCompared() throws Exception {
        Path p = report("negative.json", n -> figure(n, 0).put("value", -55.3).put("min", -55.4).put("max", -55.2));
        refusedEverywhere(p, "figures[0] (\"host_to_device_ce_pinned\" about \"gpu:0000:00:06.0\"): its value is -55.3 GB/s, and no figure in GB/s is below 0");
    }

    @Test
    void eachUnitsBoundsHold() throws Exception {
        refusedEverywhere(report("percent.json", n -> figure(n, 30).put("value", -150.0).put("min", -150.0).put("max", -150.0)),
                "anon_first_touch_thp_huge_percent", "-150 %, and no figure in % is below -100");
        refusedEverywhere(report("count.json", n -> figure(n, 47).put("value", -3.0).put("min", -3.0).put("max", -3.0)),
                "timer_jitter_quiet_missed_count", "no figure in count is below 0");
        refusedEverywhere(report("huge.json", n -> figure(n, 0).put("max", 1e300)), "host_to_device_ce_pinned", "beyond anything one machine measures");
        // a denormal bandwidth: 100 * (55 - x) / x overflowed to Infinity in compare's percentages
        refusedEverywhere(report("tiny.json", n -> figure(n, 0).put("value", 1e-300).put("min", 1e-300)), "host_to_device_ce_pinned", "finer than anything measured");
    }

    /**
     * The red team's: 0 GB/s passed the checks and the pages drew "Infinity s" for 100 GB (with
     * -0.0, "-Infinity s", and compare "-0.00"): -0.0 slipped past "below 0". A bandwidth and a
     * rate are never measured as 0, and a negative zero is negative.
     */
    @Test
    void aZeroBandwidthIsRefusedAndANegativeZeroIsNegative() throws Exception {
        String result = "modules[0].data.gpu.runs[0].results[0] (\"host_to_device_ce_pinned\"): ";
        refusedEverywhere(firstSchema("zero.json", n -> copySamples(n).put("median", 0.0).put("min", 0.0).put("max", 0.0)),
                result + "its median is 0 GB/s, and no figure in GB/s is measured as 0");
        Path negative = firstSchema("negative-zero.json", n -> copySamples(n).put("median", -0.0).put("min", -0.0).put("max", -0.0));
        assertThat(Files.readString(negative)).contains("-0.0");
        refusedEverywhere(negative, result + "its median is -0 GB/s, and no figure in GB/s is below 0");
        // the second schema's figures, of each unit that may not be 0: a bandwidth, a rate
        refusedEverywhere(report("zero-figure.json", n -> figure(n, 0).put("value", 0.0).put("min", 0.0)),
                "figures[0] (\"host_to_device_ce_pinned\" about \"gpu:0000:00:06.0\"): its value is 0 GB/s, and no figure in GB/s is measured as 0");
        refusedEverywhere(report("zero-iops.json", n -> figure(n, 85).put("min", 0.0)), "seq_read_cold_qd1_iops", "its min is 0 IOPS");
        refusedEverywhere(report("negative-zero-count.json", n -> figure(n, 47).put("value", -0.0).put("min", -0.0).put("max", 0.0)),
                "timer_jitter_quiet_missed_count", "its value is -0 count, and no figure in count is below 0");
        refusedEverywhere(report("negative-zero-percent.json", n -> figure(n, 30).put("value", -0.0).put("min", -0.0).put("max", 0.0)),
                "anon_first_touch_thp_huge_percent", "its value is -0 %, a negative zero");
    }

    /**
     * A count or a share of 0 is a finding (no missed tick, no huge page), and a time of 0 what a
     * coarse clock reads (a wake-up on its deadline is 0 late): read and drawn as any other.
     */
    @Test
    void aZeroCountShareOrTimeIsAFigure() throws Exception {
        Path p = report("zeros.json", n -> {
            figure(n, 47).put("value", 0.0).put("min", 0.0).put("max", 0.0);
            figure(n, 30).put("value", 0.0).put("min", 0.0).put("max", 0.0);
            figure(n, 17).put("value", 0.0).put("min", 0.0); // host_device_latency_sm, ns
            figure(n, 43).put("min", 0.0); // timer_jitter_quiet, us
        });
        CliRun r = CliRun.of("report", "--from", p.toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.code()).as(r.err()).isZero();
        CliRun c = CliRun.of("compare", report("good.json", n -> {}).toString(), p.toString());
        assertThat(c.code()).as(c.err()).isZero();
    }

    /**
     * The second line of defence: a zero rate that got past the checks (bound here without them)
     * draws as unknown, never as Infinity or NaN: every division the pages take of a figure is
     * guarded (the offload table's seconds and tokens, the link answer's seconds, the placement's ratios).
     */
    @Test
    void aZeroRateDrawsAsUnknownNeverInfinity() throws Exception {
        for (double zero : new double[] {0.0, -0.0}) {
            ObjectNode n = (ObjectNode) Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside2.json").toFile());
            for (var f : n.get("figures")) {
                if (f.path("key").asText().endsWith("_ce_pinned")) ((ObjectNode) f).put("value", zero).put("min", zero).put("max", zero);
            }
            copySamples(n).put("median", zero).put("min", zero).put("max", zero);
            Report r = ReportReader.bind(n, Report.class, "hostside/2", "r.json"); // the checks left out
            var page = ReportDocument.of(r);
            String md = new MarkdownRenderer().render(page), html = new HtmlRenderer().render(page);
            assertThat(md).contains("| this machine, host to device | unknown | unknown | unknown | unknown |");
            for (String drawn : new String[] {md, html}) assertThat(drawn).doesNotContain("Infinity").doesNotContain("NaN");
        }
        for (double rate : new double[] {0, -0.0, -5, Double.NaN, Double.POSITIVE_INFINITY}) {
            Offload.Row row = new Offload.Row("a copy", rate, "a source");
            assertThat(List.of(row.rate(), row.seconds100(), row.adam(), row.kvTokens())).as("%s GB/s", rate).containsOnly("unknown");
        }
        assertThat(new Offload.Row("a copy", 50, "a source").seconds100()).isEqualTo("2 s");
    }

    /** The figure's own constructor refused these before; the line now says where, in the report's words, not Jackson's. */
    @Test
    void minAboveMaxAndNegativeSamplesAreRefusedWhereTheyAre() throws Exception {
        refusedEverywhere(report("order.json", n -> figure(n, 0).put("min", 60.0).put("max", 50.0)), "(figures[0]: host_to_device_ce_pinned: the median");
        refusedEverywhere(report("samples.json", n -> figure(n, 0).put("samples", -1)), "(figures[0]: host_to_device_ce_pinned: a figure of -1 samples)");
    }

    @Test
    void numbersInAModulesDetailAreFiniteToo() throws Exception {
        // shown on the report's page (the data loader's growth), not in the figures list
        Path p = report("detail.json", n -> ((ObjectNode) n.at("/modules/2/data/dataloader/0/detail")).set("meanGrowthPercent",
                new DecimalNode(new BigDecimal("-1e999"))));
        CliRun r = CliRun.of("report", "--from", p.toString(), "--out", tmp.resolve("out").toString());
        r.assertOneLineError("hostside: " + p + ": ");
        assertThat(r.err()).contains("modules[2].data.dataloader[0].detail.meanGrowthPercent is -Infinity, not a finite number");
        // a measured result's samples, in the module: a bandwidth below 0
        Path result = report("result.json", n -> ((ObjectNode) n.at("/modules/0/data/gpu/runs/0/results/0/value")).put("min", -1.0));
        CliRun again = CliRun.of("report", "--from", result.toString(), "--out", tmp.resolve("out").toString());
        again.assertOneLineError("hostside: " + result + ": ");
        assertThat(again.err()).contains("modules[0].data.gpu.runs[0].results[0] (\"host_to_device_ce_pinned\"): its min is -1 GB/s");
    }

    @Test
    void inAFolderABadReportIsPassedOverAndSaid() throws Exception {
        Files.createDirectory(tmp.resolve("fleet"));
        report("fleet/a.json", n -> {});
        report("fleet/b.json", n -> figure(n, 0).put("value", -55.3).put("min", -55.4).put("max", -55.2));
        CliRun r = CliRun.of("compare", tmp.resolve("fleet").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("passed over").contains("b.json").contains("host_to_device_ce_pinned").contains("-55.3 GB/s");
        assertThat(r.out()).contains("one report (h200): nothing to compare").doesNotContain("Infinity").doesNotContain("NaN");
    }

    @Test
    void aReportMissingItsModulesIsRefusedByTheReadersThatDrawThem() throws Exception {
        Path p = report("no-modules.json", n -> n.remove("modules"));
        for (CliRun r : new CliRun[] {CliRun.of("report", "--from", p.toString(), "--out", tmp.resolve("out").toString()),
                CliRun.of("learn", "h2d-copy", "--json", "--from", p.toString())}) {
            r.assertOneLineError("hostside: " + p + ": modules is missing or null");
        }
        // compare reads a report's head alone: its modules are never read, and their absence costs nothing
        Path good = report("good.json", n -> {});
        CliRun c = CliRun.of("compare", good.toString(), p.toString());
        assertThat(c.code()).as(c.err()).isZero();

        Path nullKey = report("null-key.json", n -> figure(n, 0).putNull("key"));
        CliRun k = CliRun.of("compare", good.toString(), nullKey.toString());
        k.assertOneLineError("hostside: " + nullKey + ": figures[0].key is missing or null");
    }

    @Test
    void jsonBeyondAReportsSizeIsRefusedAsItIsRead() throws Exception {
        // a string of 2 MiB (a report's longest is a kernel command line, 552 characters)
        String big = "x".repeat(2 << 20);
        Path p = report("long-string.json", n -> n.with("machine").put("note", big));
        CliRun r = CliRun.of("compare", p.toString());
        r.assertOneLineError("hostside: " + p + ": not a report: ");
        assertThat(r.err()).contains("a string longer than 1048576 characters").doesNotContain("xxxxxxxx");

        ObjectNode deep = Json.MAPPER.createObjectNode();
        ObjectNode at = deep;
        for (int i = 0; i < 100; i++) at = at.putObject("d");
        Path nested = report("deep.json", n -> {
            var results = (com.fasterxml.jackson.databind.node.ArrayNode) n.at("/modules/0/data/gpu/runs/0/results");
            // nested where no record reads it: the detail of a case this version does not know
            results.addObject().put("key", "a_case_of_a_later_version").put("status", "not run").put("why", "").set("detail", deep);
        });
        CliRun d = CliRun.of("report", "--from", nested.toString(), "--out", tmp.resolve("out").toString());
        d.assertOneLineError("hostside: " + nested + ": not a report: ");
        assertThat(d.err()).contains("nested deeper than 64 levels");
    }
}
