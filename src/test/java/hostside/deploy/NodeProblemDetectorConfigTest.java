package hostside.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Json;
import hostside.deploy.NodeProblemDetectorConfig.Check;
import hostside.deploy.NodeProblemDetectorConfig.Outcome;
import hostside.deploy.NodeProblemDetectorConfig.Result;
import hostside.deploy.NodeProblemDetectorConfig.Rule;

/**
 * deploy/k8s/node-problem-detector/hostside-health.json, checked as node-problem-detector checks a
 * custom plugin config when it starts ({@link NodeProblemDetectorConfig} says from which source),
 * and each check shown to fire on a copy broken for it. Then the rule's command run as NPD runs it
 * (no shell; stdout trimmed and cut; exit 0/1/other to False/True/Unknown) with a stand-in for
 * hostside that answers as the health command's contract says.
 */
class NodeProblemDetectorConfigTest {
    @TempDir
    Path tmp;

    static Path configFile() {
        return KubernetesManifestsTest.deploy().resolve("node-problem-detector/hostside-health.json");
    }

    static ObjectNode shipped() throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(Files.readString(configFile(), StandardCharsets.UTF_8));
    }

    /** A node's root with the rule's program at its path (the bundle unpacked into /opt). */
    Path node(String program) throws Exception {
        Path root = tmp.resolve("node");
        Path p = root.resolve(program.substring(1));
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n");
        return root;
    }

    static Rule rule(Result r) {
        assertThat(r.applied().rules()).hasSize(1);
        return r.applied().rules().getFirst();
    }

    @Test
    void theShippedConfigPassesEveryCheckWithItsDefaultsApplied() throws Exception {
        Result r = NodeProblemDetectorConfig.check(shipped(), node("/opt/hostside/hostside"));
        assertThat(r.problems()).isEmpty();
        var a = r.applied();
        assertThat(a.plugin()).isEqualTo("custom");
        assertThat(a.invokeInterval()).isEqualTo(Duration.ofSeconds(60));
        assertThat(a.timeout()).isEqualTo(Duration.ofSeconds(30));
        // the health command's --format line is at most 80 characters: NPD must not cut it
        assertThat(a.maxOutputLength()).isGreaterThanOrEqualTo(80);
        assertThat(a.concurrency()).isEqualTo(1);
        assertThat(a.skipInitialStatus()).as("the condition starts False, so that a result can change it").isFalse();
        Rule rule = rule(r);
        assertThat(rule.type()).isEqualTo("permanent");
        assertThat(a.conditions()).extracting(NodeProblemDetectorConfig.Condition::type).containsExactly(rule.condition());
        assertThat(rule.args()).containsExactly("health", "--format", "line");
        assertThat(rule.timeout()).isLessThanOrEqualTo(a.timeout());
    }

    @Test
    void withoutTheNodeThePathCheckIsLeftOutAndOnTheNodeAMissingProgramFires() throws Exception {
        assertThat(NodeProblemDetectorConfig.check(shipped(), null).problems()).isEmpty();
        Result r = NodeProblemDetectorConfig.check(shipped(), node("/usr/local/bin/other"));
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.check()).isEqualTo(Check.PATH);
            assertThat(p.why()).contains("/opt/hostside/hostside");
        });
    }

    /** The shipped config, changed by {@code edit}, fires {@code check} and nothing else. */
    static void fires(Check check, Consumer<ObjectNode> edit) throws Exception {
        ObjectNode c = shipped();
        edit.accept(c);
        Result r = NodeProblemDetectorConfig.check(c, null);
        assertThat(r.problems()).as(c.toString()).isNotEmpty().allSatisfy(p -> assertThat(p.check()).isEqualTo(check));
    }

    static ObjectNode pluginConfig(ObjectNode c) {
        return (ObjectNode) c.get("pluginConfig");
    }

    static ObjectNode firstRule(ObjectNode c) {
        return (ObjectNode) c.get("rules").get(0);
    }

    @Test
    void eachCheckFiresOnACopyBrokenForIt() throws Exception {
        fires(Check.PLUGIN, c -> c.put("plugin", "kmsg"));
        fires(Check.PLUGIN, c -> c.remove("plugin"));
        fires(Check.RULE_TIMEOUT, c -> firstRule(c).put("timeout", "31s"));
        fires(Check.RULE_TIMEOUT, c -> pluginConfig(c).remove("timeout")); // the global default, 5s, is below the rule's 30s
        fires(Check.CONDITION, c -> firstRule(c).put("condition", "GPUHealthProblems"));
        fires(Check.CONDITION, c -> ((ArrayNode) c.get("conditions")).removeAll());
        fires(Check.DURATION, c -> pluginConfig(c).put("invoke_interval", "60"));
        fires(Check.DURATION, c -> firstRule(c).put("timeout", "30 s"));
        fires(Check.INVOKE_INTERVAL, c -> pluginConfig(c).put("invoke_interval", "0s"));
        fires(Check.INVOKE_INTERVAL, c -> firstRule(c).put("invoke_interval", "-1s"));
        fires(Check.UNMARSHAL, c -> pluginConfig(c).put("max_ouput_length", 80));
        fires(Check.UNMARSHAL, c -> c.put("Source", "x"));
        fires(Check.UNMARSHAL, c -> pluginConfig(c).put("max_output_length", "80"));
        fires(Check.UNMARSHAL, c -> pluginConfig(c).put("concurrency", 1.5));
        fires(Check.UNMARSHAL, c -> firstRule(c).putArray("args").add("health").add(1));
        fires(Check.UNMARSHAL, c -> c.put("metricsReporting", "true"));
        fires(Check.RUNNABLE, c -> pluginConfig(c).put("concurrency", 0));
        fires(Check.RUNNABLE, c -> firstRule(c).put("type", "permanant"));
    }

    @Test
    void aNullIsAnAbsentKeyAsInGoSoTheDefaultApplies() throws Exception {
        ObjectNode c = shipped();
        pluginConfig(c).putNull("max_output_length");
        Result r = NodeProblemDetectorConfig.check(c, null);
        assertThat(r.problems()).isEmpty();
        assertThat(r.applied().maxOutputLength()).isEqualTo(80);
    }

    @Test
    void durationsParseAsGoParsesThem() {
        assertThat(NodeProblemDetectorConfig.parseDuration("0")).isZero();
        assertThat(NodeProblemDetectorConfig.parseDuration("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(NodeProblemDetectorConfig.parseDuration("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(NodeProblemDetectorConfig.parseDuration("1.5h")).isEqualTo(Duration.ofMinutes(90));
        assertThat(NodeProblemDetectorConfig.parseDuration(".5s")).isEqualTo(Duration.ofMillis(500));
        assertThat(NodeProblemDetectorConfig.parseDuration("300ms")).isEqualTo(Duration.ofMillis(300));
        assertThat(NodeProblemDetectorConfig.parseDuration("2µs")).isEqualTo(Duration.ofNanos(2000));
        assertThat(NodeProblemDetectorConfig.parseDuration("-5s")).isEqualTo(Duration.ofSeconds(-5));
        for (String bad : List.of("", "30", "s", "1.2.3s", "3d", "30 s", "+", "1e3s", "9999999999h")) {
            assertThatThrownBy(() -> NodeProblemDetectorConfig.parseDuration(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void nodeProblemDetectorMapsExitCodesAndCutsTheMessageAsPluginGoDoes() {
        assertThat(Outcome.of(0, "ok: 31 checks, 2 warn\n".getBytes(), 80)).isEqualTo(new Outcome("False", "ok: 31 checks, 2 warn"));
        assertThat(Outcome.of(1, " bad: GPU0 row remapping failed \n".getBytes(), 80)).isEqualTo(new Outcome("True", "bad: GPU0 row remapping failed"));
        assertThat(Outcome.of(2, new byte[0], 80).conditionStatus()).isEqualTo("Unknown");
        assertThat(Outcome.of(3, "unknown: NVML".getBytes(), 80).conditionStatus()).isEqualTo("Unknown");
        assertThat(Outcome.of(-1, new byte[0], 80).conditionStatus()).as("killed at the timeout").isEqualTo("Unknown");
        assertThat(Outcome.of(1, "x".repeat(100).getBytes(), 80).message()).hasSize(80);
    }

    /**
     * The rule's command, run as NPD's util.Exec runs it (the path and args, no shell), with a
     * stand-in for hostside at the rule's path that prints what the health command's contract
     * says for each exit: an 80-character line comes through whole.
     */
    @Test
    void theRulesCommandRunsWithoutAShellAndItsLineSurvivesWhole() throws Exception {
        Path root = tmp.resolve("node");
        Rule rule = rule(NodeProblemDetectorConfig.check(shipped(), null));
        Path program = root.resolve(rule.path().substring(1));
        Files.createDirectories(program.getParent());
        String bad = ("bad: GPU0 M6-HEALTH-ROW-REMAP-FAILED row remapping failed (+1 more)" + " ".repeat(80)).substring(0, 80);
        for (int exit : new int[] {0, 1, 3}) {
            String line = switch (exit) {
                case 0 -> "ok: 31 checks, 2 warn";
                case 1 -> bad;
                default -> "unknown: NVML does not initialise on a node with NVIDIA GPUs on PCI";
            };
            // the stand-in checks it got exactly the rule's arguments, each one whole
            Files.writeString(program, "#!/bin/sh\n[ \"$#\" = 3 ] && [ \"$1 $2 $3\" = 'health --format line' ] || { echo \"args: $*\"; exit 9; }\n"
                    + "printf '%s\\n' '" + line + "'\nexit " + exit + "\n");
            Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
            Result r = NodeProblemDetectorConfig.check(shipped(), root);
            assertThat(r.problems()).isEmpty();
            List<String> cmd = new ArrayList<>(List.of(program.toString()));
            cmd.addAll(rule.args());
            Process p = new ProcessBuilder(cmd).start();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            Outcome o = Outcome.of(p.exitValue(), p.getInputStream().readAllBytes(), r.applied().maxOutputLength());
            assertThat(o.message()).isEqualTo(line.strip());
            assertThat(o.conditionStatus()).isEqualTo(exit == 0 ? "False" : exit == 1 ? "True" : "Unknown");
        }
        assertThat(bad).hasSize(80);
    }

    @Test
    void theConfigIsJsonThatNodeProblemDetectorReadsAsOneObject() throws Exception {
        JsonNode n = Json.MAPPER.readTree(Files.readString(configFile()));
        assertThat(n.isObject()).isTrue();
        assertThat(NodeProblemDetectorConfig.check(Json.MAPPER.readTree("[]"), null).fires(Check.UNMARSHAL)).isTrue();
    }
}
