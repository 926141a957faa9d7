package hostside.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import hostside.cli.Main;

/** One run of the command line in this JVM, as a user would see it: exit code, stdout, stderr. */
public record CliRun(int code, String out, String err) {
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Bad input: exit 2, one line on stderr starting with {@code start}, no stack trace, nothing on stdout. */
    public void assertOneLineError(String start) {
        assertThat(code).as(err).isEqualTo(2);
        assertThat(err.strip().lines()).hasSize(1);
        assertThat(err).startsWith(start).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out).isEmpty();
    }
}
