package hostside.core;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The units figures are given in, as the field writes them: GB/s are 10^9 bytes a second,
 * latencies in ns or us, sizes in bytes or binary units (KiB is 2^10 bytes). A figure's unit says
 * which way it is better unless the test case says otherwise (a growth in percent is bad, a share
 * of huge pages good). The one unit type of hostside: figures carry it, plot axes are drawn in it,
 * the course's quantities are quoted in it, and a value moves between two units of one
 * {@link Dimension} only through {@link #convert}, so no factor of 1e3 or 2^30 is written twice.
 */
public enum Unit {
    GB_PER_S("GB/s", Better.HIGHER, Dimension.RATE, 1),
    /** 10^9 bits a second, as NICs and their links are rated: an eighth of a GB/s. */
    GBIT_PER_S("Gb/s", Better.HIGHER, Dimension.RATE, 0.125),
    IOPS("IOPS", Better.HIGHER, Dimension.OPERATIONS, 1),
    NS("ns", Better.LOWER, Dimension.TIME, 1),
    US("us", Better.LOWER, Dimension.TIME, 1e3),
    MS("ms", Better.LOWER, Dimension.TIME, 1e6),
    S("s", Better.LOWER, Dimension.TIME, 1e9),
    MS_PER_GIB("ms/GiB", Better.LOWER, Dimension.TIME_PER_SIZE, 1),
    PERCENT("%", Better.LOWER, Dimension.SHARE, 1),
    BYTES("bytes", Better.LOWER, Dimension.SIZE, 1),
    KIB("KiB", Better.LOWER, Dimension.SIZE, 1L << 10),
    MIB("MiB", Better.LOWER, Dimension.SIZE, 1L << 20),
    GIB("GiB", Better.LOWER, Dimension.SIZE, 1L << 30),
    TIB("TiB", Better.LOWER, Dimension.SIZE, 1L << 40),
    COUNT("count", Better.LOWER, Dimension.COUNT, 1);

    /** What a unit measures: two units convert into each other only within one. */
    public enum Dimension { RATE, OPERATIONS, TIME, TIME_PER_SIZE, SHARE, SIZE, COUNT }

    public final String symbol;
    /** The usual direction for this unit; a test case may say otherwise. */
    public final Better usually;
    public final Dimension dimension;
    /** How many of its dimension's smallest unit (ns, bytes) one of this is. */
    private final double factor;

    Unit(String symbol, Better usually, Dimension dimension, double factor) {
        this.symbol = symbol;
        this.usually = usually;
        this.dimension = dimension;
        this.factor = factor;
    }

    /** Whether a value in this unit can be written in {@code other}: the same dimension (ns and ms, bytes and GiB). */
    public boolean convertsTo(Unit other) {
        return dimension == other.dimension;
    }

    /** {@code value} of this unit in {@code to}: 1500 ns is 1.5 us, 2^30 bytes 1 GiB; refused across dimensions. */
    public double convert(double value, Unit to) {
        if (!convertsTo(to)) throw new IllegalArgumentException(symbol + " does not convert to " + to.symbol);
        return to == this ? value : value * factor / to.factor;
    }

    /**
     * The binary unit {@link Units#bytes} writes {@code bytes} in: the largest whose value is at
     * least 1 (bytes below 1 KiB), up to TiB.
     */
    public static Unit binary(long bytes) {
        Unit best = BYTES;
        for (Unit u : List.of(KIB, MIB, GIB, TIB)) if (Math.abs((double) bytes) >= u.factor) best = u;
        return best;
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

    /**
     * Beyond anything one machine measures in any unit hostside writes (a petabyte, a PB/s, eleven
     * days in ns): a figure past it is no measurement, and keeping figures under it keeps every
     * difference and ratio that compare takes of them finite.
     */
    public static final double MOST = 1e15;

    /**
     * Finer than anything measured in any of these units (a byte a second is 1e-9 GB/s, a
     * nanosecond 1e-9 s): a figure that is not 0 is at least this far from it, which keeps every
     * ratio compare takes of two figures (at most 10^24) finite.
     */
    public static final double FINEST = 1e-9;

    /**
     * The least value a figure in this unit can take: no bandwidth, rate, time, size or count is
     * negative; a percentage is a share (0 to 100) or a growth, and nothing shrinks by more than all of it.
     */
    public double least() {
        return this == PERCENT ? -100 : 0;
    }

    /**
     * Whether a figure in this unit may be 0: all but a bandwidth and a rate may. A bandwidth or a
     * rate is what moved over the time it took, and a case that moved nothing fails rather than
     * writing 0; the pages divide by them (100 GB at 0 GB/s is Infinity seconds). A time may be 0:
     * two reads of a coarse clock can agree (Ticker clamps a wake-up's lateness at 0, and a
     * syscall's kernel share is one median less another), as a count, a share and a size may.
     */
    public boolean mayBeZero() {
        return dimension != Dimension.RATE && this != IOPS;
    }

    @Override
    public String toString() {
        return symbol;
    }
}
