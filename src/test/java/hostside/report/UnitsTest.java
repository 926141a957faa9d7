package hostside.report;

import hostside.core.Units;

import hostside.core.Table;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnitsTest {
    @Test
    void binarySizes() {
        assertThat(Units.bytes(512L)).isEqualTo("512 bytes");
        assertThat(Units.bytes(4096L)).isEqualTo("4 KiB");
        assertThat(Units.bytes(1536L)).isEqualTo("1.5 KiB");
        assertThat(Units.bytes(6515664L * 1024)).isEqualTo("6.2 GiB");
        assertThat(Units.bytes((16L << 30) - 1000)).isEqualTo("16 GiB");
        assertThat(Units.bytes(null)).isEqualTo("unknown");
    }

    @Test
    void decimalBandwidth() {
        assertThat(Units.gbps(55.314)).isEqualTo("55.3 GB/s");
    }

    @Test
    void tablesAlignAndIgnoreColour() {
        String t = new Table("a", "figure").right(1).row("long name", "1.5").row("x", "\u001b[31m123.25\u001b[0m").render("");
        assertThat(t.lines().toList()).containsExactly("a          figure", "long name     1.5", "x          \u001b[31m123.25\u001b[0m");
    }
}
