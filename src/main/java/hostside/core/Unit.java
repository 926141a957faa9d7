package hostside.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The units figures are given in, as the field writes them: GB/s are 10^9 bytes a second,
 * latencies in ns or us. A figure's unit says which way it is better unless the test case says
 * otherwise (a growth in percent is bad, a share of huge pages good).
 */
public enum Unit {
    GB_PER_S("GB/s", Better.HIGHER),
    IOPS("IOPS", Better.HIGHER),
    NS("ns", Better.LOWER),
    US("us", Better.LOWER),
    MS("ms", Better.LOWER),
    S("s", Better.LOWER),
    MS_PER_GIB("ms/GiB", Better.LOWER),
    PERCENT("%", Better.LOWER),
    BYTES("bytes", Better.LOWER),
    COUNT("count", Better.LOWER);

    public final String symbol;
    /** The usual direction for this unit; a test case may say otherwise. */
    public final Better usually;

    Unit(String symbol, Better usually) {
        this.symbol = symbol;
        this.usually = usually;
    }

    @JsonValue
    public String symbol() {
        return symbol;
    }

    @JsonCreator
    public static Unit of(String symbol) {
        for (Unit u : values()) if (u.symbol.equals(symbol)) return u;
        throw new IllegalArgumentException("\"" + symbol + "\" is not a unit hostside writes");
    }

    @Override
    public String toString() {
        return symbol;
    }
}
