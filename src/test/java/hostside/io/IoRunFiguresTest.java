package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Better;
import hostside.core.Distribution;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.machine.Host;

/** The typed figures of a hand-built run: keys, the folder they are about, units, which way is better, values. */
class IoRunFiguresTest {
    static final Host HOST = new Host("box", "6.8", "x86_64", "none detected", "", null, "live");

    static IoRun run(List<Result> results) {
        return new IoRun(HOST, null, List.of(), new IoRun.FileUsed(IoResults.FILE, 2L << 30, "xfs", true), results, List.of());
    }

    @Test
    void eachResultAndTheFiguresItsDetailHolds() {
        IoRun run = run(List.of(
                IoResults.read("seq_read_cold_qd1", new Stats(1.65, 1.59, 1.76, 5), IoResults.latency(136.0, 8118.0, 8855.0), 1L << 30),
                IoResults.read("rand_read_direct_uring_qd32", new Stats(80_000, 78_000, 81_000, 5), IoResults.latency(390.0, 900.0, 2000.0), null),
                Result.notRun(IoResults.test("seq_read_direct_qd1"), "the file is on tmpfs"),
                IoResults.write("write_buffered", new Stats(5.0, 4.5, 5.5, 3), null),
                IoResults.write("write_fsync", new Stats(1.66, 1.6, 1.7, 3), new Stats(420, 400, 450, 3))));
        List<Figure> f = run.figures();
        assertThat(f).extracting(Figure::key).containsExactly(
                "seq_read_cold_qd1", "seq_read_cold_qd1_iops", "seq_read_cold_qd1_p50", "seq_read_cold_qd1_p99", "seq_read_cold_qd1_page_cache",
                "rand_read_direct_uring_qd32", "rand_read_direct_uring_qd32_gbps", "rand_read_direct_uring_qd32_p50", "rand_read_direct_uring_qd32_p99",
                "write_buffered", "write_fsync", "write_fsync_fsync");
        assertThat(f).extracting(Figure::scope).containsOnly(Scope.dir("/data"));
        assertThat(f).extracting(Figure::unit).containsExactly(Unit.GB_PER_S, Unit.IOPS, Unit.US, Unit.US, Unit.BYTES,
                Unit.IOPS, Unit.GB_PER_S, Unit.US, Unit.US, Unit.GB_PER_S, Unit.GB_PER_S, Unit.MS);
        assertThat(f).extracting(Figure::better).containsExactly(Better.HIGHER, Better.HIGHER, Better.LOWER, Better.LOWER, Better.LOWER,
                Better.HIGHER, Better.HIGHER, Better.LOWER, Better.LOWER, Better.HIGHER, Better.HIGHER, Better.LOWER);

        Figure cold = f.get(0), iops = f.get(1), p99 = f.get(3), cache = f.get(4);
        assertThat(cold.value()).isEqualTo(1.65);
        assertThat(cold.min()).isEqualTo(1.59);
        assertThat(cold.samples()).isEqualTo(5);
        assertThat(cold.anchor()).isEqualTo("fio --rw=read --bs=1M --size=2147483648 --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --fadvise_hint=0 --iomem=mmap --io_size=268435456");
        assertThat(iops.value()).as("1 MiB a request").isCloseTo(1.65e9 / (1 << 20), within(1e-6));
        assertThat(iops.max()).isCloseTo(1.76e9 / (1 << 20), within(1e-6));
        assertThat(iops.anchor()).as("the same fio job counts both").isEqualTo(cold.anchor());
        assertThat(p99.value()).isEqualTo(8118.0);
        assertThat(p99.samples()).as("the requests timed").isEqualTo(1000);
        assertThat(cache.value()).isEqualTo(1L << 30);
        assertThat(f.get(6).value()).as("4 KiB a request").isCloseTo(80_000 * 4096 / 1e9, within(1e-9));
        Figure fsync = f.get(11);
        assertThat(fsync.value()).isEqualTo(420);
        assertThat(fsync.min()).isEqualTo(400);
        assertThat(fsync.max()).isEqualTo(450);
        assertThat(fsync.samples()).isEqualTo(3);
    }

    @Test
    void theJsonListsTheSameFigures() {
        IoRun run = run(List.of(IoResults.write("write_fsync", new Stats(1.66, 1.6, 1.7, 3), new Stats(420, 400, 450, 3))));
        JsonNode figures = run.json().path("figures");
        assertThat(figures).hasSize(2);
        assertThat(figures.get(0).path("key").asText()).isEqualTo("write_fsync");
        assertThat(figures.get(0).path("scope").asText()).isEqualTo("dir:/data");
        assertThat(figures.get(0).path("unit").asText()).isEqualTo("GB/s");
        assertThat(figures.get(0).path("better").asText()).isEqualTo("higher");
        assertThat(figures.get(1).path("key").asText()).isEqualTo("write_fsync_fsync");
        assertThat(figures.get(1).path("unit").asText()).isEqualTo("ms");
        assertThat(figures.get(1).path("value").asDouble()).isEqualTo(420.0);
        assertThat(run.json().path("results").get(0).has("figures")).isFalse();
    }

    @Test
    void nothingMeasuredNoFigures() {
        IoRun none = new IoRun(HOST, null, List.of(), null, IoDrill.notRun(IoDrill.tests(), "recorded machine"), List.of());
        assertThat(none.figures()).isEmpty();
        assertThat(none.json().path("figures").isArray()).isTrue();
        assertThat(none.json().path("figures")).isEmpty();
    }

    @Test
    void aLatencyWithoutACountGivesNoQuantileFigures() {
        var old = new Distribution(Unit.US, 0, 30.9, 58.8, 720.4, 720.4, List.of());
        List<String> keys = run(List.of(IoResults.read("rand_read_direct_qd1", new Stats(30_461, 28_992, 35_463, 5), old, null)))
                .figures().stream().map(Figure::key).toList();
        assertThat(keys).containsExactly("rand_read_direct_qd1", "rand_read_direct_qd1_gbps");
    }
}
