package hostside.vm.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ExplainPlayerTest {
    static final List<Step> STEPS = List.of(
            new Step(1, "one", "First.", Map.of()),
            new Step(2, "two", "Second.", Map.of()),
            new Step(3, "three", "Third.", Map.of()));

    String out;
    int shown;

    void play(String input, boolean all) {
        StringWriter w = new StringWriter();
        shown = ExplainPlayer.play(STEPS, new BufferedReader(new StringReader(input)), new PrintWriter(w), all);
        out = w.toString();
    }

    @Test
    void enterShowsTheNextStep() {
        play("\n\n", false);
        assertThat(shown).isEqualTo(3);
        assertThat(out).isEqualTo(String.join("\n",
                "Step 1 of 3: one", "  First.",
                ExplainPlayer.PROMPT, "Step 2 of 3: two", "  Second.",
                ExplainPlayer.PROMPT, "Step 3 of 3: three", "  Third.", ""));
    }

    @Test
    void qQuits() {
        play("\nq\n\n", false);
        assertThat(shown).isEqualTo(2);
        assertThat(out).contains("Step 2 of 3").doesNotContain("Step 3 of 3").endsWith("(stopped after step 2 of 3)\n");
        play(" Q \n", false);
        assertThat(shown).isEqualTo(1);
    }

    @Test
    void endOfInputPrintsTheRestWithoutPrompting() {
        play("", false);
        assertThat(shown).isEqualTo(3);
        assertThat(out).containsOnlyOnce(ExplainPlayer.PROMPT).contains("Step 2 of 3").contains("Step 3 of 3");
        play("\n", false);
        assertThat(out.split(java.util.regex.Pattern.quote(ExplainPlayer.PROMPT), -1)).hasSize(3);
        assertThat(shown).isEqualTo(3);
    }

    @Test
    void allPrintsEverythingWithoutReading() {
        play("q\n", true);
        assertThat(shown).isEqualTo(3);
        assertThat(out).doesNotContain(ExplainPlayer.PROMPT).contains("Step 3 of 3: three");
        assertThat(out).contains("  First.\n\nStep 2 of 3");
    }

    @Test
    void noStepsPrintsNothing() {
        StringWriter w = new StringWriter();
        assertThat(ExplainPlayer.play(List.of(), new BufferedReader(new StringReader("")), new PrintWriter(w), false)).isZero();
        assertThat(w.toString()).isEmpty();
    }
}
