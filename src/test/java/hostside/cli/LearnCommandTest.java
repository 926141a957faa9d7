package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.learn.Steppers;

/** hostside learn's terminal side: the list, a stepper's frames as JSON, and bad input in one line. */
class LearnCommandTest {
    record Out(int code, String out, String err) {}

    static Out run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "learn";
        System.arraycopy(args, 0, all, 1, args.length);
        return new Out(Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true)), out.toString(), err.toString());
    }

    static final String H200 = "testdata/reports/h200-hostside2.json";

    @Test
    void listNamesEveryStepperByModule() {
        Out r = run("--list");
        assertThat(r.code()).isZero();
        assertThat(r.out().lines()).hasSize(Steppers.all().size()).anyMatch(l -> l.startsWith("pagewalk ") && l.contains("Module 2"));
        for (int m = 1; m <= 6; m++) assertThat(Steppers.of(m)).as("module " + m + " has a stepper").isNotEmpty();
    }

    @Test
    void aSteppersFramesAsJsonFromAReport() throws Exception {
        Out r = run("h2d-copy", "--json", "--from", H200);
        assertThat(r.code()).as(r.err()).isZero();
        var doc = Json.MAPPER.readTree(r.out());
        assertThat(doc.path("stepper").asText()).isEqualTo("h2d-copy");
        assertThat(doc.path("figures").asText()).startsWith("h200");
        assertThat(doc.path("frames").size()).isGreaterThanOrEqualTo(6);
        assertThat(doc.path("frames").get(0).path("svg").asText()).startsWith("<svg");
        assertThat(r.out()).contains("55.3 GB/s (measured here)");
    }

    @Test
    void theTerminalPlaysAStepperWithItsQuestionsAndAnswers() {
        // no console in a test: the frames print one after the other, each question with its answer
        Out r = run("cow", "--from", H200);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Step 1 of ").contains("  Answer: ");
    }

    @Test
    void badInputIsOneLine() {
        for (String[] args : new String[][] {{"no-such-stepper"}, {"--json"}, {"--port", "70000"}, {"--from", "/no/such/report.json"}}) {
            Out r = run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(Main.BAD_INPUT);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).doesNotContain("Exception");
        }
    }
}
