package hostside.libc;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The scheduler calls on this machine's kernel: the critical-linked syscalls reach the kernel and
 * return its answer, and the futex calls, which pass the word's address as a number, name the
 * word the other side waits on. Nothing is timed.
 */
class SchedTest {
    private static final VarHandle WORD = JAVA_INT.varHandle();

    @Test
    void theCriticalSyscallsReturnTheKernelsAnswer() {
        assertThat(Sched.getppid()).isEqualTo(ProcessHandle.current().parent().orElseThrow().pid());
        assertThat(Sched.nativeNoop(-7)).isEqualTo(7);
        assertThat(Sched.tid()).isPositive();
    }

    @Test
    void aWakeReachesTheThreadAsleepOnTheSameWord() throws InterruptedException {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment word = arena.allocate(64, 64);
            Thread sleeper = Thread.ofPlatform().daemon().start(() -> {
                while ((int) WORD.getVolatile(word, 0L) == 0) Sched.futexWait(word, 0);
            });
            // a wake counts only a thread asleep on this very address: 1 comes back once the sleeper is there
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int woken = 0;
            while (woken == 0 && System.nanoTime() < until) {
                woken = Sched.futexWake(word, 1);
                if (woken == 0) Thread.sleep(1);
            }
            WORD.setVolatile(word, 0L, 1);
            Sched.futexWake(word, 1);
            sleeper.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(woken).as("FUTEX_WAKE found the sleeper").isEqualTo(1);
            assertThat(sleeper.isAlive()).isFalse();
        }
    }

    @Test
    void aWaitOnAChangedWordReturnsAtOnce() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(4, 4);
            word.set(JAVA_INT, 0, 5);
            Sched.futexWait(word, 4); // EAGAIN: the word no longer holds 4
            assertThat(Sched.futexWake(word, 1)).as("no one waits").isZero();
        }
    }

    @Test
    void aFutexWordOnTheHeapIsRefused() {
        MemorySegment heap = MemorySegment.ofArray(new int[1]);
        assertThatThrownBy(() -> Sched.address(heap)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("off-heap");
    }
}
