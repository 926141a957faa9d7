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

import hostside.core.Json;
import hostside.core.Unit;
import hostside.fs.FsRoot;
import hostside.harness.Result;
import hostside.harness.Status;

/** torch is not installed here: the paths that say why fork_vs_spawn_cuda does not run, and the reading of its output. */
class ForkVsSpawnTest {
    static final Duration LIMIT = Duration.ofSeconds(60);
    @TempDir
    Path dir;

    static DataLoaderTarget target(String python) {
        return new DataLoaderTarget(FsRoot.live(), python, 1L << 20, 1, Duration.ofSeconds(30));
    }

    static Python.Outcome out(String stdout) {
        return new Python.Outcome(0, stdout, "", false);
    }

    @Test
    void noPython() {
        assertThat(new ForkVsSpawn().notApplicable(target(null))).hasValue("no python3 on PATH");
        assertThat(new CowGrowth(DatasetKind.LIST).notApplicable(target(null))).hasValue("no python3 on PATH");
        assertThat(new CowGrowth(DatasetKind.ARRAY).notApplicable(target(""))).hasValue("no python3 on PATH");
    }

    @Test
    void recordedMachine() throws Exception {
        Files.createDirectories(dir.resolve("proc"));
        DataLoaderTarget t = new DataLoaderTarget(FsRoot.open(dir.toString()), "/usr/bin/python3", 1L << 20, 1, Duration.ofSeconds(5));
        for (var test : DataLoaderTarget.tests()) assertThat(test.notApplicable(t)).get().asString().contains("recorded machine");
    }

    /**
     * The time left counts on what each case waits for: the spawn case's torch interpreters (the
     * parent's, then three spawned together), the copy-on-write cases' passes side by side; nothing where
     * the case will not run (a recording, no python3). Arithmetic only: nothing is started.
     */
    @Test
    void eachCaseCostsWhatItWaitsFor() throws Exception {
        DataLoaderTarget t = new DataLoaderTarget(FsRoot.live(), "/nonexistent/python3", 1L << 20, 4, 3, Duration.ofSeconds(1), Duration.ofSeconds(120));
        assertThat(new ForkVsSpawn().cost(t)).as("the parent's and its forks, then the three children's together: 11 s measured").hasValue(Duration.ofMillis(11_250));
        try (PythonSession s = new PythonSession(t.python())) {
            assertThat(new ForkVsSpawn().cost(t.withSession(s))).as("a shared interpreter still imports torch anew").hasValue(Duration.ofMillis(11_250));
        }
        assertThat(new CowGrowth(DatasetKind.LIST).cost(t)).hasValue(Duration.ofSeconds(3));
        assertThat(new CowGrowth(DatasetKind.ARRAY).cost(t.withPasses(2, Duration.ofMillis(300)))).hasValue(Duration.ofMillis(600));
        for (var test : DataLoaderTarget.tests()) assertThat(test.cost(target(null))).as(test.key() + " without python3").isEmpty();
        Files.createDirectories(dir.resolve("proc"));
        DataLoaderTarget recorded = new DataLoaderTarget(FsRoot.open(dir.toString()), "/usr/bin/python3", 1L << 20, 1, Duration.ofSeconds(5));
        for (var test : DataLoaderTarget.tests()) assertThat(test.cost(recorded)).as(test.key() + " on a recording").isEmpty();
    }

