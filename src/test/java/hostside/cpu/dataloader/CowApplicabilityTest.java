package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;

/** When the copy-on-write cases run, and what they say when they cannot. */
class CowApplicabilityTest {
    @TempDir
    Path dir;

    Path fakePython(String body) throws Exception {
        Path p = dir.resolve("python3");
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    static DataLoaderTarget target(String python) {
        return new DataLoaderTarget(FsRoot.live(), python, 1L << 20, 1, Duration.ofSeconds(10));
    }

    @Test
    void withoutNumpyOnlyTheArrayCaseStandsDown() throws Exception {
        Path p = fakePython("echo 'Traceback (most recent call last):' >&2; echo \"ModuleNotFoundError: No module named 'numpy'\" >&2; exit 1");
        DataLoaderTarget t = target(p.toString());
        assertThat(new CowGrowth(DatasetKind.ARRAY).notApplicable(t)).hasValue("numpy not installed (pip install numpy)");
        assertThat(new CowGrowth(DatasetKind.LIST).notApplicable(t)).isEmpty();
    }

    @Test
    void aBrokenNumpyIsSaidAsSuch() throws Exception {
        Path p = fakePython("echo \"ImportError: libopenblas.so.0: cannot open shared object file\" >&2; exit 1");
        assertThat(new CowGrowth(DatasetKind.ARRAY).notApplicable(target(p.toString())))
                .hasValue("numpy does not import: ImportError: libopenblas.so.0: cannot open shared object file");
    }

    @Test
    void aPythonThatDiesGivesAFailedRowNotAnException() throws Exception {
        Path p = fakePython("echo 'python3: cannot run here' >&2; exit 7");
        List<Result> rs = Runner.run(List.of(new CowGrowth(DatasetKind.LIST)), target(p.toString()), k -> {});
        assertThat(rs).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.FAILED);
            assertThat(r.why()).contains("exited with 7").contains("python3: cannot run here");
        });
    }

    @Test
    void numpyIsHere() throws Exception {
        String python = Python.find().orElse(null);
        assumeThat(python).isNotNull();
        assertThat(Python.numpyMissing(python, Duration.ofSeconds(30))).isEmpty();
    }
}
