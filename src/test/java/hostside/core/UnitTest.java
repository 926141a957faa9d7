package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UnitTest {
    @Test
    void convertsWithinADimension() {
        assertThat(Unit.NS.convert(1500, Unit.US)).isEqualTo(1.5);
        assertThat(Unit.MS.convert(2, Unit.NS)).isEqualTo(2e6);
        assertThat(Unit.BYTES.convert(1L << 30, Unit.GIB)).isEqualTo(1.0);
        assertThat(Unit.GIB.convert(2, Unit.MIB)).isEqualTo(2048.0);
        assertThat(Unit.GBIT_PER_S.convert(400, Unit.GB_PER_S)).as("a 400 Gb/s NIC moves 50 GB/s").isEqualTo(50.0);
        assertThat(Unit.US.convert(7, Unit.US)).isEqualTo(7.0);
    }

    @Test
    void refusesAcrossDimensions() {
        assertThat(Unit.NS.convertsTo(Unit.BYTES)).isFalse();
        assertThat(Unit.MS.convertsTo(Unit.MS_PER_GIB)).as("a time per GiB is no time").isFalse();
        assertThatThrownBy(() -> Unit.NS.convert(1, Unit.GB_PER_S)).hasMessageContaining("ns does not convert to GB/s");
    }

    @Test
    void binaryUnitIsTheOneUnitsBytesWrites() {
        assertThat(Unit.binary(512)).isEqualTo(Unit.BYTES);
        assertThat(Unit.binary(1024)).isEqualTo(Unit.KIB);
        assertThat(Unit.binary(6L << 20)).isEqualTo(Unit.MIB);
        assertThat(Unit.binary(3L << 40)).isEqualTo(Unit.TIB);
        for (long b : new long[] {4096, 2L << 20, 6L << 30, 1536L << 10}) {
            Unit u = Unit.binary(b);
            assertThat(Units.bytes(b)).endsWith(" " + u.symbol);
        }
    }

    @Test
    void readsBackEverySymbolItWrites() {
        for (Unit u : Unit.values()) assertThat(Unit.of(u.symbol)).isEqualTo(u);
        assertThatThrownBy(() -> Unit.of("furlongs")).hasMessageContaining("not a unit hostside writes");
    }
}
