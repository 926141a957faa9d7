package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.GarbageException;
import hostside.process.LoadAvg;
import hostside.process.Pressure;

/** /proc/loadavg and /proc/pressure/*, as this project's dev VM and older kernels write them, and garbage. */
class LoadAndPressureTest {

    @Test
    void loadavgAsTheKernelWritesIt() {
        LoadAvg l = LoadAvg.parse("0.31 0.25 0.40 1/85 28097\n");
        assertThat(l).isEqualTo(new LoadAvg(0.31, 0.25, 0.40, 1, 85, 28097));
        assertThat(LoadAvg.parse("128.07 96.50 64.00 131/4096 4194303").runnable()).isEqualTo(131);
    }

    @Test
    void loadavgGarbage() {
        for (String g : new String[] {"", "0.31 0.25 0.40", "0.31 0.25 0.40 1-85 28097", "a b c 1/2 3", "0.31 0.25 -1 1/85 28097",
                "NaN 0 0 1/2 3", "0.3 0.2 0.4 1/x 28097"}) {
            assertThatThrownBy(() -> LoadAvg.parse(g)).as(g).isInstanceOf(GarbageException.class).hasMessageStartingWith("not /proc/loadavg");
        }
    }

    @Test
    void psiWithSomeAndFull() {
        Pressure p = Pressure.parse("""
                some avg10=1.34 avg60=3.19 avg300=2.46 total=2664212606
                full avg10=0.00 avg60=0.00 avg300=0.00 total=0
                """);
        assertThat(p.some()).isEqualTo(new Pressure.Line(1.34, 3.19, 2.46, 2664212606L));
        assertThat(p.full()).isEqualTo(new Pressure.Line(0, 0, 0, 0));
    }

    @Test
    void cpuPressureBeforeLinux513HasNoFullLine() {
        Pressure p = Pressure.parse("some avg10=56.52 avg60=20.01 avg300=4.72 total=93939123\n");
        assertThat(p.full()).isNull();
        assertThat(p.some().avg10()).isEqualTo(56.52);
    }

    @Test
    void psiFieldsALaterKernelAddsAreSkipped() {
        assertThat(Pressure.parse("some avg10=1.00 avg60=2.00 avg300=3.00 total=4 avg1=9.00").some().totalUs()).isEqualTo(4);
    }

    @Test
    void psiGarbage() {
        for (String g : new String[] {"", "lots", "some avg10=1.00 avg60=2.00 total=4", "some avg10=x avg60=2.00 avg300=3.00 total=4",
                "full avg10=1.00 avg60=2.00 avg300=3.00 total=4", "some avg10=101.00 avg60=2.00 avg300=3.00 total=4",
                "most avg10=1.00 avg60=2.00 avg300=3.00 total=4", "some avg10=1.00 avg60=2.00 avg300=3.00 total=-4"}) {
            assertThatThrownBy(() -> Pressure.parse(g)).as(g).isInstanceOf(GarbageException.class).hasMessageStartingWith("not a PSI file");
        }
    }
}
