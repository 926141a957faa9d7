package hostside.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ./hostside launcher's first build, as a new user sees it on stderr: what it does and about
 * how long, each step's time when done, and Maven's own output kept in a log that is named on
 * failure. The launcher is copied beside a fake mvnw (noisy, like Maven downloading), so nothing
 * is really built; no time is asserted.
 */
class LauncherBuildMessagesTest {
    @TempDir
    Path repo;

    record Run(int code, String err) {}

    /** A copy of the launcher in a folder that looks like the repository, with a fake ./mvnw. */
    void setUp(boolean buildFails) throws IOException {
        Files.copy(Path.of("hostside"), repo.resolve("hostside"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>\n");
        Files.createDirectories(repo.resolve("src/main/java"));
        Files.writeString(repo.resolve("src/main/java/A.java"), "class A {}\n");
        String mvnw = "#!/usr/bin/env bash\n"
                + "echo '[INFO] Downloading from central: https://repo.maven.apache.org/noise.pom'\n"
                + "echo 'WARNING: noise on stderr' >&2\n"
                + (buildFails ? "echo '[ERROR] COMPILATION ERROR: A.java:[1,1] oops'; exit 1\n" : "")
                // not a real jar: the JVM refuses it after the build, which is all this test needs
                + "mkdir -p target && echo 'not a jar' > target/hostside.jar\n";
        Files.writeString(repo.resolve("mvnw"), mvnw);
        for (String f : new String[] {"hostside", "mvnw"}) {
            Files.setPosixFilePermissions(repo.resolve(f), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    Run launch(boolean aot) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", repo.resolve("hostside").toString(), "machine").redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HOSTSIDE_JDK_SEARCH", System.getProperty("java.home"));
        pb.environment().put("HOME", repo.resolve("home").toString()); // no ~/.m2: a true first run
        if (aot) pb.environment().remove("HOSTSIDE_NO_AOT");
        else pb.environment().put("HOSTSIDE_NO_AOT", "1");
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), err);
    }

    @Test
    void theFirstBuildSaysWhatItDoesAndHowLongAndKeepsMavensOutputOutOfTheWay() throws Exception {
        setUp(false);
        Run r = launch(false);
        assertThat(r.err()).startsWith("hostside: building target/hostside.jar (Maven, first run: about 1-2 minutes")
                .containsPattern("hostside: built target/hostside.jar in \\d+ s\\n")
                .doesNotContain("[INFO]").doesNotContain("noise");
        assertThat(repo.resolve("target/hostside-build.log")).as("removed after a good build").doesNotExist();

        // the jar is up to date now: the next start builds nothing and says nothing of it
        assertThat(launch(false).err()).doesNotContain("building").doesNotContain("built");
    }

    @Test
    void aFailedBuildShowsTheEndOfMavensOutputAndNamesTheLog() throws Exception {
        setUp(true);
        Run r = launch(false);
        assertThat(r.code()).isEqualTo(1);
        Path log = repo.resolve("target/hostside-build.log").toRealPath();
        assertThat(r.err()).contains("[ERROR] COMPILATION ERROR: A.java:[1,1] oops")
                .containsPattern("hostside: build failed after \\d+ s .*Maven's whole output is in " + java.util.regex.Pattern.quote(log.toString()));
        assertThat(Files.readString(log)).contains("[INFO] Downloading").contains("noise on stderr");
    }

    @Test
    void trainingTheStartUpCacheIsSaidBeforeAndItsOutcomeAfter() throws Exception {
        setUp(false);
        Run r = launch(true);
        // the fake jar cannot be trained on: the launcher says so, names why, and runs without a cache
        assertThat(r.err()).contains("hostside: training the start-up cache (one run of machine --json --no-measure, about 5 s, once per build)...\n")
                .containsPattern("hostside: no start-up cache after \\d+ s; running without it, a little slower \\(why: \\S+/target/hostside\\.aot\\.log\\)\\n");
        assertThat(r.err().indexOf("built target/hostside.jar")).isLessThan(r.err().indexOf("training the start-up cache"));
    }
}
