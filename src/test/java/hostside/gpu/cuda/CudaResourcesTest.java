package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import hostside.libc.Libc;
import hostside.libc.LibcException;
import hostside.libc.Numa;

/**
 * The binding's resources (Gpu, Stream, Event, DeviceBuffer, HostBuffer, Module) against the fake
 * driver, which counts what is live: everything try-with-resources opened is released again,
 * also when the block, or the driver, throws.
 */
class CudaResourcesTest extends OnFakeDriver {
    static final long MiB = 1L << 20;


    // ---- release ----

    @Test
    void everythingOpenedIsReleased() {
        try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); Event a = gpu.event(); Event b = gpu.event();
             DeviceBuffer d = gpu.alloc(4 * MiB); HostBuffer h = HostBuffer.pinned(cuda, 4 * MiB)) {
            assertThat(fake.live("contexts")).isEqualTo(1);
            assertThat(fake.live("streams")).isEqualTo(1);
            assertThat(fake.live("events")).isEqualTo(2);
            assertThat(fake.live("device")).isEqualTo(1);
            assertThat(fake.live("pinned")).isEqualTo(1);
            assertThat(fake.live()).isEqualTo(6);
        }
        fake.assertNothingLive();
        assertThat(fake.calls("cuDevicePrimaryCtxRelease_v2")).isEqualTo(1);
        assertThat(fake.calls("cuStreamDestroy_v2")).isEqualTo(1);
        assertThat(fake.calls("cuEventDestroy_v2")).isEqualTo(2);
        assertThat(fake.calls("cuMemFree_v2")).isEqualTo(1);
        assertThat(fake.calls("cuMemFreeHost")).isEqualTo(1);
    }

    @Test
    void releasedWhenTheBlockThrows() {
        assertThatThrownBy(() -> {
            try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); Event a = gpu.event(); DeviceBuffer d = gpu.alloc(MiB);
                 HostBuffer h = HostBuffer.pinned(cuda, MiB)) {
                assertThat(fake.live()).isEqualTo(5);
                throw new IllegalStateException("midway");
            }
        }).isInstanceOf(IllegalStateException.class).hasMessage("midway");
        fake.assertNothingLive();
    }

    @Test
    void releasedWhenTheDriverFailsMidway() {
        fake.setFreeMemory(64 * MiB);
        assertThatThrownBy(() -> {
            try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); DeviceBuffer small = gpu.alloc(MiB);
                 DeviceBuffer big = gpu.alloc(128 * MiB)) {
                throw new AssertionError("the second allocation should have failed");
            }
        }).isInstanceOf(CudaException.class).hasMessage("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)");
        fake.assertNothingLive();
    }

    @Test
    void releasedWhenACallInsideTheBlockFails() {
        fake.failOnce("cuEventRecord", 700, 1); // the second record: CUDA_ERROR_ILLEGAL_ADDRESS
        assertThatThrownBy(() -> {
            try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); Event a = gpu.event(); Event b = gpu.event()) {
                s.record(a);
                s.record(b);
            }
        }).isInstanceOf(CudaException.class).hasMessage("cuEventRecord: CUDA_ERROR_ILLEGAL_ADDRESS (700)");
        fake.assertNothingLive();
    }

    @Test
    void aFailedConstructorLeavesNothingOfItself() {
        try (Gpu gpu = new Gpu(cuda, 0)) {
            fake.failOnce("cuStreamCreate", 2, 0);
            assertThatThrownBy(gpu::stream).hasMessage("cuStreamCreate: CUDA_ERROR_OUT_OF_MEMORY (2)");
            fake.failOnce("cuEventCreate", 2, 0);
            assertThatThrownBy(gpu::event).hasMessage("cuEventCreate: CUDA_ERROR_OUT_OF_MEMORY (2)");
            fake.failOnce("cuMemHostAlloc", 2, 0);
            assertThatThrownBy(() -> HostBuffer.pinned(cuda, MiB)).hasMessage("cuMemHostAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)");
            assertThat(fake.live()).isEqualTo(1);
        }
        fake.assertNothingLive();
    }

    @Test
    void closingTwiceReleasesOnce() {
        Gpu gpu = new Gpu(cuda, 0);
        Stream s = gpu.stream();
        Event e = gpu.event();
        DeviceBuffer d = gpu.alloc(MiB);
        HostBuffer h = HostBuffer.pinned(cuda, MiB);
        for (int i = 0; i < 2; i++) {
            h.close();
            d.close();
            e.close();
            s.close();
            gpu.close();
        }
        fake.assertNothingLive();
        // the fake says INVALID_VALUE or INVALID_HANDLE to a second free: none was made
        assertThat(fake.calls("cuMemFree_v2")).isEqualTo(1);
        assertThat(fake.calls("cuDevicePrimaryCtxRelease_v2")).isEqualTo(1);
    }

    @Test
    void twoGpusHoldTheirOwnContexts() {
        try (Gpu g0 = new Gpu(cuda, 0); Gpu g1 = new Gpu(cuda, 1)) {
            assertThat(g0.device()).isZero();
            assertThat(g1.device()).isEqualTo(1);
            assertThat(g1.ordinal()).isEqualTo(1);
            assertThat(fake.live("contexts")).isEqualTo(2);
        }
        fake.assertNothingLive();
    }

    // ---- memory ----

    @Test
    void outOfMemoryIsACudaExceptionNamingTheCall() {
        fake.setFreeMemory(64 * MiB);
        try (Gpu gpu = new Gpu(cuda, 0)) {
            assertThatThrownBy(() -> gpu.alloc(65 * MiB)).isInstanceOf(CudaException.class)
                    .hasMessage("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)")
                    .satisfies(e -> assertThat(((CudaException) e).code()).isEqualTo(2));
            try (DeviceBuffer d = gpu.alloc(64 * MiB)) {
                assertThat(d.bytes()).isEqualTo(64 * MiB);
                assertThat(d.address()).isNotZero();
            }
        }
        fake.assertNothingLive();
    }

    @Test
    void memoryInfoSeesAllocations() {
        fake.setFreeMemory(1L << 30);
        try (Gpu gpu = new Gpu(cuda, 0)) {
            long[] before = cuda.memoryInfo();
            assertThat(before).containsExactly(1L << 30, 150754820096L);
            try (DeviceBuffer d = gpu.alloc(256 * MiB)) {
                assertThat(cuda.memoryInfo()[0]).isEqualTo((1L << 30) - 256 * MiB);
            }
            assertThat(cuda.memoryInfo()[0]).isEqualTo(1L << 30);
        }
    }

    @Test
    void fillAndCopiesPassTheFakesRangeChecks() {
        try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); DeviceBuffer a = gpu.alloc(4 * MiB);
             DeviceBuffer b = gpu.alloc(4 * MiB); HostBuffer pinned = HostBuffer.pinned(cuda, 4 * MiB);
             HostBuffer pageable = HostBuffer.pageable(cuda, 4 * MiB)) {
            a.fill(0x5a5a5a5a);
            s.copyHostToDevice(a, pinned, 4 * MiB);
            s.copyDeviceToHost(pageable, b, 4 * MiB);
            s.copyDeviceToDevice(b, a, 4 * MiB);
            s.synchronize();
            cuda.copyHostToDeviceSync(a, pageable, 4 * MiB);
            cuda.copyDeviceToHostSync(pinned, b, MiB);
            assertThat(fake.calls("cuMemcpyHtoD_v2")).isEqualTo(1);
            assertThat(fake.calls("cuMemcpyDtoH_v2")).isEqualTo(1);
            // the legacy default stream is NULL to the driver, and never destroyed
            Stream legacy = Stream.legacyDefault(cuda);
            legacy.copyHostToDevice(a, pinned, MiB);
            legacy.synchronize();
            legacy.close();
            gpu.synchronize();
            // past the end of the device buffer: the fake checks, as the driver does
            assertThatThrownBy(() -> s.copyHostToDevice(a, pinned, 4 * MiB + 1))
                    .hasMessage("cuMemcpyHtoDAsync: CUDA_ERROR_INVALID_VALUE (1)");
        }
        fake.assertNothingLive();
    }

    @Test
    void hostBuffersOfEachKind() {
        try (Gpu gpu = new Gpu(cuda, 0)) {
            try (HostBuffer pinned = HostBuffer.pinned(cuda, 3 * MiB)) {
                assertThat(pinned.kind()).isEqualTo(HostBuffer.Kind.PINNED);
                assertThat(pinned.bytes()).isEqualTo(3 * MiB);
                // touched on creation
                assertThat(pinned.segment().get(JAVA_BYTE, 3 * MiB - 1)).isEqualTo((byte) 1);
                // with unified addressing the GPU's address of pinned memory is its host address
                assertThat(pinned.devicePointer()).isEqualTo(pinned.segment().address());
            }
            try (HostBuffer registered = HostBuffer.registered(cuda, 2 * MiB)) {
                assertThat(registered.kind()).isEqualTo(HostBuffer.Kind.REGISTERED);
                assertThat(fake.live("registered")).isEqualTo(1);
                assertThat(registered.devicePointer()).isEqualTo(registered.segment().address());
            }
            try (HostBuffer pageable = HostBuffer.pageable(cuda, MiB)) {
                assertThat(pageable.kind()).isEqualTo(HostBuffer.Kind.PAGEABLE);
                assertThat(pageable.segment().get(JAVA_BYTE, 0)).isEqualTo((byte) 1);
                // never page-locked: the driver has no device pointer for it
                assertThatThrownBy(pageable::devicePointer).hasMessage("cuMemHostGetDevicePointer: CUDA_ERROR_INVALID_VALUE (1)");
            }
            assertThat(fake.live()).isEqualTo(1);
        }
        fake.assertNothingLive();
    }

    @Test
    void aPageableBufferOnANodeIsBoundBeforeItsFirstTouchAndRegisteredInPlace() {
        try (Gpu gpu = new Gpu(cuda, 0)) {
            try (HostBuffer h = HostBuffer.pageable(cuda, 2 * MiB, 0)) {
                assertThat(h.kind()).isEqualTo(HostBuffer.Kind.PAGEABLE);
                assertThat(h.bytes()).isEqualTo(2 * MiB);
                assertThat(h.segment().address() % Libc.pageSize()).as("its own mapping: page-aligned").isZero();
                assertThat(h.segment().get(JAVA_BYTE, 2 * MiB - 1)).as("touched on creation").isEqualTo((byte) 1);
                try {
                    assertThat(Numa.nodesOf(h.segment(), Libc.pageSize(), 16)).containsOnly(0);
                } catch (LibcException e) {
                    // move_pages refused (a seccomp profile): where the pages are cannot be asked here
                }
                h.register();
                assertThat(fake.live("registered")).isEqualTo(1);
                assertThat(h.devicePointer()).isEqualTo(h.segment().address());
            }
            assertThat(fake.live("registered")).as("close unregisters before it unmaps").isZero();
            // no node: the arena's memory, as before
            try (HostBuffer h = HostBuffer.pageable(cuda, MiB, null)) {
                assertThat(h.segment().get(JAVA_BYTE, 0)).isEqualTo((byte) 1);
            }
            // a node this machine lacks: mbind says why, and nothing is left registered or mapped
            assertThatThrownBy(() -> HostBuffer.pageable(cuda, MiB, 1000)).isInstanceOf(LibcException.class)
                    .hasMessageStartingWith("mbind to node 1000: ");
        }
        fake.assertNothingLive();
    }

    @Test
    void aFailedRegistrationLeavesNothing() {
        try (Gpu gpu = new Gpu(cuda, 0)) {
            fake.failOnce("cuMemHostRegister_v2", 712, 0);
            assertThatThrownBy(() -> HostBuffer.registered(cuda, MiB))
                    .hasMessage("cuMemHostRegister: CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED (712)");
        }
        fake.assertNothingLive();
    }

    // ---- contexts are per thread ----

    @Test
    void aWorkerThreadMakesTheContextCurrentFirst() throws Exception {
        try (Gpu gpu = new Gpu(cuda, 0)) {
            Object without = onNewThread(() -> {
                try (DeviceBuffer d = gpu.alloc(MiB)) {
                    return d.bytes();
                }
            });
            assertThat(without).isInstanceOf(CudaException.class).asString()
                    .contains("cuMemAlloc: CUDA_ERROR_INVALID_CONTEXT (201)");
            Object with = onNewThread(() -> {
                gpu.makeCurrent();
                try (DeviceBuffer d = gpu.alloc(MiB)) {
                    return d.bytes();
                }
            });
            assertThat(with).isEqualTo(MiB);
        }
        fake.assertNothingLive();
    }

    /** What {@code work} returned or threw on a thread of its own. */
    private static Object onNewThread(java.util.function.Supplier<Object> work) throws InterruptedException {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                result.set(work.get());
            } catch (RuntimeException e) {
                result.set(e);
            }
        });
        t.join(30_000);
        assertThat(t.isAlive()).as("worker thread finished").isFalse();
        return result.get();
    }

    // ---- events ----

    @Test
    void elapsedTimeFallsBackToTheUnversionedName() {
        fake.setElapsedMs(2.5f);
        try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream(); Event start = gpu.event(); Event end = gpu.event()) {
            s.record(start);
            s.record(end);
            end.synchronize();
            assertThat(end.msSince(start)).isEqualTo(2.5);
        }
        assertThat(fake.calls("cuEventElapsedTime")).isEqualTo(1);
        assertThat(fake.calls("cuEventElapsedTime_v2")).isZero();
        fake.assertNothingLive();
    }

    @Test
    void elapsedTimeOfUnrecordedEventsIsAnError() {
        try (Gpu gpu = new Gpu(cuda, 0); Event start = gpu.event(); Event end = gpu.event()) {
            assertThatThrownBy(() -> end.msSince(start)).isInstanceOf(CudaException.class)
                    .hasMessage("cuEventElapsedTime: CUDA_ERROR_INVALID_HANDLE (400)");
        }
        fake.assertNothingLive();
    }

    // ---- modules and launches ----

    @Test
    void kernelsLoadAndLaunchWithTheirArguments() {
        try (Gpu gpu = new Gpu(cuda, 0); Stream s = gpu.stream();
             Module m = Module.fromResource(cuda, "/hostside/gpu/kernels.ptx")) {
            Module.Kernel copy = m.kernel("hostside_copy");
            assertThat(copy.name()).isEqualTo("hostside_copy");
            copy.launch(s, 528, 512, 0x1000L, -2L, 7L);
            assertThat(fake.lastLaunch("params")).isEqualTo(3);
            assertThat(fake.lastLaunch("gridX")).isEqualTo(528);
            assertThat(fake.lastLaunch("blockX")).isEqualTo(512);
            assertThat(fake.lastLaunch("sharedMem")).isZero();
            assertThat(fake.lastLaunch("stream")).isEqualTo(1);
            assertThat(fake.lastLaunchParam(0)).isEqualTo(0x1000L);
            assertThat(fake.lastLaunchParam(1)).isEqualTo(-2L);
            assertThat(fake.lastLaunchParam(2)).isEqualTo(7L);
            m.kernel("hostside_spin").launch(s, 1, 1, 42L, 10_000_000_000L);
            assertThat(fake.lastLaunchParam(1)).isEqualTo(10_000_000_000L);
            m.kernel("hostside_chase");
            assertThatThrownBy(() -> m.kernel("hostside_nope")).hasMessage("cuModuleGetFunction: CUDA_ERROR_NOT_FOUND (500)");
            assertThatThrownBy(() -> copy.launch(s, 1, 2048, 1L, 2L, 3L)).hasMessage("cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (1)");
        }
        fake.assertNothingLive();
    }

    @Test
    void aMissingResourceIsNotADriverError() {
        try (Gpu gpu = new Gpu(cuda, 0)) {
            assertThatThrownBy(() -> Module.fromResource(cuda, "/hostside/gpu/none.ptx")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("none.ptx");
        }
        fake.assertNothingLive();
    }
}
