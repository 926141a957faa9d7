package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.harness.Result;
import hostside.core.Stats;
import hostside.machine.Host;
import hostside.core.Style;

class IoViewTest {
    @Test
    void theTableShowsBothUnitsLatencyAndWhatWasNotRun() {
        Result seq = IoResults.read("seq_read_warm_qd1", new Stats(18.17, 17.18, 19.13, 5), IoResults.latency(45.1, 254.0, 900.0), 256L << 20);
        Result rand = IoResults.read("rand_read_direct_uring_qd32", new Stats(131_868, 78_757, 138_369, 5), IoResults.latency(209.0, 931.0, 2000.0), null);
        Result no = Result.notRun(new hostside.io.measure.ReadTest(hostside.io.measure.ReadTest.Pattern.SEQUENTIAL,
                hostside.io.measure.ReadTest.Cache.COLD, hostside.io.measure.ReadTest.Engine.PSYNC, 1), "the file is on tmpfs");
        IoRun run = new IoRun(new Host("box", "6.8", "x86_64", "none detected", "", "live"), null, List.of(),
                new IoRun.FileUsed("/data/f", 2L << 30, "xfs", true), List.of(no, seq, rand), List.of("a verdict"));
        String s = new IoView(run, Style.plain()).render();
        assertThat(s).contains("Reads and writes of /data/f (2 GiB, xfs)");
        assertThat(s).containsPattern("seq_read_warm_qd1 +18\\.17 +17\\.18 +19\\.13 +GB/s +17,328 IOPS +45\\.1 us +254 us");
        assertThat(s).containsPattern("rand_read_direct_uring_qd32 +131,868 +78,757 +138,369 +IOPS +0\\.54 GB/s +209 us +931 us");
        assertThat(s).contains("\n  seq_read_cold_qd1: not run: the file is on tmpfs\n");
        assertThat(s).containsPattern("measurement +median +min +max +unit"); // not stretched by the sentence
        assertThat(s).contains("page cache held by the file after the warm reads: 256 MiB");
        assertThat(s).contains("What it means\n  a verdict");
    }
}
