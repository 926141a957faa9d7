package hostside.vm.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import hostside.vm.explain.CowMachine.Access;
import hostside.vm.explain.CowMachine.Outcome;
import hostside.vm.explain.CowMachine.Pte;

class CowMachineTest {
    final CowMachine m = new CowMachine();

    @Test
    void spawnGivesPrivateWritableFrames() {
        int main = m.spawn("main", 3);
        assertThat(m.pageTable(main)).containsExactly(Map.entry(0, new Pte(1, true)), Map.entry(1, new Pte(2, true)), Map.entry(2, new Pte(3, true)));
        assertThat(m.framesInUse()).isEqualTo(3);
        assertThat(m.usage(main)).isEqualTo(new CowMachine.Usage(main, "main", 3, 3 * 4096, 3 * 4096.0, 3 * 4096));
    }

    @Test
    void forkSharesEveryFrameReadOnly() {
        int main = m.spawn("main", 2);
        int child = m.fork(main, "worker 0");
        for (int page = 0; page < 2; page++) {
            assertThat(m.pte(main, page)).isEqualTo(new Pte(page + 1, false));
            assertThat(m.pte(child, page)).isEqualTo(new Pte(page + 1, false));
            assertThat(m.mapcount(page + 1)).isEqualTo(2);
        }
        assertThat(m.framesInUse()).isEqualTo(2);
        int grandchild = m.fork(child);
        assertThat(m.mapcount(1)).isEqualTo(3);
        assertThat(m.name(grandchild)).isEqualTo("child of " + child);
        assertThat(m.pids()).containsExactly(main, child, grandchild);
    }

    @Test
    void readsNeverCopy() {
        int main = m.spawn("main", 1);
        int child = m.fork(main);
        Access a = m.read(child, 0);
        assertThat(a).isEqualTo(new Access("read", child, 0, Outcome.READ, 1, 1, 2));
        assertThat(a.faulted()).isFalse();
        assertThat(m.framesInUse()).isEqualTo(1);
        assertThat(m.pte(child, 0).writable()).isFalse();
    }

    @Test
    void writeToASharedPageCopiesIt() {
        int main = m.spawn("main", 1);
        int child = m.fork(main);
        Access a = m.write(child, 0);
        assertThat(a).isEqualTo(new Access("write", child, 0, Outcome.COPIED, 1, 2, 2));
        assertThat(m.pte(child, 0)).isEqualTo(new Pte(2, true));
        assertThat(m.pte(main, 0)).isEqualTo(new Pte(1, false));  // main keeps the original, still read-only
        assertThat(m.mapcount(1)).isEqualTo(1);
        assertThat(m.mapcount(2)).isEqualTo(1);
        assertThat(m.framesInUse()).isEqualTo(2);
    }

    @Test
    void lastMapperGetsItsPageBackWithoutACopy() {
        int main = m.spawn("main", 1);
        int child = m.fork(main);
        m.write(child, 0);
        Access a = m.write(main, 0);
        assertThat(a).isEqualTo(new Access("write", main, 0, Outcome.REUSED, 1, 1, 1));
        assertThat(a.faulted()).isTrue();
        assertThat(m.pte(main, 0)).isEqualTo(new Pte(1, true));
        assertThat(m.framesInUse()).isEqualTo(2);
        // Now writable: the next write does not fault at all.
        assertThat(m.write(main, 0).outcome()).isEqualTo(Outcome.WROTE);
    }

    @Test
    void parentWriteAfterChildExitReuses() {
        int main = m.spawn("main", 1);
        int child = m.fork(main);
        assertThat(m.exit(child)).isZero();
        assertThat(m.mapcount(1)).isEqualTo(1);
        assertThat(m.pte(main, 0).writable()).isFalse();  // exit does not give the write bit back
        assertThat(m.write(main, 0).outcome()).isEqualTo(Outcome.REUSED);
        assertThat(m.framesInUse()).isEqualTo(1);
    }

    @Test
    void increfIsAWrite() {
        int main = m.spawn("main", 1);
        int a = m.fork(main);
        int b = m.fork(main);
        assertThat(m.incref(a, 0)).isEqualTo(new Access("incref", a, 0, Outcome.COPIED, 1, 2, 3));
        assertThat(m.incref(b, 0)).isEqualTo(new Access("incref", b, 0, Outcome.COPIED, 1, 3, 2));
        assertThat(m.incref(main, 0)).isEqualTo(new Access("incref", main, 0, Outcome.REUSED, 1, 1, 1));
        assertThat(m.framesInUse()).isEqualTo(3);
    }

