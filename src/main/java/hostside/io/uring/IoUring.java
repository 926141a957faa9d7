package hostside.io.uring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

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
    // setup flags, the ones fio's io_uring engine asks for (engines/io_uring.c, fio_ioring_queue_init)
    static final int IORING_SETUP_CQSIZE = 1 << 3, IORING_SETUP_COOP_TASKRUN = 1 << 8, IORING_SETUP_SINGLE_ISSUER = 1 << 12,
            IORING_SETUP_DEFER_TASKRUN = 1 << 13;
    static final int EINVAL = 22;
    static final long IORING_OFF_SQ_RING = 0L, IORING_OFF_CQ_RING = 0x8000000L, IORING_OFF_SQES = 0x10000000L;
    static final int PARAMS_BYTES = 120, SQE_BYTES = 64, CQE_BYTES = 16;

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final int ringFd;
    private final MemorySegment sqRing, cqRing, sqes;
    private final boolean singleMap;
    private final int sqEntries, sqMask, cqMask, setupFlags;
    private final long sqHead, sqTail, sqArray, cqHead, cqTail, cqes;
    private int tail, unsubmitted, inFlight;

    private IoUring(int ringFd, MemorySegment params) {
        this.ringFd = ringFd;
        setupFlags = params.get(ValueLayout.JAVA_INT, 8);
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
     * A ring with room for {@code entries} requests in flight, set up as fio's io_uring engine sets
     * up its own: a completion ring as deep as the submission ring (CQSIZE), and completions run
     * when this thread waits for them rather than by interrupting it (COOP_TASKRUN, and
     * SINGLE_ISSUER with DEFER_TASKRUN). Each interruption is an inter-processor interrupt, which
     * costs a VM an exit: without these flags 32 reads in flight run slower than fio's. A kernel
     * that does not know a flag refuses it with EINVAL; the flags are dropped in fio's order,
     * newest first, down to none. Fails otherwise with the kernel's errno: ENOSYS (no io_uring
     * in this kernel), EPERM (kernel.io_uring_disabled, or a seccomp profile such as Docker's
     * default that blocks it), ENOMEM (memlock too low on older kernels).
     */
    public static IoUring open(int entries) {
        int flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(PARAMS_BYTES, 8);
            while (true) {
                params.fill((byte) 0);
                params.set(ValueLayout.JAVA_INT, 4, entries); // cq_entries, read with CQSIZE
                params.set(ValueLayout.JAVA_INT, 8, flags);
                try {
                    int fd = (int) FileIo.syscall("io_uring_setup", SYS_IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0);
                    return new IoUring(fd, params);
                } catch (LibcException e) {
                    if (e.errno() != EINVAL || flags == 0) throw e;
                    flags = fewerFlags(flags);
                }
            }
        }
    }

    /** The flags to try after the kernel refused {@code flags}: fio's order, the newest dropped first. */
    static int fewerFlags(int flags) {
        if ((flags & IORING_SETUP_DEFER_TASKRUN) != 0) return flags & ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER);
        if ((flags & IORING_SETUP_COOP_TASKRUN) != 0) return flags & ~IORING_SETUP_COOP_TASKRUN;
        return flags & ~IORING_SETUP_CQSIZE;
    }

    /** The setup flags the kernel took, by name, e.g. "CQSIZE|COOP_TASKRUN|SINGLE_ISSUER|DEFER_TASKRUN", or "none". */
    public String setupFlags() {
        return flagNames(setupFlags);
    }

    static String flagNames(int flags) {
        List<String> names = new ArrayList<>();
        if ((flags & IORING_SETUP_CQSIZE) != 0) names.add("CQSIZE");
        if ((flags & IORING_SETUP_COOP_TASKRUN) != 0) names.add("COOP_TASKRUN");
        if ((flags & IORING_SETUP_SINGLE_ISSUER) != 0) names.add("SINGLE_ISSUER");
        if ((flags & IORING_SETUP_DEFER_TASKRUN) != 0) names.add("DEFER_TASKRUN");
        return names.isEmpty() ? "none" : String.join("|", names);
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
     * completed (0: do not wait); returns how many the kernel took. Always with GETEVENTS, as fio
     * submits: under DEFER_TASKRUN that is what posts finished reads to the completion ring, so
     * a {@link #reap} after {@code submit(0)} still sees every read already done.
     */
    public int submit(int minComplete) {
        INT.setRelease(sqRing, sqTail, tail);
        int flags = IORING_ENTER_GETEVENTS;
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
