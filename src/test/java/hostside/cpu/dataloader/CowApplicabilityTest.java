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

/**
 * When the copy-on-write cases run, and what they say when they cannot. Whether numpy imports is
 * the driver's own answer: here a stand-in numpy package, first on the real python3's path, fails
 * to import as a missing or a broken one does.
 */
class CowApplicabilityTest {
    @TempDir
    Path dir;

    Path fakePython(String body) throws Exception {
        Path p = dir.resolve("python3");
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    /** The real python3 with {@code numpy/__init__.py} of our own first on its path. */
    Path pythonWhoseNumpy(String init) throws Exception {
        String real = Python.find().orElse(null);
        assumeThat(real).as("python3 on PATH").isNotNull();
        Path pkg = dir.resolve("site/numpy");
        Files.createDirectories(pkg);
        Files.writeString(pkg.resolve("__init__.py"), init);
        return fakePython("echo started >> '" + dir.resolve("starts") + "'; PYTHONPATH='" + dir.resolve("site") + "' exec '" + real + "' \"$@\"");
    }

    static DataLoaderTarget target(String python) {
        return new DataLoaderTarget(FsRoot.live(), python, 1L << 20, 1, 1, Duration.ofMillis(100), Duration.ofSeconds(20));
    }

    @Test
    void askingCostsNothing() throws Exception {
        Path p = fakePython("echo started >> '" + dir.resolve("runs") + "'; exit 1");
        for (DatasetKind k : DatasetKind.values()) assertThat(new CowGrowth(k).notApplicable(target(p.toString()))).isEmpty();
        assertThat(dir.resolve("runs")).as("no interpreter was started to ask").doesNotExist();
    }

    /**
     * Without numpy the array case stands down, and its interpreter, which served no dataset,
     * hosts the torch part after it; the list gets an interpreter of its own.
     */
    @Test
    void withoutNumpyOnlyTheArrayCaseStandsDown() throws Exception {
        Path p = pythonWhoseNumpy("raise ModuleNotFoundError(\"No module named 'numpy'\", name='numpy')\n");
        DataLoaderTarget t = target(p.toString());
        try (PythonSession s = new PythonSession(t.python())) {
            DataLoaderTarget shared = t.withSession(s);
            List<Result> rs = Runner.run(List.of(new CowGrowth(DatasetKind.ARRAY), new ForkVsSpawn(), new CowGrowth(DatasetKind.LIST)), shared, k -> {});
            assertThat(rs.get(0).status()).isEqualTo(Status.NOT_RUN);
            assertThat(rs.get(0).why()).isEqualTo("numpy not installed (pip install numpy)");
            assertThat(rs.get(1).status()).isEqualTo(Status.NOT_RUN);
            assertThat(rs.get(2).status()).as(rs.get(2).why()).isEqualTo(Status.OK);
        }
        assertThat(Files.readAllLines(dir.resolve("starts"))).as("the array's interpreter for the torch part, the list's own").hasSize(2);
        assertThat(Leftovers.scriptsRunning()).isEmpty();
    }

    @Test
    void aBrokenNumpyIsSaidAsSuch() throws Exception {
        Path p = pythonWhoseNumpy("raise ImportError('libopenblas.so.0: cannot open shared object file')\n");
        Result r = new CowGrowth(DatasetKind.ARRAY).run(target(p.toString()));
        assertThat(r.status()).isEqualTo(Status.NOT_RUN);
        assertThat(r.why()).isEqualTo("numpy does not import: ImportError: libopenblas.so.0: cannot open shared object file");
        assertThat(Leftovers.scriptsRunning()).isEmpty();
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
}
