package hostside.vm.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class VmStatTest {
    @Test
    void parsesNameValueLinesAndSkipsGarbage() {
        Map<String, Long> m = VmStat.parse("nr_free_pages 123\npgfault 5\ngarbage\nthp_fault_alloc x\nnr_zone_write_pending -3\n\n");
        assertThat(m).containsExactly(Map.entry("nr_free_pages", 123L), Map.entry("pgfault", 5L),
                Map.entry("nr_zone_write_pending", -3L));
        assertThat(VmStat.parse("")).isEmpty();
        assertThat(VmStat.parse(null)).isEmpty();
        assertThat(VmStat.parse("pgfault 99999999999999999999")).isEmpty();
    }

    @Test
    void deltaIsAfterMinusBefore() {
        Map<String, Long> before = VmStat.parse("pgfault 100\nthp_fault_alloc 7\ncompact_stall 9\n");
        Map<String, Long> after = VmStat.parse("pgfault 612\nthp_fault_alloc 7\ncompact_stall 3\nnew_one 1\n");
        assertThat(VmStat.delta(before, after)).containsExactly(Map.entry("pgfault", 512L), Map.entry("thp_fault_alloc", 0L));
    }
}
