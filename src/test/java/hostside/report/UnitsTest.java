package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.core.Stats;
import hostside.core.Table;
import hostside.core.Unit;
import hostside.core.Units;

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
    void threeSignificantFiguresAndOneUnitPerKindForHeadlines() {
        assertThat(Units.sig3(55.33)).isEqualTo("55.3");
        assertThat(Units.sig3(0.17304)).isEqualTo("0.173");
        assertThat(Units.sig3(1189.13)).isEqualTo("1190");
        assertThat(Units.sig3(140.0)).isEqualTo("140");
        assertThat(Units.sig3(100.0)).isEqualTo("100");
        assertThat(Units.sig3(7.96)).isEqualTo("7.96");
        assertThat(Units.sig3(0)).isEqualTo("0");
        // a latency measured in ns is shown in us, as every latency on page one
        assertThat(Headlines.headline(new Stats(1189.13, 1182.91, 1193.72, 5), Unit.NS)).isEqualTo("1.19 us (1.18-1.19)");
        assertThat(Headlines.headline(new Stats(55.33, 54.90, 55.43, 5), Unit.GB_PER_S)).isEqualTo("55.3 GB/s (54.9-55.4)");
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
