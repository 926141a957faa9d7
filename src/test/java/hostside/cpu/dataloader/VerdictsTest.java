package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.cpu.Runs;
import hostside.harness.Result;
import hostside.testing.RuleTally;

/** The verdict lines from hand-made results. */
class VerdictsTest {
    /** The findings' texts. */
    static List<String> texts(List<Result> rs) {
        return DataLoaderVerdicts.of(rs, null).stream().map(Finding::text).toList();
    }

    static Result cow(String data, double growth, int workers, long dataset, long totalGrowth) {
        return Runs.cowResult(DatasetKind.of(data), growth, workers, dataset, totalGrowth);
    }

    @Test
    void listCopiedArrayShared() {
        List<Result> rs = List.of(cow("list", 98, 4, 256L << 20, 1L << 30), cow("array", 0.3, 4, 32L << 20, 100_000));
        assertThat(texts(rs)).containsExactly(
                "Python list: each worker's private memory grew by 98% of the dataset (refcount updates copied every page): "
                        + "4 workers x 256 MiB = 1 GiB more; a numpy array stayed shared (growth 0.3%): "
                        + "keep datasets in numpy/torch tensors or use persistent workers with shared memory");
    }

    @Test
    void onlyWhatRanIsSaid() {
        assertThat(texts(List.of(cow("list", 93.4, 1, 16L << 20, 15L << 20))))
                .containsExactly("Python list: each worker's private memory grew by 93% of the dataset (refcount updates copied every page): "
                        + "1 worker x 16 MiB = 15 MiB more: keep datasets in numpy/torch tensors or use persistent workers with shared memory");
        assertThat(texts(List.of(cow("array", 1.04, 2, 2L << 20, 40_000))))
                .containsExactly("A numpy array stayed shared (growth 1.0%): keep datasets in numpy/torch tensors or use persistent workers with shared memory");
        Result notRun = Result.notRun(new CowGrowth(DatasetKind.ARRAY), "numpy not installed (pip install numpy)");
        assertThat(texts(List.of(notRun))).isEmpty();
        assertThat(texts(List.of())).isEmpty();
    }

    @Test
    void surprisesAreSaidAsSuch() {
        List<Result> rs = List.of(cow("list", 12, 2, 16L << 20, 4L << 20), cow("array", 40, 2, 2L << 20, 1L << 20));
        assertThat(texts(rs)).containsExactly(
                "Python list: each worker's private memory grew by only 12% of the dataset here (2 workers x 16 MiB = 4 MiB more); "
                        + "a numpy array grew too (40% of the dataset per worker)");
    }

    static Result spawn(String fork, double... seconds) {
        return Runs.spawnResult(SpawnDetail.Outcome.parse(fork), seconds);
    }

    @Test
    void forkCannotUseCuda() {
        assertThat(texts(List.of(spawn("failed: RuntimeError: Cannot re-initialize CUDA in forked subprocess.", 2.1, 2.4, 2.2))))
                .containsExactly("a forked DataLoader worker cannot use CUDA: do GPU work in the main process, or use "
                        + "multiprocessing_context='spawn'/'forkserver' (spawn costs 2.2 s per worker start)");
        assertThat(texts(List.of(spawn("ok", 1.0, 1.0, 1.0)))).singleElement().asString().contains("unexpected");
    }

    @Test
    void aForkDrillThatDidNotRunSaysNothing() {
        // no torch (or no GPU): no worker was forked or spawned, so there is nothing to say of either
        Result notRun = Result.notRun(new ForkVsSpawn(), "torch not installed (pip install torch)");
        assertThat(RuleTally.quiet(DataLoaderVerdicts.of(List.of(notRun), null), DataLoaderVerdicts.FORK_CUDA)).isEmpty();
    }
}
