package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import picocli.CommandLine.TypeConversionException;

/** The one syntax of every size option (vm --size, io --size, cpu --dataset-size, ...): binary units, as fio, dd and free read them. */
class ByteSizeTest {
    @Test
    void plainNumbersAreBytes() {
        assertThat(ByteSize.parse("4096")).isEqualTo(4096L);
        assertThat(ByteSize.parse("1")).isEqualTo(1L);
        assertThat(ByteSize.parse(" 8192 ")).isEqualTo(8192L);
    }

    @Test
    void lettersAreBinaryUnits() {
        assertThat(ByteSize.parse("64K")).isEqualTo(64L << 10);
        assertThat(ByteSize.parse("512M")).isEqualTo(512L << 20);
        assertThat(ByteSize.parse("1G")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("2T")).isEqualTo(2L << 40);
        assertThat(ByteSize.parse("1GiB")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("64KiB")).isEqualTo(64L << 10);
        assertThat(ByteSize.parse("3MB")).as("MB is read as MiB, as dd's M").isEqualTo(3L << 20);
        assertThat(ByteSize.parse("100B")).isEqualTo(100L);
    }

    @Test
    void lowerCaseIsTheSame() {
        assertThat(ByteSize.parse("64k")).isEqualTo(64L << 10);
        assertThat(ByteSize.parse("512m")).isEqualTo(512L << 20);
        assertThat(ByteSize.parse("1g")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("1gib")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("2t")).isEqualTo(2L << 40);
    }

    @Test
    void badStringsSayWhatASizeLooksLike() {
        for (String bad : new String[] {"", "   ", "garbage", "G", "GiB", "B", "1.5.5G", "1.G", ".G", "1,5G", "1e3", "+1G", "1X", "0x10", "12 34", "1G2", "M1"}) {
            assertThatThrownBy(() -> ByteSize.parse(bad)).as("\"%s\"", bad).isInstanceOf(TypeConversionException.class)
                    .hasMessageContaining("is not a size");
        }
    }

    @Test
    void decimalsWithAUnitAreTakenRoundedDownToAByte() {
        assertThat(ByteSize.parse("1.5G")).isEqualTo(3L << 29);
        assertThat(ByteSize.parse("0.5T")).isEqualTo(1L << 39);
        assertThat(ByteSize.parse(".25M")).isEqualTo(256L << 10);
        assertThat(ByteSize.parse("1.5GiB")).isEqualTo(3L << 29);
        assertThat(ByteSize.parse("2.5 k")).isEqualTo(2560L);
        assertThat(ByteSize.parse("1.1K")).as("1126.4 bytes").isEqualTo(1126L);
        assertThat(ByteSize.parse("2.000")).as("no fraction left").isEqualTo(2L);
    }

    @Test
    void aFractionOfAByteIsRefused() {
        assertThatThrownBy(() -> ByteSize.parse("1.5")).isInstanceOf(TypeConversionException.class).hasMessageContaining("a fraction needs a unit");
        assertThatThrownBy(() -> ByteSize.parse("0.0001K")).isInstanceOf(TypeConversionException.class).hasMessageContaining("larger than zero");
    }

    @Test
    void zeroAndNegativeAreRefused() {
        for (String bad : new String[] {"0", "0M", "0G", "0.0G", "-1", "-64K", "-1.5G"}) {
            assertThatThrownBy(() -> ByteSize.parse(bad)).as(bad).isInstanceOf(TypeConversionException.class)
                    .hasMessageContaining("must be larger than zero");
        }
    }

    @Test
    void sizesPastALongAreRefusedNotWrapped() {
        // 2^23 TiB is 2^63 bytes, one past Long.MAX_VALUE; one less fits
        assertThat(ByteSize.parse("8388607T")).isEqualTo(8388607L << 40).isPositive();
        assertThatThrownBy(() -> ByteSize.parse("8388608T")).isInstanceOf(TypeConversionException.class).hasMessageContaining("too large");
        assertThatThrownBy(() -> ByteSize.parse("9007199254740992K")).isInstanceOf(TypeConversionException.class).hasMessageContaining("too large");
        assertThat(ByteSize.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        // more digits than a long holds: refused as well (not a wrapped number)
        assertThatThrownBy(() -> ByteSize.parse("99999999999999999999")).isInstanceOf(TypeConversionException.class);
    }

    @Test
    void theConverterIsTheParser() {
        assertThat(new ByteSize().convert("64M")).isEqualTo(64L << 20);
    }
}
