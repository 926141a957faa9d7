package hostside.cli;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A size on the command line: "4096", "64K", "512M", "1G", "1GiB", "2T"; the letters are binary
 * units (K = KiB), as in fio, dd and free.
 */
public final class ByteSize implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        return parse(value);
    }

    public static long parse(String value) {
        String v = value.strip().toUpperCase(Locale.ROOT).replace("IB", "").replace("B", "");
        if (v.isEmpty()) throw new TypeConversionException("\"" + value + "\" is not a size (e.g. 512M, 1G)");
        int shift = switch (v.charAt(v.length() - 1)) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            case 'T' -> 40;
            default -> 0;
        };
        String digits = shift == 0 ? v : v.substring(0, v.length() - 1);
        try {
            long n = Long.parseLong(digits.strip());
            if (n <= 0) throw new TypeConversionException("\"" + value + "\" must be larger than zero");
            if (n > (Long.MAX_VALUE >> shift)) throw new TypeConversionException("\"" + value + "\" is too large");
            return n << shift;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("\"" + value + "\" is not a size (e.g. 512M, 1G)");
        }
    }
}
