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

    /** The start of the line a live drill says on stderr when the machine was busy as it began (hostside.process.MachineLoad). */
    public static final String BUSY = "hostside: the machine was busy as the ";

    /**
     * stderr's lines without the one a live run says when the machine is busy: whether it is said
     * depends on what else runs on the machine, so a test of the other lines leaves it out. Where
     * it is said, it is the first line (before the first case starts).
     */
    public java.util.List<String> errLinesBesideTheLoad() {
        java.util.List<String> all = err.lines().toList();
        for (int i = 1; i < all.size(); i++) assertThat(all.get(i)).as("the busy line comes first").doesNotStartWith(BUSY);
        return all.stream().filter(l -> !l.startsWith(BUSY)).toList();
    }

    /** Bad input: exit 2, one line on stderr starting with {@code start}, no stack trace, nothing on stdout. */
    public void assertOneLineError(String start) {
        assertThat(code).as(err).isEqualTo(2);
        assertThat(err.strip().lines()).hasSize(1);
        assertThat(err).startsWith(start).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out).isEmpty();
    }
}
