package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.GarbageException;

class CpuSetTest {
    @Test
    void parsesTheKernelListSpelling() {
        assertThat(CpuSet.parseList("0-7,16-23").size()).isEqualTo(16);
        assertThat(CpuSet.parseList("0-7,16-23").toList()).isEqualTo("0-7,16-23");
        assertThat(CpuSet.parseList(" 3 \n").toList()).isEqualTo("3");
        assertThat(CpuSet.parseList("").isEmpty()).isTrue();
        assertThat(CpuSet.parseList("0-8:2").toList()).isEqualTo("0,2,4,6,8");
        assertThat(CpuSet.parseList("5,1,2,3").toList()).isEqualTo("1-3,5");
    }

    @Test
    void aStrideNear2To31IsOneStepNotAWrappedNegativeCpu() {
        // issue 36: the loop's int passed hi, wrapped negative and BitSet threw (a trace for a recording's cpulist)
        assertThat(CpuSet.parseList("1-5:2147483647").toList()).isEqualTo("1");
        assertThat(CpuSet.parseList("0-1048576:2147483000").toList()).isEqualTo("0");
    }

    @Test
    void parsesMasksOf32BitWordsMostSignificantFirst() {
        assertThat(CpuSet.parseMask("ffff").toList()).isEqualTo("0-15");
        assertThat(CpuSet.parseMask("00000000,0000ff00").toList()).isEqualTo("8-15");
        assertThat(CpuSet.parseMask("00000001,00000000").toList()).isEqualTo("32");
        assertThat(CpuSet.parseMask("0x00000fff").toList()).isEqualTo("0-11");
        assertThat(CpuSet.parseMask("00000000,00000000").isEmpty()).isTrue();
    }

    @Test
    void strayBytesAfterTheValueAreNotPartOfIt() {
        // hwloc reads the list or mask and stops at what is not part of it
        assertThat(CpuSet.parseList("0-63\n\u0000\u0000\u0000").toList()).isEqualTo("0-63");
        assertThat(CpuSet.parseList("0-3,8\u0001\u00ff").toList()).isEqualTo("0-3,8");
        assertThat(CpuSet.parseMask("0000ffff,00000000\u0000\u0000").toList()).isEqualTo("32-47");
        assertThat(CpuSet.parseMask("f\n\u0000garbage").toList()).isEqualTo("0-3");
        assertThat(CpuSet.sysfsValue("32768K\n\u0000\ufffd")).isEqualTo("32768K");
        // stray bytes before any value are garbage
        assertThatThrownBy(() -> CpuSet.parseList("\u0000\u0001garbage")).isInstanceOf(GarbageException.class);
        // a file holding nothing but NULs is empty, NULs between values (environ) stay
        assertThat(new Read.Ok("/x", "\u0000\u0000\n").trimmed()).contains("");
        assertThat(new Read.Ok("/x", "3\n\u0000\u0000").trimmed()).contains("3");
        assertThat(new Read.Ok("/x", "A=1\u0000B=2\u0000").trimmed()).contains("A=1\u0000B=2");
    }

    @Test
    void garbageIsAnErrorWithTheText() {
        assertThatThrownBy(() -> CpuSet.parseList("0-")).isInstanceOf(GarbageException.class).hasMessageContaining("0-");
        assertThatThrownBy(() -> CpuSet.parseList("7-3")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> CpuSet.parseList("zz")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> CpuSet.parseList("0-4294967295")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> CpuSet.parseMask("ffzz")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> CpuSet.parseMask("")).isInstanceOf(GarbageException.class);
    }

    @Test
    void setAlgebra() {
        CpuSet a = CpuSet.parseList("0-7"), b = CpuSet.parseList("4-11");
        assertThat(a.and(b).toList()).isEqualTo("4-7");
        assertThat(a.or(b).toList()).isEqualTo("0-11");
        assertThat(a.andNot(b).toList()).isEqualTo("0-3");
        assertThat(a.containsAll(CpuSet.of(1, 2))).isTrue();
        assertThat(a.containsAll(b)).isFalse();
    }

    @Test
    void naturalOrderPutsNumbersInNumericOrder() {
        var names = new java.util.ArrayList<>(java.util.List.of("node250", "cpu10", "node8", "cpu2", "cpu1"));
        names.sort(FsRoot.NATURAL);
        assertThat(names).containsExactly("cpu1", "cpu2", "cpu10", "node8", "node250");
    }
}
