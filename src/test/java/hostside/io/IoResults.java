package hostside.io;

import java.nio.file.Path;
import java.util.List;

import hostside.core.Distribution;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.io.measure.IoTarget;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;

/** Measured I/O results built by hand, with the typed details and the fio jobs a run gives them. */
public final class IoResults {
    private IoResults() {}

    /** The file every hand-built result read: 2 GiB in /data, 1 GiB written per sample. */
    public static final String FILE = "/data/hostside-io-1.tmp";
    public static final IoTarget TARGET = new IoTarget(Path.of("/data"), "xfs", () -> Path.of(FILE), 2L << 30, 1L << 30, 4096, 1_000_000_000L, null, null, null);

    public static TestCase<IoTarget> test(String key) {
        return IoDrill.tests().stream().filter(t -> t.key().equals(key)).findFirst().orElseThrow(() -> new IllegalArgumentException(key));
    }

    /** p50, p99 and max in us over 1000 requests; p99.9 halfway between p99 and max. */
    public static Distribution latency(double p50, double p99, double max) {
        return new Distribution(Unit.US, 1000, p50, p99, (p99 + max) / 2, max, List.of());
    }

    /** A read in its unit (GB/s sequential, IOPS random), with its latency and the page cache it left (null: none). */
    public static Result read(String key, Stats value, Distribution latency, Long pageCacheBytes) {
        ReadTest t = (ReadTest) test(key);
        ReadTest.ReadDetail d = new ReadTest.ReadDetail(FILE, TARGET.fileBytes(), t.block(), t.depth(),
                t.engine() == ReadTest.Engine.IO_URING ? "io_uring" : "psync", latency, t.cache() == ReadTest.Cache.COLD ? 0.0 : null, pageCacheBytes, null, null, null, null);
        return Result.ok(t, t.pattern() == ReadTest.Pattern.SEQUENTIAL ? Unit.GB_PER_S : Unit.IOPS, value, "hand-built", "fio " + t.fioOptions(TARGET), d);
    }

    public static Result read(String key, double median) {
        return read(key, Stats.of(median), null, null);
    }

    /** A write in GB/s; {@code fsyncMs} null for the buffered one. */
    public static Result write(String key, Stats value, Stats fsyncMs) {
        WriteTest t = (WriteTest) test(key);
        return Result.ok(t, Unit.GB_PER_S, value, "hand-built", t.fio(TARGET), new WriteTest.WriteDetail(TARGET.writeBytes(), 1 << 20, fsyncMs, null));
    }

    public static Result write(String key, double median) {
        WriteTest t = (WriteTest) test(key);
        return write(key, Stats.of(median), t.fsync() ? Stats.of(400) : null);
    }
}
