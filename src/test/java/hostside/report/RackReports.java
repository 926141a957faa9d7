package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import hostside.testing.CliRun;

/** The report of one of testdata/rack's recorded machines, written by the command as users run it. */
final class RackReports {
    private RackReports() {}

    /** Runs {@code report --root} on the machine into {@code out}; the files are {@code <machine>.json}, {@code .md} and {@code .html}. */
    static void write(Path out, String machine) {
        Path root = hostside.Fixtures.testdata().resolve("rack/" + machine + ".tar.gz");
        CliRun r = CliRun.of("report", "--root", root.toString(), "--out", out.toString(), "--name", machine);
        assertThat(r.code()).as(r.err()).isZero();
    }
}
