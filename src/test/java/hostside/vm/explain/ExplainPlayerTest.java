package hostside.vm.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.Test;

class ExplainPlayerTest {
    /** The first three steps of a page walk: what the player shows is each step's lines as they are. */
    static final List<Step> STEPS = PageWalk.steps(PageWalk.Options.of(0x7f3a12345678L, PageWalk.Layout.X86_64_4LEVEL)).subList(0, 3);

    static String lines(int step) {
        return String.join("\n", STEPS.get(step - 1).lines(3));
    }

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
        assertThat(out).isEqualTo(String.join("\n", lines(1), ExplainPlayer.PROMPT, lines(2), ExplainPlayer.PROMPT, lines(3), ""));
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
        assertThat(out).doesNotContain(ExplainPlayer.PROMPT).contains("Step 3 of 3: " + STEPS.get(2).title());
        assertThat(out).contains(lines(1) + "\n\nStep 2 of 3");
    }

    void playKeys(String keys) {
        StringWriter w = new StringWriter();
        var in = new java.io.ByteArrayInputStream(keys.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        shown = ExplainPlayer.play(STEPS, ExplainPlayer.keys(in), new PrintWriter(w), false);
        out = w.toString();
    }

    @Test
    void keysDecideWithoutEnter() {
        assertThat(ExplainPlayer.decide('q')).isEqualTo(ExplainPlayer.Key.QUIT);
        assertThat(ExplainPlayer.decide('Q')).isEqualTo(ExplainPlayer.Key.QUIT);
        assertThat(ExplainPlayer.decide('\n')).isEqualTo(ExplainPlayer.Key.NEXT);
        assertThat(ExplainPlayer.decide('\r')).as("Enter without icrnl").isEqualTo(ExplainPlayer.Key.NEXT);
        assertThat(ExplainPlayer.decide(' ')).isEqualTo(ExplainPlayer.Key.NEXT);
        assertThat(ExplainPlayer.decide(-1)).isEqualTo(ExplainPlayer.Key.END);
        assertThat(ExplainPlayer.decide(4)).as("Ctrl-D").isEqualTo(ExplainPlayer.Key.END);
        assertThat(ExplainPlayer.decide('x')).isEqualTo(ExplainPlayer.Key.IGNORED);
        assertThat(ExplainPlayer.decide(27)).as("an escape sequence's start").isEqualTo(ExplainPlayer.Key.IGNORED);
    }

    @Test
    void aSingleQQuitsAtOnce() {
        // one byte and nothing after it: a player waiting for a line would see the end of input and print the rest
        playKeys("q");
        assertThat(shown).isEqualTo(1);
        assertThat(out).isEqualTo(String.join("\n", lines(1), ExplainPlayer.PROMPT, "(stopped after step 1 of 3)", ""));
    }

    @Test
    void spaceAndEnterAdvanceOtherKeysAreSkipped() {
        playKeys(" \u001b[Bx\r");
        assertThat(shown).isEqualTo(3);
        // no echo in raw mode: the player ends the prompt's line itself, so the steps look as in line mode
        assertThat(out).isEqualTo(String.join("\n", lines(1), ExplainPlayer.PROMPT, "", lines(2), ExplainPlayer.PROMPT, "", lines(3), ""));
        playKeys("\u001b[Aq");
        assertThat(shown).as("an arrow key is not q's neighbour").isEqualTo(1);
    }

    @Test
    void theEndOfTheKeysPrintsTheRest() {
        playKeys(" ");
        assertThat(shown).isEqualTo(3);
        assertThat(out).contains("Step 3 of 3: " + STEPS.get(2).title()).doesNotContain("stopped");
        // asked after step 1 (space) and step 2 (the end), never again once nobody answers
        assertThat(out.split(java.util.regex.Pattern.quote(ExplainPlayer.PROMPT), -1)).hasSize(3);
    }

    @Test
    void noStepsPrintsNothing() {
        StringWriter w = new StringWriter();
        assertThat(ExplainPlayer.play(List.of(), new BufferedReader(new StringReader("")), new PrintWriter(w), false)).isZero();
        assertThat(w.toString()).isEmpty();
    }
}
