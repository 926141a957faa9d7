package hostside.gpu.cuda;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * A CUDA graph captured from work queued on a stream, instantiated once and launched as one
 * unit: the launch cost of many kernels paid once (what torch.cuda.graphs does for a step).
 */
public final class Graph implements AutoCloseable {
    static final int CAPTURE_MODE_THREAD_LOCAL = 1;
    private final Cuda cuda;
    private final MemorySegment graph, exec;
    private final MethodHandle launch;
    private boolean closed;

    private Graph(Cuda cuda, MemorySegment graph, MemorySegment exec) {
        this.cuda = cuda;
        this.graph = graph;
        this.exec = exec;
        this.launch = cuda.exact("cuGraphLaunch");
    }

    /** Captures what {@code work} queues on {@code stream} (nothing runs while capturing). */
    public static Graph capture(Cuda cuda, Stream stream, Runnable work) {
        cuda.call("cuStreamBeginCapture", stream.handle, CAPTURE_MODE_THREAD_LOCAL);
        try {
            work.run();
        } catch (RuntimeException e) {
            // End the capture even so (a stream left capturing refuses all later work) and drop
            // the half-made graph; the first failure is the one worth reporting.
            try {
                cuda.call("cuGraphDestroy", endCapture(cuda, stream));
            } catch (CudaException ignored) {
                // the capture may already be invalidated by the failure
            }
            throw e;
        }
        MemorySegment g = endCapture(cuda, stream);
        MemorySegment exec;
        try {
            exec = cuda.outPointer("cuGraphInstantiate", g, 0L);
        } catch (CudaException e) {
            cuda.call("cuGraphDestroy", g);
            throw e;
        }
        return new Graph(cuda, g, exec);
    }

    /** cuStreamEndCapture(stream, &graph): the out-parameter comes second here. */
    private static MemorySegment endCapture(Cuda cuda, Stream stream) {
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment out = a.allocate(java.lang.foreign.ValueLayout.ADDRESS);
            cuda.call("cuStreamEndCapture", stream.handle, out);
            return out.get(java.lang.foreign.ValueLayout.ADDRESS, 0);
        }
    }

    public void launch(Stream stream) {
        int r;
        try {
            r = (int) launch.invokeExact(exec, stream.handle);
        } catch (Throwable t) {
            throw new CudaException("cuGraphLaunch: call failed: " + t);
        }
        if (r != 0) throw new CudaException("cuGraphLaunch", r, cuda.errorName(r));
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            cuda.call("cuGraphExecDestroy", exec);
        } finally {
            cuda.call("cuGraphDestroy", graph);
        }
    }
}
