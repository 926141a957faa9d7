package hostside.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A size on the command line, the one syntax of every size option: "4096", "64K", "512M", "1.5G", "0.5T", "2GiB",
 * "1GB". The letters are binary units (K = KiB), as in fio, dd and free; a fraction needs a unit (there is no half
 * byte) and is rounded down to a whole byte.
 */
public final class ByteSize implements ITypeConverter<Long> {
    /** A number with at most one decimal point, then an optional unit letter and an optional B or iB. */
    private static final Pattern SIZE = Pattern.compile("(-?\\d+(?:\\.\\d+)?|-?\\.\\d+)\\s*(?:([KMGTP])(?:I?B)?|B)?");

    @Override
    public Long convert(String value) {
        return parse(value);
    }

    public static long parse(String value) {
        Matcher m = SIZE.matcher(value.strip().toUpperCase(Locale.ROOT));
        if (!m.matches()) throw new TypeConversionException(notASize(value));
        String unit = m.group(2);
        int shift = unit == null ? 0 : 10 * ("KMGTP".indexOf(unit.charAt(0)) + 1);
        BigDecimal number = new BigDecimal(m.group(1));
        if (shift == 0 && number.stripTrailingZeros().scale() > 0) throw new TypeConversionException(notASize(value) + ": a fraction needs a unit");
        BigDecimal bytes = number.multiply(BigDecimal.valueOf(2).pow(shift)).setScale(0, RoundingMode.DOWN);
        if (bytes.signum() <= 0) throw new TypeConversionException("\"" + value + "\" must be larger than zero");
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) throw new TypeConversionException("\"" + value + "\" is too large");
        return bytes.longValueExact();
    }

    private static String notASize(String value) {
        return "\"" + value + "\" is not a size (a number and K, M, G or T, binary units: e.g. 512M, 1.5G, 2GiB)";
    }
}
