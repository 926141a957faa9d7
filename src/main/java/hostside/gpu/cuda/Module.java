package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/** PTX text from the jar's resources, JIT-compiled by the driver for this GPU (cuModuleLoadData). */
public final class Module implements AutoCloseable {
    private final Cuda cuda;
    private final MemorySegment handle;
    private boolean closed;

    private Module(Cuda cuda, MemorySegment handle) {
        this.cuda = cuda;
        this.handle = handle;
    }

    public static Module fromResource(Cuda cuda, String resource) {
        String ptx;
        try (InputStream in = Module.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            ptx = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
        MemorySegment image = cuda.arena.allocateFrom(ptx);
        return new Module(cuda, cuda.outPointer("cuModuleLoadData", image));
    }

    /** A kernel of this module; launches take 64-bit arguments (pointers, counts). */
    public Kernel kernel(String name) {
        MemorySegment fn = cuda.outPointer("cuModuleGetFunction", handle, cuda.arena.allocateFrom(name));
        return new Kernel(name, fn);
    }

    public final class Kernel {
        private final String name;
        private final MemorySegment function;

        private Kernel(String name, MemorySegment function) {
            this.name = name;
            this.function = function;
        }

        public void launch(Stream stream, int blocks, int threadsPerBlock, long... args) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment params = a.allocate(ADDRESS, Math.max(1, args.length));
                for (int i = 0; i < args.length; i++) {
                    MemorySegment v = a.allocate(JAVA_LONG);
                    v.set(JAVA_LONG, 0, args[i]);
                    params.setAtIndex(ADDRESS, i, v);
                }
                cuda.call("cuLaunchKernel", function, blocks, 1, 1, threadsPerBlock, 1, 1, 0, stream.handle, params,
                        MemorySegment.NULL);
            }
        }

        public String name() {
            return name;
        }

        /**
         * A launch with fixed arguments made ready once (parameter block allocated, handle
         * looked up), so that a loop of launches times cuLaunchKernel and not the setting up.
         */
        public Prepared prepare(Stream stream, int blocks, int threadsPerBlock, long... args) {
            return new Prepared(this, stream, blocks, threadsPerBlock, args);
        }
    }

    /** A ready-to-go launch of one kernel; close frees its parameter block. */
    public final class Prepared implements AutoCloseable {
        private final Kernel kernel;
        private final Stream stream;
        private final int blocks, threads;
        private final Arena arena = Arena.ofShared();
        private final MemorySegment params;
        private final java.lang.invoke.MethodHandle launch;

        private Prepared(Kernel kernel, Stream stream, int blocks, int threads, long... args) {
            this.kernel = kernel;
            this.stream = stream;
            this.blocks = blocks;
            this.threads = threads;
            this.params = arena.allocate(ADDRESS, Math.max(1, args.length));
            for (int i = 0; i < args.length; i++) {
                MemorySegment v = arena.allocate(JAVA_LONG);
                v.set(JAVA_LONG, 0, args[i]);
                params.setAtIndex(ADDRESS, i, v);
            }
            this.launch = cuda.exact("cuLaunchKernel");
        }

        /** One cuLaunchKernel; a failure is a CudaException as anywhere else. */
        public void launch() {
            int r;
            try {
                r = (int) launch.invokeExact(kernel.function, blocks, 1, 1, threads, 1, 1, 0, stream.handle, params, MemorySegment.NULL);
            } catch (Throwable t) {
                throw new CudaException("cuLaunchKernel: call failed: " + t);
            }
            if (r != 0) throw new CudaException("cuLaunchKernel", r, cuda.errorName(r));
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.call("cuModuleUnload", handle);
    }
}
