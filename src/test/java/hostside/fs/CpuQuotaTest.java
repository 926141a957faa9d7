package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.GarbageException;

class CpuQuotaTest {
    @Test
    void cpuMaxReadsAQuotaNoneOrGarbage() {
        assertThat(CpuQuota.parseCpuMax("150000 100000\n")).contains(new CpuQuota(150_000, 100_000));
        assertThat(CpuQuota.parseCpuMax("150000 100000").orElseThrow().cpus()).isEqualTo(1.5);
        assertThat(CpuQuota.parseCpuMax("max 100000")).isEmpty();
        for (String bad : new String[] {"", "max", "150000 0", "lots 100000", "1 2 3", "-5 100000"}) {
            assertThatThrownBy(() -> CpuQuota.parseCpuMax(bad)).as(bad).isInstanceOf(GarbageException.class);
        }
    }

    @Test
    void cfsQuotaReadsMinusOneAsNone() {
        assertThat(CpuQuota.parseCfsQuota("-1\n")).isEmpty();
        assertThat(CpuQuota.parseCfsQuota("200000")).contains(200_000L);
        assertThatThrownBy(() -> CpuQuota.parseCfsQuota("-2")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> CpuQuota.parseCfsQuota("none")).isInstanceOf(GarbageException.class);
    }
}
