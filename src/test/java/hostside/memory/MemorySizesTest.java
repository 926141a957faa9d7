package hostside.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;

/** STREAM's rule on the caches sysfs names or a chase measured, bounded by memory, and the read and chase inside STREAM's arrays. */
class MemorySizesTest {
    static final long MIB = 1L << 20, GIB = 1L << 30;

    /** A measured curve that stepped at {@code kneeBytes}. */
    static CacheKnee.Knee stepAt(long kneeBytes) {
        Sweep curve = new Sweep(Unit.NS, List.of(new Sweep.Point(kneeBytes / 2, Stats.of(12)), new Sweep.Point(kneeBytes, Stats.of(90)),
                new Sweep.Point(2 * kneeBytes, Stats.of(100))));
        return new CacheKnee.Knee(curve, CacheKnee.Shape.STEP, kneeBytes, 2, true, 300);
    }

    @Test
    void arraysFollowStreamsRuleWithinAQuarterOfTheMemory() {
        MemorySizes roomy = MemorySizes.of(300 * MIB, null, 100 * GIB, 4096, null);
        assertThat(roomy.array()).isEqualTo(1200 * MIB);
        assertThat(roomy.read()).isEqualTo(1200 * MIB);
        assertThat(roomy.chase()).isEqualTo(1200 * MIB);
        assertThat(roomy.note()).isEmpty();
        assertThat(roomy.sizing()).isEqualTo(new ArraySizing(ArraySizing.From.SYSFS_CACHES, 300 * MIB, null));
        MemorySizes tight = MemorySizes.of(300 * MIB, null, 4 * GIB, 4096, null);
        assertThat(tight.array()).as("a third of a quarter of 4 GiB").isEqualTo(4 * GIB / 4 / 3 / 4096 * 4096);
        assertThat(tight.note()).contains("less than STREAM's four times the last-level caches").contains("a quarter of the available memory is 1 GiB");
        MemorySizes asked = MemorySizes.of(300 * MIB, null, 100 * GIB, 4096, 640_000_000L);
        assertThat(asked.array()).isEqualTo(640_000_000L);
        assertThat(asked.note()).startsWith("arrays of 610.4 MiB as asked");
        assertThat(asked.sizing().from()).isEqualTo(ArraySizing.From.ASKED);
    }

    @Test
    void theReadAndTheChaseStayWithinStreamsThreeArrays() {
        // the dev VM: 32 MiB of L3, 128 MiB arrays: the 1 GiB read would be the drill's peak, the three arrays' 384 MiB are
        MemorySizes vm = MemorySizes.of(32 * MIB, null, 23 * GIB, 4096, null);
        assertThat(vm.array()).isEqualTo(128 * MIB);
        assertThat(vm.read()).isEqualTo(384 * MIB);
        assertThat(vm.chase()).isEqualTo(256 * MIB);
        MemorySizes small = MemorySizes.of(8 * MIB, null, 100 * GIB, 4096, null);
        assertThat(small.array()).as("the floor").isEqualTo(64 * MIB);
        assertThat(small.read()).isEqualTo(192 * MIB);
        assertThat(small.chase()).isEqualTo(192 * MIB);
        MemorySizes askedSmall = MemorySizes.of(32 * MIB, null, 23 * GIB, 4096, 16 * MIB);
        assertThat(askedSmall.read()).as("bounded by the rule's arrays, not by the small ones asked for").isEqualTo(384 * MIB);
    }

    @Test
    void aMachineThatHidesItsCachesIsSizedFromTheMeasuredKneeAndSaysSo() {
        MemorySizes hidden = MemorySizes.of(0, stepAt(64 * MIB), 23 * GIB, 4096, null);
        assertThat(hidden.array()).isEqualTo(256 * MIB);
        assertThat(hidden.read()).as("the three arrays' 768 MiB").isEqualTo(768 * MIB);
        assertThat(hidden.chase()).isEqualTo(256 * MIB);
        assertThat(hidden.sizing().from()).isEqualTo(ArraySizing.From.MEASURED_CACHES);
        assertThat(hidden.sizing().cacheBytes()).isEqualTo(64 * MIB);
        assertThat(hidden.note()).startsWith("sysfs names no cache size (as in many VMs): a pointer chase with 2 threads found the caches' end at 64 MiB");
        MemorySizes hiddenTight = MemorySizes.of(0, stepAt(256 * MIB), 4 * GIB, 4096, null);
        assertThat(hiddenTight.array()).isEqualTo(4 * GIB / 4 / 3 / 4096 * 4096);
        assertThat(hiddenTight.note()).contains("; arrays of 341.3 MiB, less than STREAM's four times the measured caches (1 GiB)");
        MemorySizes unmeasured = MemorySizes.of(0, null, 23 * GIB, 4096, null);
        assertThat(unmeasured.array()).isEqualTo(64 * MIB);
        assertThat(unmeasured.note()).isEqualTo("sysfs names no cache size and none was measured");
    }
}