    @Test
    void torchIsNotInstalledHere() {
        String python = Python.find().orElse(null);
        assumeThat(python).isNotNull();
        Python.Outcome torch = null;
        try {
            torch = Python.run(List.of(python, "-c", "import torch"), LIMIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        assumeThat(torch.ok()).as("torch is installed on this machine").isFalse();
        Result r = new ForkVsSpawn().run(target(python));
        assertThat(r.status()).isEqualTo(Status.NOT_RUN);
        assertThat(r.why()).isEqualTo("torch not installed (pip install torch)");
    }

    @Test
    void probeOutputs() {
        assertThat(ForkVsSpawn.whyNot("{\"event\": \"probe\", \"torch\": false, \"error\": \"ModuleNotFoundError: No module named 'torch'\"}\n"))
                .hasValue("torch not installed (pip install torch)");
        assertThat(ForkVsSpawn.whyNot("{\"event\": \"probe\", \"torch\": false, \"error\": \"OSError: libcudart.so.12: cannot open shared object file\"}"))
                .hasValue("torch does not import: OSError: libcudart.so.12: cannot open shared object file");
        assertThat(ForkVsSpawn.whyNot("{\"event\": \"probe\", \"torch\": true, \"version\": \"2.5.1+cpu\", \"cuda_build\": null, \"available\": false, \"count\": 0}"))
                .hasValue("torch sees no CUDA device (a CPU-only build: torch 2.5.1+cpu)");
        assertThat(ForkVsSpawn.whyNot("{\"event\": \"probe\", \"torch\": true, \"version\": \"2.9.0\", \"cuda_build\": \"12.8\", \"available\": false, \"count\": 0}"))
                .hasValue("torch sees no CUDA device");
        assertThat(ForkVsSpawn.whyNot("{\"event\": \"probe\", \"torch\": true, \"version\": \"2.9.0\", \"cuda_build\": \"12.8\", \"available\": true, \"count\": 1}"))
                .isEmpty();
        assertThat(ForkVsSpawn.whyNot("garbage\n")).as("no probe line: the run says what went wrong").isEmpty();
        // the run's result: a probe that says no is "not run", a run that died before it "failed"
        Result none = new ForkVsSpawn().result(out("{\"event\": \"probe\", \"torch\": true, \"version\": \"2.9.0\", \"cuda_build\": \"12.8\", \"available\": false, \"count\": 0}\n"), LIMIT);
        assertThat(none.status()).isEqualTo(Status.NOT_RUN);
        assertThat(none.why()).isEqualTo("torch sees no CUDA device");
        Result died = new ForkVsSpawn().result(new Python.Outcome(1, "garbage\n", "Traceback...\nSyntaxError: bad\n", false), LIMIT);
        assertThat(died.status()).isEqualTo(Status.FAILED);
        assertThat(died.why()).isEqualTo("the script exited with 1 before CUDA was tried: SyntaxError: bad");
    }

    /** A "python3" that answers the probe as a machine whose torch sees no GPU would. */
    @Test
    void aPythonWhoseTorchSeesNoGpu() throws Exception {
        Path fake = dir.resolve("python3");
        Files.writeString(fake, "#!/bin/sh\necho '{\"event\": \"probe\", \"torch\": true, \"version\": \"2.9.0\", \"cuda_build\": \"12.8\", \"available\": false, \"count\": 0}'\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));
        assertThat(Python.onPath("/nonexistent:" + dir)).hasValue(fake.toString());
        assertThat(new ForkVsSpawn().notApplicable(target(fake.toString()))).as("no second interpreter is asked").isEmpty();
        Result r = new ForkVsSpawn().run(target(fake.toString()));
        assertThat(r.status()).isEqualTo(Status.NOT_RUN);
        assertThat(r.why()).isEqualTo("torch sees no CUDA device");
    }

    @Test
    void readsARunsOutput() {
        String stdout = """
                {"event": "parent", "pid": 10, "torch": "2.9.0", "cuda": "12.8", "device": "NVIDIA H200", "cuda_init_seconds": 0.41, "value": 16.0}
                {"event": "fork", "ok": false, "error": "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"}
                {"event": "fork_cpu", "ok": true, "error": ""}
                {"event": "spawn", "try": 1, "ok": true, "error": "", "start_seconds": 2.5, "cuda_seconds": 0.4}
                {"event": "spawn", "try": 2, "ok": true, "error": "", "start_seconds": 2.1, "cuda_seconds": 0.3}
                {"event": "spawn", "try": 3, "ok": true, "error": "", "start_seconds": 2.2, "cuda_seconds": 0.3}
                {"event": "done"}
                """;
        Result r = new ForkVsSpawn().result(out(stdout), LIMIT);
        assertThat(r.status()).isEqualTo(Status.OK);
        assertThat(r.unit()).isEqualTo(Unit.of("s"));
        assertThat(r.value().median()).isEqualTo(2.2);
        assertThat(r.value().samples()).isEqualTo(3);
        SpawnDetail d = (SpawnDetail) r.detail();
        assertThat(d.fork()).isEqualTo(SpawnDetail.Outcome.failed("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"));
        assertThat(d.spawn()).isEqualTo(SpawnDetail.Outcome.OK);
        assertThat(d.forkCpu()).isEqualTo(SpawnDetail.Outcome.OK);
        assertThat(d.device()).isEqualTo("NVIDIA H200");
        assertThat(d.spawnCudaSeconds()).isEqualTo(0.3);
        assertThat(d.spawnTries()).containsExactly(new SpawnDetail.SpawnTry(1, true, 2.5, 0.4, null), new SpawnDetail.SpawnTry(2, true, 2.1, 0.3, null),
                new SpawnDetail.SpawnTry(3, true, 2.2, 0.3, null));
        var json = Json.MAPPER.valueToTree(d);
        assertThat(json.path("fork").asText()).as("written as before: the outcome in words")
                .isEqualTo("failed: RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method");
        assertThat(json.path("spawnTries").get(0).path("try").asInt()).isEqualTo(1);
        assertThat(VerdictsTest.texts(List.of(r))).singleElement().asString().endsWith("(spawn costs 2.2 s per worker start)");

        Result none = new ForkVsSpawn().result(out("{\"event\": \"error\", \"reason\": \"torch sees no CUDA device\"}"), LIMIT);
        assertThat(none.status()).isEqualTo(Status.FAILED);
        assertThat(none.why()).isEqualTo("torch sees no CUDA device");

        Result late = new ForkVsSpawn().result(new Python.Outcome(-1, stdout.lines().limit(4).reduce("", (a, b) -> a + b + "\n"), "", true), LIMIT);
        assertThat(late.status()).isEqualTo(Status.FAILED);
        assertThat(late.why()).contains("timed out after 60 s").contains("1 spawn tries done");

        Result spawnFailed = new ForkVsSpawn().result(out(stdout.replace("\"ok\": true, \"error\": \"\", \"start_seconds\"", "\"ok\": false, \"error\": \"RuntimeError: x\", \"s\"")), LIMIT);
        assertThat(spawnFailed.status()).isEqualTo(Status.FAILED);
        assertThat(spawnFailed.why()).isEqualTo("spawn failed too: RuntimeError: x");
        assertThat(((SpawnDetail) spawnFailed.detail()).fork().failed()).as("what was learnt before the failure is kept").isTrue();
        assertThat(((SpawnDetail) spawnFailed.detail()).spawn()).isEqualTo(SpawnDetail.Outcome.failed("RuntimeError: x"));
    }

    /** A stand-in for torch with one "GPU" and torch's rule for forked children, to run the script's plumbing here. */
    static final String FAKE_TORCH = """
            # A stand-in for torch with one CUDA device: just enough for fork_vs_spawn.py, with torch's fork rule.
            import os

            __version__ = "0.0-stand-in"

            # With STAND_IN_TORCH_BARRIER set, a spawned child's import waits until STAND_IN_TORCH_CHILDREN children
            # are importing at once: children started one after another never get there, and fail.
            _barrier = os.environ.get("STAND_IN_TORCH_BARRIER")
            if _barrier:
                import multiprocessing, time
                if multiprocessing.parent_process() is not None:
                    open(os.path.join(_barrier, str(os.getpid())), "w").close()
                    _until = time.monotonic() + 8
                    while len(os.listdir(_barrier)) < int(os.environ["STAND_IN_TORCH_CHILDREN"]):
                        if time.monotonic() > _until:
                            raise ImportError("the other spawned children never imported beside this one")
                        time.sleep(0.01)


            class version:
                cuda = "12.8"


            _initialized = False
            _bad_fork = False


            def _after_fork():
                global _bad_fork
                if _initialized:
                    _bad_fork = True


            os.register_at_fork(after_in_child=_after_fork)


            class _Tensor:
                def __init__(self, n):
                    self.n = n

                def sum(self):
                    return _Tensor(self.n)

                def item(self):
                    return float(self.n)


            class cuda:
                @staticmethod
                def is_available():
                    return True

                @staticmethod
                def device_count():
                    return 1

                @staticmethod
                def get_device_name(i=0):
                    return "Stand-in GPU"

                @staticmethod
                def synchronize():
                    cuda._lazy_init()

                @staticmethod
                def _lazy_init():
                    global _initialized
                    if _bad_fork:
                        raise RuntimeError("Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, "
                                           "you must use the 'spawn' start method")
                    _initialized = True


            def ones(n, device=None):
                if device is not None and str(device).startswith("cuda"):
                    cuda._lazy_init()
                return _Tensor(n)
            """;

    /**
     * The whole run, script and all, against the stand-in: fork fails with torch's own message,
     * fork on the CPU and spawn work, three spawn timings; nothing is left running.
     */
    /** The real python3 with the stand-in torch first on its path. */
    Path standInTorch() throws Exception {
        return standInTorch("");
    }

    /** ... with {@code env} (shell assignments) exported to it and its children. */
    Path standInTorch(String env) throws Exception {
        String real = Python.find().orElse(null);
        assumeThat(real).isNotNull();
        Path pkg = dir.resolve("site/torch");
        Files.createDirectories(pkg);
        Files.writeString(pkg.resolve("__init__.py"), FAKE_TORCH);
        Path wrapper = dir.resolve("python3");
        Files.writeString(wrapper, "#!/bin/sh\necho started >> '" + dir.resolve("starts") + "'\n" + env + "\nPYTHONPATH='" + dir.resolve("site") + "' exec '" + real + "' \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        return wrapper;
    }

    @Test
    void aRunAgainstAStandInTorch() throws Exception {
        DataLoaderTarget t = target(standInTorch().toString());

        assertThat(new ForkVsSpawn().notApplicable(t)).isEmpty();
        Result r = new ForkVsSpawn().run(t);
        assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
        assertThat(r.value().samples()).isEqualTo(3);
        assertThat(r.value().min()).isPositive();
        SpawnDetail d = (SpawnDetail) r.detail();
        assertThat(d.fork()).isEqualTo(SpawnDetail.Outcome.failed("RuntimeError: Cannot re-initialize CUDA in forked subprocess. "
                + "To use CUDA with multiprocessing, you must use the 'spawn' start method"));
        assertThat(d.forkCpu()).isEqualTo(SpawnDetail.Outcome.OK);
        assertThat(d.spawn()).isEqualTo(SpawnDetail.Outcome.OK);
        assertThat(d.device()).isEqualTo("Stand-in GPU");
        assertThat(VerdictsTest.texts(List.of(r))).singleElement().asString().startsWith("a forked DataLoader worker cannot use CUDA");
        assertThat(Leftovers.scriptsRunning()).isEmpty();
    }

    /**
     * The spawned children start together, as a DataLoader starts its workers (the figure is what
     * each pays beside the others): each one's import waits until all three are importing, which
     * children started one after another never are. No timing is asserted.
     */
    @Test
    void theSpawnedChildrenStartTogether() throws Exception {
        Path barrier = Files.createDirectories(dir.resolve("barrier"));
        DataLoaderTarget t = target(standInTorch("STAND_IN_TORCH_BARRIER='" + barrier + "' STAND_IN_TORCH_CHILDREN=" + ForkVsSpawn.TRIES
                + "\nexport STAND_IN_TORCH_BARRIER STAND_IN_TORCH_CHILDREN").toString());
        Result r = new ForkVsSpawn().run(t);
        assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
        assertThat(((SpawnDetail) r.detail()).spawnTries()).hasSize(ForkVsSpawn.TRIES).allMatch(SpawnDetail.SpawnTry::ok);
        try (var arrived = Files.list(barrier)) {
            assertThat(arrived).as("each spawned child imported torch once").hasSize(ForkVsSpawn.TRIES);
        }
        assertThat(Leftovers.scriptsRunning()).isEmpty();
    }

    /**
     * The drill's way: the torch part runs in the interpreter of the dataset before it (one
     * python3 started for both), and that interpreter ends with it; a dataset after the torch
     * part, or after another dataset, gets an interpreter of its own.
     */
    @Test
    void theTorchPartRunsInTheDatasetsInterpreter() throws Exception {
        DataLoaderTarget t = target(standInTorch().toString()).withPasses(1, Duration.ZERO);
        try (PythonSession s = new PythonSession(t.python())) {
            DataLoaderTarget shared = t.withSession(s);
            Result list = new CowGrowth(DatasetKind.LIST).run(shared);
            assertThat(list.status()).as(list.why()).isEqualTo(Status.OK);
            Result r = new ForkVsSpawn().run(shared);
            assertThat(r.status()).as(r.why()).isEqualTo(Status.OK);
            assertThat(r.value().samples()).isEqualTo(3);
            assertThat(((SpawnDetail) r.detail()).forkCpu()).isEqualTo(SpawnDetail.Outcome.OK);
            assertThat(Files.readAllLines(dir.resolve("starts"))).as("one interpreter for the list and the torch part").hasSize(1);
            Result again = new CowGrowth(DatasetKind.LIST).run(shared);
            assertThat(again.status()).as(again.why()).isEqualTo(Status.OK);
            assertThat(Files.readAllLines(dir.resolve("starts"))).as("a fresh one after the torch part").hasSize(2);
            assertThat(((CowDetail) again.detail()).main().pid()).isNotEqualTo(((CowDetail) list.detail()).main().pid());
        }
        assertThat(Leftovers.scriptsRunning()).isEmpty();
    }

    @Test
    void theTestsAndTheirKeys() {
        assertThat(DataLoaderTarget.tests()).extracting(t -> t.key())
                .containsExactly("dataloader_cow_list", "dataloader_cow_array", "fork_vs_spawn_cuda");
    }
}
