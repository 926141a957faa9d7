package hostside.gpu.peer;

import java.util.List;
import java.util.Optional;

import hostside.gpu.bench.Target;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * A peer test case run with one GPU as both ends: the same code, kernels and timing as between
 * two GPUs, on the GPU's own memory, so a machine of one GPU can check them against a figure it
 * knows (the copy-engine copy against nvbandwidth's device_local_copy, the pointer chase against
 * the GPU's memory latency). A self-check, not a measurement of any link: it runs only when
 * {@code --only} names it. The matrix holds the GPU twice, one figure each way.
 */
public record Loopback(TestCase<List<Target>> peerCase) implements TestCase<Target> {
    public static final String SUFFIX = "_loopback";

    public String key() {
        return peerCase.key() + SUFFIX;
    }

    public String description() {
        return "self-check, only with --only: " + peerCase.key() + " with one GPU as both ends (its own memory, no link crossed)";
    }

    /** The peer case's record: the matrix holds the GPU twice. */
    @Override
    public Class<? extends Detail> detailType() {
        return peerCase.detailType();
    }

    /** None: no established tool pairs a GPU with itself (nvbandwidth's device_local_copy is the figure to hold it against). */
    @Override
    public String anchor() {
        return null;
    }

    @Override
    public Optional<String> notApplicable(Target gpu) {
        return peerCase.notApplicable(List.of(gpu, gpu));
    }

    public Result run(Target gpu) {
        Result r = peerCase.run(List.of(gpu, gpu));
        return new Result(key(), description(), r.status(), r.why(), r.unit(), r.value(), r.better(),
                r.method() + "; both ends the same GPU", anchor(), r.detail());
    }
}
