package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** A hint's words quoted so that a POSIX shell reads each back as it was: checked against sh itself. */
class ShellTest {
    @Test
    void plainWordsStayAsTheyAre() {
        assertThat(Shell.quote("/var/tmp/hostside-bundle.tar.gz")).isEqualTo("/var/tmp/hostside-bundle.tar.gz");
        assertThat(Shell.quote("--name=a,b:c@d%e+f")).isEqualTo("--name=a,b:c@d%e+f");
    }

    @Test
    void anythingElseIsSingleQuoted() {
        assertThat(Shell.quote("my bundle.tar.gz")).isEqualTo("'my bundle.tar.gz'");
        assertThat(Shell.quote("")).isEqualTo("''");
        assertThat(Shell.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(Shell.quote("$(rm -rf ~)")).isEqualTo("'$(rm -rf ~)'");
    }

    @Test
    void theShellReadsEachBackAsOneWord() throws Exception {
        for (String w : List.of("a b", "it's", "$HOME", "`id`", "x;y", "a\"b", "*", "~", "tab\there", "back\\slash", "é ü")) {
            Process sh = new ProcessBuilder("sh", "-c", "printf %s " + Shell.quote(w)).start();
            assertThat(new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).as(w).isEqualTo(w);
            sh.waitFor();
        }
    }
}
