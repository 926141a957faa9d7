package hostside.vm.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import hostside.cli.ExplainOptions;
import hostside.vm.explain.PageWalk.Layout;

class ExplainOptionsTest {
    @Command(name = "vm")
    static final class Vm {
        @Mixin
        ExplainOptions explain;
    }

    static ExplainOptions parse(String... args) {
        Vm vm = new Vm();
        new CommandLine(vm).parseArgs(args);
        return vm.explain;
    }

    @Test
    void notRequestedByDefault() {
        ExplainOptions o = parse();
        assertThat(o.requested()).isFalse();
        assertThat(o.topic()).isNull();
        assertThatThrownBy(() -> o.steps(null)).hasMessage("no --explain topic: choose pagewalk or cow");
    }

    @Test
    void pagewalkWithDefaults() {
        ExplainOptions o = parse("--explain", "pagewalk");
        assertThat(o.requested()).isTrue();
        assertThat(o.all()).isFalse();
        List<Step> steps = o.steps(Layout.ARM64_4K);
        assertThat(steps.getFirst().plainState()).containsEntry("address", "0x00007f3a12345678").containsEntry("layout", "arm64-4k");
        assertThat(steps).hasSize(8);
        assertThat(parse("--explain", "pagewalk").steps(null).getFirst().plainState()).containsEntry("layout", "x86-64-4");
    }

    @Test
    void pagewalkWithEveryOption() {
        ExplainOptions o = parse("--explain", "pagewalk", "0xffff800012345678", "--layout", "x86-64-5", "--page", "2M",
                "--tlb", "miss", "--fault-at", "pmd", "--all");
        assertThat(o.all()).isTrue();
        List<Step> steps = o.steps(Layout.ARM64_64K);
        assertThat(steps).extracting(Step::title).contains("PD (pmd): index 145 -> not present, page fault");
        assertThat(steps.getFirst().plainState()).containsEntry("layout", "x86-64-5").containsEntry("half", "kernel");
        assertThat(parse("--explain", "pagewalk", "--tlb", "hit").steps(null)).hasSize(2);
    }

    @Test
    void cowWithDefaultsAndOptions() {
        List<Step> def = parse("--explain", "cow").steps(null);
        assertThat(def).isEqualTo(CowScenarios.dataloader(8, 2, CowScenarios.Data.LIST));
        List<Step> small = parse("--explain", "COW", "--pages", "2", "--workers", "1", "--data", "array").steps(null);
        assertThat(small).isEqualTo(CowScenarios.dataloader(2, 1, CowScenarios.Data.ARRAY));
    }

    @Test
    void badInputIsOneLineNamingTheValue() {
        assertBad(parse("--explain", "tlb"), "unknown --explain topic 'tlb': choose pagewalk or cow");
        assertBad(parse("--explain", "cow", "12"), "--explain cow takes no argument, got '12': use --pages, --workers, --data");
        assertBad(parse("--explain", "pagewalk", "main"), "bad address 'main': give hex (0x7f3a12345678) or decimal digits");
        assertBad(parse("--explain", "pagewalk", "--layout", "riscv"), "unknown layout 'riscv': choose x86-64-4, x86-64-5, arm64-4k, arm64-64k");
        assertBad(parse("--explain", "pagewalk", "--layout", "arm64-64k", "--page", "1G"), "page size 1G does not exist on arm64-64k: choose base, 512M");
        assertBad(parse("--explain", "pagewalk", "--fault-at", "PML5"), "unknown level 'PML5' for x86-64-4: choose PML4, PDPT, PD, PT or none");
        assertBad(parse("--explain", "pagewalk", "--tlb", "warm"), "unknown --tlb 'warm': choose hit or miss");
        assertBad(parse("--explain", "cow", "--pages", "65"), "--pages 65: choose 1 to 64");
        assertBad(parse("--explain", "cow", "--data", "dict"), "unknown --data 'dict': choose list or array");
    }

    @Test
    void workersAreTheCountOfEveryCommand() {
        // the shared converter refuses while parsing, as for cpu and container: picocli's one line, exit 2
        assertThatThrownBy(() -> parse("--explain", "cow", "--workers", "0")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("Invalid value for option '--workers': \"0\" is out of range: choose 1 to 64");
        assertThat(parse("--explain", "cow", "--workers", "64").steps(null)).isNotEmpty();
    }

    @Test
    void jsonHasTopicAndSteps() throws Exception {
        ExplainOptions o = parse("--explain", "pagewalk", "--tlb", "hit");
        Map<String, Object> json = o.json(o.steps(null));
        assertThat(json).containsEntry("topic", "pagewalk").containsEntry("stepCount", 2);
        JsonNode tree = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(json));
        assertThat(tree.get("steps").get(1).get("number").asInt()).isEqualTo(2);
        assertThat(tree.get("steps").get(1).get("state").get("physical").asText()).startsWith("0x");
        assertThat(tree.get("steps").get(0).get("state").get("fields").get(0).get("value").asInt()).isEqualTo(254);

        ExplainOptions cow = parse("--explain", "cow");
        JsonNode c = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(cow.json(cow.steps(null))));
        assertThat(c.get("steps").get(3).get("state").get("processes").get(1).get("pageTable").get(0).get("frame").asInt()).isEqualTo(9);
    }

    static void assertBad(ExplainOptions o, String message) {
        assertThatThrownBy(() -> o.steps(Layout.X86_64_4LEVEL)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
