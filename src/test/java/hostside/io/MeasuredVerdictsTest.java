package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.harness.Result;
import hostside.core.Stats;

class MeasuredVerdictsTest {
    static Result gbs(String key, double v) {
        return key.startsWith("write") ? IoResults.write(key, v) : IoResults.read(key, v);
    }

    @Test
    void theLoaderVerdictNamesTheFastestPath() {
        String ring = MeasuredVerdicts.loader(List.of(gbs("seq_read_cold_qd1", 1.7), gbs("seq_read_direct_qd1", 2.1), gbs("seq_read_direct_uring_qd32", 6.2))).orElseThrow();
        assertThat(ring).startsWith("Loading a checkpoint (sequential 1 MiB reads): 1.70 GB/s through the page cache cold, 2.10 GB/s with O_DIRECT one read at a time,"
                + " 6.20 GB/s with O_DIRECT and 32 reads in flight (io_uring)").contains("keep many reads in flight").contains("(3.6x the page cache)");
        String cache = MeasuredVerdicts.loader(List.of(gbs("seq_read_cold_qd1", 4.3), gbs("seq_read_direct_qd1", 1.9), gbs("seq_read_direct_uring_qd32", 1.7))).orElseThrow();
        assertThat(cache).endsWith("plain buffered reads (torch.load, safetensors) are fine");
        String direct = MeasuredVerdicts.loader(List.of(gbs("seq_read_cold_qd1", 1.0), gbs("seq_read_direct_qd1", 2.0), gbs("seq_read_direct_uring_qd32", 1.9))).orElseThrow();
        assertThat(direct).endsWith("more requests in flight do not help this device");
        String close = MeasuredVerdicts.loader(List.of(gbs("seq_read_cold_qd1", 1.0), gbs("seq_read_direct_qd1", 0.9), gbs("seq_read_direct_uring_qd32", 1.1))).orElseThrow();
        assertThat(close).endsWith("choose by memory, not speed");
        assertThat(MeasuredVerdicts.loader(List.of())).isEmpty();
    }

    @Test
    void warmReadsCountThePageCacheTheyHold() {
        String s = MeasuredVerdicts.warm(List.of(IoResults.read("seq_read_warm_qd1", Stats.of(18.0), null, 2L << 30), gbs("seq_read_cold_qd1", 4.5))).orElseThrow();
        assertThat(s).startsWith("Read again while still cached, the same file comes at 18.00 GB/s (4.0x the cold read) and holds 2 GiB of page cache");
    }

    @Test
    void randomReadsSayWhetherDepthHelps() {
        Result one = IoResults.read("rand_read_direct_qd1", Stats.of(13_000), IoResults.latency(70.0, 150.0, 900.0), null);
        assertThat(MeasuredVerdicts.random(List.of(one, IoResults.read("rand_read_direct_uring_qd32", 130_000)))).get().asString()
                .isEqualTo("Small random reads (a dataset of 4 KiB samples): 13,000 IOPS one at a time (70 us each at p50), 130,000 IOPS with 32 in flight (10.0x):"
                        + " a loader of small samples needs many reads in flight: more DataLoader workers, or batched async reads");
        assertThat(MeasuredVerdicts.random(List.of(one, IoResults.read("rand_read_direct_uring_qd32", 15_000)))).get().asString()
                .endsWith("this device does not gain from a deeper queue");
    }

    @Test
    void savingSaysHowLongTenGigabytesTake() {
        assertThat(MeasuredVerdicts.save(List.of(gbs("write_buffered", 4.75), gbs("write_fsync", 1.25)))).get().asString()
                .startsWith("Saving a checkpoint: 4.75 GB/s into the page cache, 1.25 GB/s with fsync, so 10 GB take 8 s to be safe on disk");
        assertThat(MeasuredVerdicts.save(List.of(Result.failed(IoResults.test("write_fsync"), "boom")))).isEmpty();
    }
}