    @Test
    void writeToAPrivateWritablePageDoesNotFault() {
        int main = m.spawn("main", 1);
        assertThat(m.write(main, 0)).isEqualTo(new Access("write", main, 0, Outcome.WROTE, 1, 1, 1));
    }

    @Test
    void exitReleasesOnlyFramesNobodyElseMaps() {
        int main = m.spawn("main", 4);
        int child = m.fork(main);
        m.write(child, 0);
        m.write(child, 1);
        assertThat(m.framesInUse()).isEqualTo(6);
        assertThat(m.exit(child)).isEqualTo(2);  // its two copies; pages 2 and 3 were shared
        assertThat(m.framesInUse()).isEqualTo(4);
        assertThat(m.mapcount(3)).isEqualTo(1);
        assertThat(m.mapcount(5)).isZero();
        assertThat(m.pids()).containsExactly(main);
        assertThat(m.exit(main)).isEqualTo(4);
        assertThat(m.framesInUse()).isZero();
        assertThat(m.peakFrames()).isEqualTo(6);
    }

    @Test
    void metricsFollowTheDefinitions() {
        int main = m.spawn("main", 4);
        int a = m.fork(main);
        int b = m.fork(main);
        m.write(a, 0);
        // main: page 0 shared with b (2), pages 1-3 shared three ways
        assertThat(m.usage(main).rssBytes()).isEqualTo(4 * 4096);
        assertThat(m.usage(main).pssBytes()).isCloseTo(4096 / 2.0 + 3 * 4096 / 3.0, within(1e-9));
        assertThat(m.usage(main).ussBytes()).isZero();
        assertThat(m.usage(a).ussBytes()).isEqualTo(4096);
        assertThat(m.usage(a).pssBytes()).isCloseTo(4096 + 3 * 4096 / 3.0, within(1e-9));
        assertThat(m.usage(b).pssBytes()).isCloseTo(m.usage(main).pssBytes(), within(1e-9));
        assertThat(m.memoryBytes()).isEqualTo(5 * 4096);
    }

    @Test
    void pssAlwaysAddsUpToTheMachinesMemory() {
        CowMachine big = new CowMachine(65536);
        Random r = new Random(42);
        List<Integer> live = new java.util.ArrayList<>(List.of(big.spawn("main", 16)));
        for (int i = 0; i < 2000; i++) {
            int pid = live.get(r.nextInt(live.size()));
            switch (r.nextInt(10)) {
                case 0 -> { if (live.size() < 12) live.add(big.fork(pid)); }
                case 1 -> { if (live.size() > 1) { big.exit(pid); live.remove((Integer) pid); } }
                case 2, 3 -> big.read(pid, r.nextInt(16));
                case 4, 5, 6 -> big.write(pid, r.nextInt(16));
                default -> big.incref(pid, r.nextInt(16));
            }
            double pss = live.stream().mapToDouble(p -> big.usage(p).pssBytes()).sum();
            assertThat(pss).isCloseTo(big.memoryBytes(), within(1e-6));
            long mapped = live.stream().mapToLong(p -> big.pageTable(p).size()).sum();
            long counted = live.stream().flatMap(p -> big.pageTable(p).values().stream()).map(Pte::frame).distinct()
                    .mapToLong(big::mapcount).sum();
            assertThat(counted).isEqualTo(mapped);  // every mapping is counted once in its frame's mapcount
            assertThat(big.peakFrames()).isGreaterThanOrEqualTo(big.framesInUse());
        }
    }

    @Test
    void processesAndFramesAsAStepShowsThem() {
        int main = m.spawn("main", 1);
        m.fork(main, "worker 0");
        assertThat(m.framesInUse()).isEqualTo(1);
        assertThat(m.memoryBytes()).isEqualTo(4096L);
        List<CowState.Process> procs = m.processes();
        assertThat(procs).extracting(CowState.Process::name).containsExactly("main", "worker 0");
        assertThat(procs.getFirst().pssBytes()).isEqualTo(2048.0);
        assertThat(procs.getFirst().ussBytes()).isZero();
        assertThat(procs.getFirst().pageTable()).containsExactly(new CowState.Entry(0, 1, false, 2));
        assertThat(m.frames()).containsExactly(new CowState.FrameUse(1, 2));
    }

    @Test
    void badCallsSayWhat() {
        int main = m.spawn("main", 2);
        assertThatThrownBy(() -> m.read(main, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("process " + main + " has no page 5 mapped");
        assertThatThrownBy(() -> m.fork(999)).isInstanceOf(IllegalArgumentException.class).hasMessage("no process 999 (running: [100])");
        m.exit(main);
        assertThatThrownBy(() -> m.write(main, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CowMachine(3000)).hasMessage("page size 3000 is not a power of two");
    }
}
