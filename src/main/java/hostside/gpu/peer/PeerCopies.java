package hostside.gpu.peer;

import java.util.List;

import hostside.gpu.bench.Target;
import hostside.harness.TestCase;

/** The peer-to-peer test cases in the order they run: nvbandwidth's copy engine ones, its SM ones, then the staged copy. */
public final class PeerCopies {
    private PeerCopies() {}

    public static List<TestCase<List<Target>>> all() {
        return List.of(new PeerCe.Unidirectional(true), new PeerCe.Unidirectional(false), new PeerCe.Bidirectional(true),
                new PeerCe.Bidirectional(false), new PeerSm.SmCopy(true), new PeerSm.SmCopy(false), new PeerSm.Latency(),
                new PeerCe.Staged());
    }

    /**
     * The self-checks of one GPU: each case that copies through peer access, with the GPU as both
     * ends ({@link Loopback}). Not the staged copy: with one GPU there is nothing to stage.
     */
    public static List<TestCase<Target>> loopbacks() {
        return all().stream().filter(t -> !(t instanceof PeerCe.Staged)).<TestCase<Target>>map(Loopback::new).toList();
    }
}
