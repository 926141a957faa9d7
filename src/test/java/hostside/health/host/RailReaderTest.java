package hostside.health.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.machine.Affinity;

class RailReaderTest {

    @Test
    void eachGpuWithItsNicsNearestFirst() {
        Rails r = RailReader.read(Machines.ibNode(), List.of(Machines.GPU0, Machines.GPU1));
        Rail gpu0 = r.rails().get(0), gpu1 = r.rails().get(1);
        assertThat(gpu0.gpu()).isEqualTo(Machines.GPU0);
        assertThat(gpu0.nearest()).isEqualTo(new NicDistance("mlx5_0", Machines.NIC0, PcieLevel.PIX));
        assertThat(gpu0.nics()).extracting(NicDistance::level).containsExactly(PcieLevel.PIX, PcieLevel.SYS, PcieLevel.SYS, PcieLevel.SYS);
        // GPU1's root port and the RoCE NIC's share a host bridge; the old HCA is on another of node 1
        assertThat(gpu1.nics()).extracting(NicDistance::rdmaDevice).containsExactly("mlx5_1", "mlx5_2", "mlx4_0", "mlx5_0");
        assertThat(gpu1.nics()).extracting(NicDistance::level).containsExactly(PcieLevel.PHB, PcieLevel.PHB, PcieLevel.NODE, PcieLevel.SYS);
        assertThat(r.unknowns()).singleElement().asString().startsWith("rxe0: no PCI function");
    }

    @Test
    void aGpuThatIsNoFunctionHereAndAMachineWithoutNics() {
        Rails r = RailReader.read(Machines.ibNode(), List.of("0000:99:00.0"));
        assertThat(r.rails().getFirst().nics()).isEmpty();
        assertThat(r.rails().getFirst().nearest()).isNull();
        assertThat(r.unknowns()).anyMatch(u -> u.startsWith("0000:99:00.0: no such PCI function"));

        Rails vm = RailReader.read(Machines.h100Vm(), List.of("0000:00:06.0"));
        assertThat(vm.rails().getFirst().nics()).isEmpty();
        assertThat(vm.unknowns()).isEmpty();
    }

    @Test
    void levelsAreAffinitysWords() {
        for (String w : Affinity.LEVELS) assertThat(PcieLevel.ofWord(w).word).isEqualTo(w);
        assertThat(PcieLevel.ofWord("?")).isEqualTo(PcieLevel.UNKNOWN);
    }
}
