package hostside.io.uring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import hostside.libc.FileIo;
import hostside.libc.Libc;
import hostside.libc.LibcException;

/**
 * One io_uring instance through raw syscalls (glibc has no wrapper; liburing would be a C
 * build step): io_uring_setup, the submission and completion rings mapped into this process,
 * and io_uring_enter to submit and wait. Reads only ({@code IORING_OP_READ}, kernel 5.6+), which
 * is all the I/O drill needs.
 *
 * <p>The rings are shared with the kernel: our stores to the submission tail are releases and
 * our loads of the completion tail acquires, as liburing does, so the kernel sees a filled entry
 * before the tail that publishes it, and we see a completion's fields after its tail.
 *
 * <p>Not thread-safe: one ring per thread, as io_uring itself is meant to be used.
 */
public final class IoUring implements AutoCloseable {
    // the generic syscall numbers: the same on x86-64 and arm64
    static final long SYS_IO_URING_SETUP = 425, SYS_IO_URING_ENTER = 426;
    static final int IORING_OP_READ = 22;
    static final int IORING_ENTER_GETEVENTS = 1;
    static final int IORING_FEAT_SINGLE_MMAP = 1;
    static final long IORING_OFF_SQ_RING = 0L, IORING_OFF_CQ_RING = 0x8000000L, IORING_OFF_SQES = 0x10000000L;
    static final int PARAMS_BYTES = 120, SQE_BYTES = 64, CQE_BYTES = 16;

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final int ringFd;
    private final MemorySegment sqRing, cqRing, sqes;
    private final boolean singleMap;
    private final int sqEntries, sqMask, cqMask;
    private final long sqHead, sqTail, sqArray, cqHead, cqTail, cqes;
    private int tail, unsubmitted, inFlight;

    private IoUring(int ringFd, MemorySegment params) {
        this.ringFd = ringFd;
        sqEntries = params.get(ValueLayout.JAVA_INT, 0);
        int cqEntries = params.get(ValueLayout.JAVA_INT, 4);
        int features = params.get(ValueLayout.JAVA_INT, 20);
        sqHead = params.get(ValueLayout.JAVA_INT, 40);
        sqTail = params.get(ValueLayout.JAVA_INT, 44);
        long sqRingMask = params.get(ValueLayout.JAVA_INT, 48);
        sqArray = params.get(ValueLayout.JAVA_INT, 64);
        cqHead = params.get(ValueLayout.JAVA_INT, 80);
        cqTail = params.get(ValueLayout.JAVA_INT, 84);
        long cqRingMask = params.get(ValueLayout.JAVA_INT, 88);
        cqes = params.get(ValueLayout.JAVA_INT, 100);
        long sqBytes = sqArray + 4L * sqEntries, cqBytes = cqes + (long) CQE_BYTES * cqEntries;
        singleMap = (features & IORING_FEAT_SINGLE_MMAP) != 0;
        int shared = Libc.MAP_SHARED | Libc.MAP_POPULATE, rw = Libc.PROT_READ | Libc.PROT_WRITE;
        MemorySegment sq = null, cq = null, entries = null;
        try {
            sq = Libc.mmap(singleMap ? Math.max(sqBytes, cqBytes) : sqBytes, rw, shared, ringFd, IORING_OFF_SQ_RING);
            cq = singleMap ? sq : Libc.mmap(cqBytes, rw, shared, ringFd, IORING_OFF_CQ_RING);
            entries = Libc.mmap((long) SQE_BYTES * sqEntries, rw, shared, ringFd, IORING_OFF_SQES);
        } catch (RuntimeException e) {
            if (entries != null) Libc.munmap(entries);
            if (cq != null && cq != sq) Libc.munmap(cq);
            if (sq != null) Libc.munmap(sq);
            FileIo.close(ringFd);
            throw e;
        }
        sqRing = sq;
        cqRing = cq;
        sqes = entries;
        sqMask = sqRing.get(ValueLayout.JAVA_INT, sqRingMask);
        cqMask = cqRing.get(ValueLayout.JAVA_INT, cqRingMask);
        tail = (int) INT.getAcquire(sqRing, sqTail);
    }

