package hostside.gpu.cuda;

import java.lang.foreign.MemorySegment;

/** A timing event: the GPU's own clock between two points of a stream. */
public final class Event implements AutoCloseable {
    private final Cuda cuda;
    final MemorySegment handle;
    private boolean closed;

    Event(Cuda cuda) {
        this.cuda = cuda;
        this.handle = cuda.outPointer("cuEventCreate", Cuda.EVENT_DEFAULT);
    }

    public void synchronize() {
        cuda.call("cuEventSynchronize", handle);
    }

    /** Milliseconds from {@code start} to this event, both recorded and complete. */
    public double msSince(Event start) {
        return cuda.elapsedMs(start.handle, handle);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.call("cuEventDestroy", handle);
    }
}
