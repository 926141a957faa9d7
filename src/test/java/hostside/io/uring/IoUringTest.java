package hostside.io.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.libc.FileIo;
import hostside.libc.LibcException;

/** The ring against a real file: every byte read through it is the byte the file holds. */
class IoUringTest {
    @TempDir
    Path dir;

    @Test
    void readsEveryBlockOfAFileWithManyInFlight() throws Exception {
        String why = IoUring.unavailableReason();
        // CI's kernel allows io_uring; a machine that refuses it must say why, in words
        if (why != null) {
            assertThat(why).contains("io_uring");
            assertThatThrownBy(() -> IoUring.open(8)).isInstanceOf(LibcException.class);
            throw new AssertionError("io_uring unavailable here, the ring was not tested: " + why);
        }
        int block = 4096, blocks = 256;
        byte[] data = new byte[block * blocks];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 31 + i / block);
        Path f = dir.resolve("data");
        Files.write(f, data);
        int fd = FileIo.open(f.toString(), 0, 0);
        try (Arena a = Arena.ofConfined(); IoUring ring = IoUring.open(16)) {
            assertThat(ring.capacity()).isGreaterThanOrEqualTo(16);
            MemorySegment buffers = a.allocate((long) block * blocks, 4096);
            List<IoUring.Completion> done = new ArrayList<>();
            int next = 0;
            // read the blocks in a scrambled order, up to 16 at a time, as the drill does
            while (done.size() < blocks) {
                while (next < blocks && ring.inFlight() + 1 <= 16) {
                    int b = (next * 97) % blocks;
                    assertThat(ring.queueRead(fd, buffers.asSlice((long) b * block, block), block, (long) b * block, b)).isTrue();
                    next++;
                    if (next % 16 == 0) break;
                }
                ring.submit(1);
                ring.reap(done::add);
            }
            assertThat(done).hasSize(blocks);
            assertThat(done).allSatisfy(c -> assertThat(c.result()).isEqualTo(block));
            assertThat(done.stream().map(IoUring.Completion::userData).distinct().count()).isEqualTo(blocks);
            assertThat(buffers.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data);
            assertThat(ring.inFlight()).isZero();
        } finally {
            FileIo.close(fd);
        }
    }

    @Test
    void aFailedReadComesBackAsMinusErrno() {
        if (IoUring.unavailableReason() != null) throw new AssertionError(IoUring.unavailableReason());
        try (Arena a = Arena.ofConfined(); IoUring ring = IoUring.open(4)) {
            MemorySegment buf = a.allocate(4096, 4096);
            ring.queueRead(999_999, buf, 4096, 0, 7); // no such descriptor
            ring.submit(1);
            List<IoUring.Completion> done = new ArrayList<>();
            ring.reap(done::add);
            assertThat(done).singleElement().satisfies(c -> {
                assertThat(c.userData()).isEqualTo(7);
                assertThat(c.result()).isEqualTo(-9); // EBADF
            });
        }
    }

    @Test
    void refusedSetupFlagsAreDroppedInFiosOrderDownToNone() {
        int all = IoUring.IORING_SETUP_CQSIZE | IoUring.IORING_SETUP_COOP_TASKRUN | IoUring.IORING_SETUP_SINGLE_ISSUER | IoUring.IORING_SETUP_DEFER_TASKRUN;
        assertThat(IoUring.flagNames(all)).isEqualTo("CQSIZE|COOP_TASKRUN|SINGLE_ISSUER|DEFER_TASKRUN");
        int noDefer = IoUring.fewerFlags(all);
        assertThat(IoUring.flagNames(noDefer)).as("DEFER_TASKRUN needs SINGLE_ISSUER: both go together").isEqualTo("CQSIZE|COOP_TASKRUN");
        assertThat(IoUring.flagNames(IoUring.fewerFlags(noDefer))).isEqualTo("CQSIZE");
        assertThat(IoUring.flagNames(IoUring.fewerFlags(IoUring.fewerFlags(noDefer)))).isEqualTo("none");
    }

    @Test
    void aReadIsSeenWithoutWaitingForIt() throws Exception {
        if (IoUring.unavailableReason() != null) throw new AssertionError(IoUring.unavailableReason());
        Path f = dir.resolve("small");
        Files.write(f, new byte[4096]);
        int fd = FileIo.open(f.toString(), 0, 0);
        try (Arena a = Arena.ofConfined(); IoUring ring = IoUring.open(4)) {
            ring.queueRead(fd, a.allocate(4096, 4096), 4096, 0, 1);
            List<IoUring.Completion> done = new ArrayList<>();
            // under DEFER_TASKRUN a completion is posted only inside io_uring_enter: submit(0) must still post it
            for (int i = 0; i < 100_000 && done.isEmpty(); i++) {
                ring.submit(0);
                ring.reap(done::add);
            }
            assertThat(done).singleElement().satisfies(c -> assertThat(c.result()).isEqualTo(4096));
        } finally {
            FileIo.close(fd);
        }
    }
}
