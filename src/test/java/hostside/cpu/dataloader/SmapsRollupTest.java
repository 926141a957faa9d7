package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.GarbageException;
import hostside.fs.FsRoot;

class SmapsRollupTest {
    /** A python3 worker on kernel 6.18 (x86-64) after copying a 16 MiB list dataset. */
    static final String WORKER = """
            563da201f000-7fff2c312000 ---p 00000000 00:00 0                          [rollup]
            Rss:               29492 kB
            Pss:               21271 kB
            Pss_Dirty:         18100 kB
            Pss_Anon:          18500 kB
            Pss_File:           2771 kB
            Pss_Shmem:             0 kB
            Shared_Clean:       7480 kB
            Shared_Dirty:       4060 kB
            Private_Clean:        12 kB
            Private_Dirty:     17940 kB
            Referenced:        29492 kB
            Anonymous:         22000 kB
            KSM:                   0 kB
            LazyFree:              0 kB
            AnonHugePages:         0 kB
            ShmemPmdMapped:        0 kB
            FilePmdMapped:         0 kB
            Shared_Hugetlb:        0 kB
            Private_Hugetlb:       0 kB
            Swap:                128 kB
            SwapPss:              64 kB
            Locked:                0 kB
            """;

    @Test
    void readsEveryFieldInBytes() {
        SmapsRollup r = SmapsRollup.parse(WORKER);
        assertThat(r.rss()).hasValue(29492L * 1024);
        assertThat(r.pss()).hasValue(21271L * 1024);
        assertThat(r.pssAnon()).hasValue(18500L * 1024);
        assertThat(r.pssFile()).hasValue(2771L * 1024);
        assertThat(r.pssShmem()).hasValue(0);
        assertThat(r.anonymous()).hasValue(22000L * 1024);
        assertThat(r.swap()).hasValue(128L * 1024);
        assertThat(r.get("SwapPss")).hasValue(64L * 1024);
        assertThat(r.uss()).as("Private_Clean + Private_Dirty").hasValue((12L + 17940) * 1024);
        assertThat(r.shared()).as("Shared_Clean + Shared_Dirty").hasValue((7480L + 4060) * 1024);
        assertThat(r.values()).doesNotContainKey("563da201f000-7fff2c312000 ---p 00000000 00");
    }

    @Test
    void readsThisMachinesOwnFile() {
        SmapsRollup r = SmapsRollup.parse(FsRoot.live().text("/proc/self/smaps_rollup").orElseThrow());
        assertThat(r.rss().orElseThrow()).isPositive();
        assertThat(r.uss().orElseThrow()).isPositive().isLessThanOrEqualTo(r.rss().orElseThrow());
        assertThat(r.pss().orElseThrow()).isLessThanOrEqualTo(r.rss().orElseThrow()).isGreaterThanOrEqualTo(r.uss().orElseThrow());
    }

    @Test
    void missingFieldsReadAsEmpty() {
        SmapsRollup r = SmapsRollup.parse("Rss: 100 kB\nPss: 50 kB\nPrivate_Dirty: 10 kB\n");
        assertThat(r.rss()).hasValue(102400);
        assertThat(r.uss()).as("Private_Clean is missing").isEmpty();
        assertThat(r.shared()).isEmpty();
        assertThat(r.swap()).isEmpty();
        assertThat(r.get("Private_Dirty")).hasValue(10240);
    }

    @Test
    void garbledLinesAreLeftOut() {
        SmapsRollup r = SmapsRollup.parse("""
                Rss:        12 kB
                Pss:        -5 kB
                Private_Clean: lots kB
                Private_Dirty: 99999999999999999999 kB
                Shared_Clean: 4 MB
                Shared_Dirty: 8
                Swap:       1 kB extra
                """);
        assertThat(r.values()).containsOnlyKeys("Rss");
    }

    @Test
    void textThatIsNotSmapsRollupIsGarbage() {
        assertThatThrownBy(() -> SmapsRollup.parse("")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> SmapsRollup.parse("\u0000\u0001binary junk")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> SmapsRollup.parse("MemTotal: 100 kB\nVmRSS: 5 kB\n"))
                .isInstanceOf(GarbageException.class).hasMessageContaining("no Rss or Pss").hasMessageContaining("MemTotal");
    }
}
