package hostside.gpu.peer;

import java.util.Optional;

import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.Gpu;

/**
 * Peer access between two GPUs for the time of one measurement. Opened as nvbandwidth opens it:
 * only where cuDeviceCanAccessPeer says the first GPU can reach the second, then enabled both
 * ways (the way back only where the driver allows it). Closing undoes exactly what opening did,
 * so the next measurement finds the driver as it was.
 */
final class PeerLink implements AutoCloseable {
    private final Gpu a, b;
    private final boolean enabledAb, enabledBa;

    private PeerLink(Gpu a, Gpu b, boolean enabledAb, boolean enabledBa) {
        this.a = a;
        this.b = b;
        this.enabledAb = enabledAb;
        this.enabledBa = enabledBa;
    }

    static boolean canAccess(GpuBench from, GpuBench to) {
        Integer v = from.cuda.canAccessPeer(from.gpu.device(), to.gpu.device()).value();
        return v != null && v != 0;
    }

    /** Empty when {@code a} cannot reach {@code b}'s memory. */
    static Optional<PeerLink> open(GpuBench a, GpuBench b) {
        if (!canAccess(a, b)) return Optional.empty();
        boolean ab = a.gpu.enablePeerAccess(b.gpu);
        try {
            boolean ba = canAccess(b, a) && b.gpu.enablePeerAccess(a.gpu);
            return Optional.of(new PeerLink(a.gpu, b.gpu, ab, ba));
        } catch (RuntimeException e) {
            try {
                if (ab) a.gpu.disablePeerAccess(b.gpu);
            } catch (RuntimeException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
    }

    @Override
    public void close() {
        switchBack(a, b, enabledAb, enabledBa, false);
    }

    /**
     * Sets peer access back to {@code on} in each direction a measurement switched ({@code ab}: a
     * to b, {@code ba}: b to a); the second even when the first fails.
     */
    static void switchBack(Gpu a, Gpu b, boolean ab, boolean ba, boolean on) {
        try {
            if (ab) set(a, b, on);
        } finally {
            if (ba) set(b, a, on);
        }
    }

    private static void set(Gpu from, Gpu to, boolean on) {
        if (on) from.enablePeerAccess(to);
        else from.disablePeerAccess(to);
    }
}
