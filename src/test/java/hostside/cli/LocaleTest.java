package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;

/** Numbers read the same whatever the user's locale: a German desktop must not get "63,0 GB/s" or JSON with commas. */
class LocaleTest {
    @TempDir
    Path tmp;

    private final Locale before = Locale.getDefault();

    @AfterEach
    void restore() {
        Locale.setDefault(before);
    }

    private String run(Locale locale, String... args) {
        Locale.setDefault(locale);
        StringWriter out = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        assertThat(code).isZero();
        return out.toString();
    }

    @Test
    void everyViewOfARecordedMachineIsTheSameInGermanAsInRoot() throws IOException {
        String h200 = Fixtures.h200().toString();
        for (String[] cmd : new String[][] {{"machine"}, {"machine", "--json"}, {"vm"}, {"cpu"}, {"io"}, {"container"}}) {
            String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(cmd), java.util.stream.Stream.of("--root", h200)).toArray(String[]::new);
            assertThat(run(Locale.GERMANY, args)).as(String.join(" ", cmd)).isEqualTo(run(Locale.ROOT, args));
        }
        run(Locale.ROOT, "report", "--root", h200, "--out", tmp.resolve("root").toString(), "--name", "h200");
        run(Locale.GERMANY, "report", "--root", h200, "--out", tmp.resolve("de").toString(), "--name", "h200");
        String md = Files.readString(tmp.resolve("root/h200.md"));
        assertThat(withoutRunCost(Files.readString(tmp.resolve("de/h200.md")))).isEqualTo(withoutRunCost(md));
        assertThat(md).contains("63.0");
        assertThat(withoutRunCost(md)).as("the run line's cost is the one thing set aside").contains("took S; peak memory M");
    }

    /**
     * A report's text less what differs from one run to the next: its time stamps, and its run
     * line's wall time and peak memory (this JVM's, which grows between the two runs). Only a
     * figure in Locale.ROOT's form is matched, so a German "1,4 GiB" still differs.
     */
    static String withoutRunCost(String md) {
        return md.replaceAll("\\d{4}-\\d\\d-\\d\\dT[^ \"|]*", "T")
                .replaceAll("took \\d+(\\.\\d+)? s; peak memory \\d+(\\.\\d+)? (GiB|MiB)", "took S; peak memory M");
    }
}
