package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.core.Unit;

/** Plot values by unit: the words a tick label, a table cell and a tooltip share. */
class AxisFormatTest {
    @Test
    void bytesInBinaryUnits() {
        assertThat(AxisFormat.value(4096, Unit.BYTES)).isEqualTo("4 KiB");
        assertThat(AxisFormat.value(1 << 20, Unit.BYTES)).isEqualTo("1 MiB");
        assertThat(AxisFormat.value(1L << 30, Unit.BYTES)).isEqualTo("1 GiB");
        assertThat(AxisFormat.value(1536, Unit.BYTES)).isEqualTo("1.5 KiB");
        assertThat(AxisFormat.value(512, Unit.BYTES)).isEqualTo("512 bytes");
    }

    @Test
    void bandwidthWithOneDecimal() {
        assertThat(AxisFormat.value(52.14, Unit.GB_PER_S)).isEqualTo("52.1 GB/s");
        assertThat(AxisFormat.value(0, Unit.GB_PER_S)).isEqualTo("0.0 GB/s");
    }

    @Test
    void timesAsNumbersWithTheirUnit() {
        assertThat(AxisFormat.value(850, Unit.NS)).isEqualTo("850 ns");
        assertThat(AxisFormat.value(1.25, Unit.US)).isEqualTo("1.25 us");
        assertThat(AxisFormat.value(2.5, Unit.MS)).isEqualTo("2.5 ms");
        assertThat(AxisFormat.value(0.005, Unit.MS)).isEqualTo("0.005 ms");
        assertThat(AxisFormat.value(12, Unit.US)).isEqualTo("12 us");
    }

    @Test
    void countsAndPercents() {
        assertThat(AxisFormat.value(5200, Unit.COUNT)).isEqualTo("5200");
        assertThat(AxisFormat.value(99.5, Unit.PERCENT)).isEqualTo("99.5%");
    }

    @Test
    void numbersLoseTrailingZerosAndNeverReadMinusZero() {
        assertThat(AxisFormat.number(0.30000000000000004)).isEqualTo("0.3");
        assertThat(AxisFormat.number(20.0)).isEqualTo("20");
        assertThat(AxisFormat.number(-0.0)).isEqualTo("0");
        assertThat(AxisFormat.number(0.01234)).isEqualTo("0.0123");
        assertThat(AxisFormat.number(1234.6)).isEqualTo("1235");
        assertThat(AxisFormat.number(Double.NaN)).isEqualTo("n/a");
    }

    @Test
    void rangesWriteASharedUnitOnce() {
        assertThat(AxisFormat.range(11.94, 12.51, Unit.GB_PER_S)).isEqualTo("11.9..12.5 GB/s");
        assertThat(AxisFormat.range(512 * 1024, 1 << 20, Unit.BYTES)).isEqualTo("512 KiB..1 MiB");
        assertThat(AxisFormat.range(1, 2, Unit.US)).isEqualTo("1..2 us");
        assertThat(AxisFormat.range(10, 20, Unit.COUNT)).isEqualTo("10..20");
        assertThat(AxisFormat.range(10, 20, Unit.PERCENT)).isEqualTo("10..20%");
    }
}
