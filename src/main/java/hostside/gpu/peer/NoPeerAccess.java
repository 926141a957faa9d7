package hostside.gpu.peer;

import hostside.gpu.cuda.Gpu;

/**
 * Two GPUs with peer access off both ways for the time of one measurement: what was on is
 * switched off, and on again at close, so the staged copy is measured as a machine without
 * peer access would make it, and the driver is left as it was found.
 */
final class NoPeerAccess implements AutoCloseable {
    private final Gpu a, b;
    private final boolean wasAb, wasBa;

    NoPeerAccess(Gpu a, Gpu b) {
        this.a = a;
        this.b = b;
        this.wasAb = a.disablePeerAccess(b);
        boolean ba;
        try {
            ba = b.disablePeerAccess(a);
        } catch (RuntimeException e) {
            if (wasAb) a.enablePeerAccess(b);
            throw e;
        }
        this.wasBa = ba;
    }

    @Override
    public void close() {
        PeerLink.switchBack(a, b, wasAb, wasBa, true);
    }
}