    /**
     * A ring with room for {@code entries} requests in flight. Fails with the kernel's errno:
     * ENOSYS (no io_uring in this kernel), EPERM (kernel.io_uring_disabled, or a seccomp profile
     * such as Docker's default that blocks it), ENOMEM (memlock too low on older kernels).
     */
    public static IoUring open(int entries) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(PARAMS_BYTES, 8);
            int fd = (int) FileIo.syscall("io_uring_setup", SYS_IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0);
            return new IoUring(fd, params);
        }
    }

    /** Whether io_uring can be used here, or why not, in words (for "not run: ..."). */
    public static String unavailableReason() {
        try (IoUring r = open(2)) {
            return null;
        } catch (LibcException e) {
            return switch (e.errno()) {
                case 38 -> "io_uring is not in this kernel (ENOSYS)";
                case 1 -> "io_uring is refused (EPERM): kernel.io_uring_disabled, or a seccomp profile (Docker's default blocks it)";
                case 12 -> "io_uring cannot lock its rings (ENOMEM): raise the memlock limit";
                default -> "io_uring_setup failed: " + e.getMessage();
            };
        }
    }

    public int capacity() {
        return sqEntries;
    }

    /** Requests the kernel has taken and not yet completed (as far as reaped). */
    public int inFlight() {
        return inFlight;
    }

    /** Requests queued or in flight: what must still complete before the buffers may go. */
    public int outstanding() {
        return inFlight + unsubmitted;
    }

    /**
     * Queues one read of {@code length} bytes at {@code offset} into {@code buffer}; returns
     * false when the submission ring is full. Nothing reaches the kernel before {@link #submit}.
     */
    public boolean queueRead(int fd, MemorySegment buffer, int length, long offset, long userData) {
        int head = (int) INT.getAcquire(sqRing, sqHead);
        if (tail - head >= sqEntries) return false;
        int index = tail & sqMask;
        MemorySegment sqe = sqes.asSlice((long) index * SQE_BYTES, SQE_BYTES);
        sqe.fill((byte) 0);
        sqe.set(ValueLayout.JAVA_BYTE, 0, (byte) IORING_OP_READ);
        sqe.set(ValueLayout.JAVA_INT, 4, fd);
        sqe.set(ValueLayout.JAVA_LONG, 8, offset);
        sqe.set(ValueLayout.JAVA_LONG, 16, buffer.address());
        sqe.set(ValueLayout.JAVA_INT, 24, length);
        sqe.set(ValueLayout.JAVA_LONG, 32, userData);
        sqRing.set(ValueLayout.JAVA_INT, sqArray + 4L * index, index);
        tail++;
        unsubmitted++;
        return true;
    }

    /**
     * Publishes the queued reads and waits until at least {@code minComplete} requests have
     * completed (0: do not wait); returns how many the kernel took.
     */
    public int submit(int minComplete) {
        INT.setRelease(sqRing, sqTail, tail);
        int flags = minComplete > 0 ? IORING_ENTER_GETEVENTS : 0;
        while (true) {
            try {
                int taken = (int) FileIo.syscall("io_uring_enter", SYS_IO_URING_ENTER, ringFd, unsubmitted, minComplete, flags, 0, 0);
                unsubmitted -= taken;
                inFlight += taken;
                return taken;
            } catch (LibcException e) {
                if (e.errno() != 4) throw e; // EINTR: the wait was interrupted, not the I/O
            }
        }
    }

    /** One finished request: what was passed as user data, and the result (bytes, or -errno). */
    public record Completion(long userData, int result) {}

    /**
     * Takes every completion waiting in the ring, calling {@code sink} for each; returns how
     * many. A negative result is the request's -errno.
     */
    public int reap(java.util.function.Consumer<Completion> sink) {
        int head = cqRing.get(ValueLayout.JAVA_INT, cqHead);
        int end = (int) INT.getAcquire(cqRing, cqTail);
        int n = 0;
        while (head != end) {
            long at = cqes + (long) (head & cqMask) * CQE_BYTES;
            sink.accept(new Completion(cqRing.get(ValueLayout.JAVA_LONG, at), cqRing.get(ValueLayout.JAVA_INT, at + 8)));
            head++;
            n++;
        }
        INT.setRelease(cqRing, cqHead, head);
        inFlight -= n;
        return n;
    }

    @Override
    public void close() {
        Libc.munmap(sqes);
        if (!singleMap) Libc.munmap(cqRing);
        Libc.munmap(sqRing);
        FileIo.close(ringFd);
    }
}
