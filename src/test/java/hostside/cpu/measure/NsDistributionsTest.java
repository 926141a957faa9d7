package hostside.cpu.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Distribution;
import hostside.core.Json;
import hostside.core.Unit;
import hostside.cpu.Runs;

/** The jitter series as Distributions: their buckets, and both spellings they are read from. */
class NsDistributionsTest {
    @Test
    void bucketsHaveRoundEdgesAboutTenADecade() {
        assertThat(NsDistributions.bucket(0)).containsExactly(0, 100);
        assertThat(NsDistributions.bucket(99)).containsExactly(0, 100);
        assertThat(NsDistributions.bucket(100)).containsExactly(100, 125);
        assertThat(NsDistributions.bucket(999)).containsExactly(800, 1000);
        assertThat(NsDistributions.bucket(55_519)).containsExactly(50_000, 60_000);
        assertThat(NsDistributions.bucket(61_791)).containsExactly(60_000, 80_000);
        assertThat(NsDistributions.bucket(7_081_983)).containsExactly(6_000_000, 8_000_000);
        assertThat(NsDistributions.bucket(10_000_000_000L)).containsExactly(10_000_000_000L, 12_500_000_000L);
    }

    @Test
    void aHistogramKeepsItsQuantilesAndEverySampleInABucket() {
        Histogram h = new Histogram(LaunchJitter.MAX_NS, 3);
        for (int i = 0; i < 990; i++) h.recordValue(55_000);
        for (int i = 0; i < 9; i++) h.recordValue(90_000);
        h.recordValue(3_500_000);
        Distribution d = NsDistributions.of(h);
        assertThat(d.unit()).isEqualTo(Unit.NS);
        assertThat(d.count()).isEqualTo(1000);
        assertThat(d.p50()).isEqualTo(h.getValueAtPercentile(50));
        assertThat(d.p999()).isEqualTo(h.getValueAtPercentile(99.9));
        assertThat(d.max()).isEqualTo(h.getMaxValue());
        assertThat(d.histogram()).containsExactly(new Distribution.Bucket(50_000, 60_000, 990), new Distribution.Bucket(80_000, 100_000, 9),
                new Distribution.Bucket(3_000_000, 4_000_000, 1));
        assertThat(NsDistributions.of(new Histogram(LaunchJitter.MAX_NS, 3)).histogram()).as("no samples, no bars").isEmpty();
    }

    @Test
    void aDetailReadsBackFromItsJson() throws Exception {
        LaunchJitter.Detail d = new Runs.Jitter().late(NsDistributions.of(one(55_000))).pinnedTo(3, CpuSet.of(0, 1, 2)).build();
        assertThat(Json.MAPPER.treeToValue(Json.MAPPER.valueToTree(d), LaunchJitter.Detail.class)).isEqualTo(d);
    }

    @Test
    void theSchedulerCasesCpusAreACpulist() throws Exception {
        var d = new SchedCosts.PingPong.Detail(CpuSet.of(0, 1), 20_000);
        assertThat(Json.MAPPER.valueToTree(d).path("cpus").asText()).isEqualTo("0-1");
        assertThat(Json.MAPPER.readValue("{\"cpus\": \"0-1\", \"roundTripsPerSample\": 20000}", SchedCosts.PingPong.Detail.class)).isEqualTo(d);
    }

    static Histogram one(long ns) {
        Histogram h = new Histogram(LaunchJitter.MAX_NS, 3);
        h.recordValue(ns);
        return h;
    }
}
