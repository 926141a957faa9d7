package hostside.gpu.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.gpu.cuda.FakeDriver;
import hostside.gpu.cuda.OnFakeDriver;

/** The peer facts of every ordered pair, from the fake's configurable peer matrix; a refusal is an unknown with the driver's error. */
class PeerAccessReaderTest extends OnFakeDriver {

    @Test
    void twoGpusGiveTwoOrderedPairs() {
        List<PeerAccess> pairs = PeerAccessReader.read(cuda);
        assertThat(pairs).extracting(PeerAccess::from, PeerAccess::to)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(1, 0));
        assertThat(pairs.getFirst()).isEqualTo(new PeerAccess(0, 1, address(0), address(1), true, 0, true, true, true, java.util.Map.of()));
    }

    @Test
    void fourGpusWithAPcieOnlyPairAndOneThatCannot() {
        fake.configure(0, 4);
        fake.setPeer(0, 2, true, false, false, 1); // over PCIe: no native atomics, a lower rank
        fake.setPeer(1, 3, false, false, false, 0);
        List<PeerAccess> pairs = PeerAccessReader.read(cuda);
        assertThat(pairs).hasSize(12);
        assertThat(pairs).extracting(PeerAccess::fromAddress).as("sysfs's spelling, to join the PCIe tree")
                .allMatch(a -> a.matches("[0-9a-f]{4}:[0-9a-f]{2}:00\\.0"));
        assertThat(pairs.stream().map(PeerAccess::fromAddress).distinct()).as("one address per GPU").hasSize(4);
        PeerAccess pcie = pairs.stream().filter(p -> p.from() == 0 && p.to() == 2).findFirst().orElseThrow();
        assertThat(pcie).isEqualTo(new PeerAccess(0, 2, address(0), address(2), true, 1, true, false, false, java.util.Map.of()));
        PeerAccess none = pairs.stream().filter(p -> p.from() == 1 && p.to() == 3).findFirst().orElseThrow();
        assertThat(none.canAccessPeer()).isFalse();
        assertThat(none.accessSupported()).isFalse();
        assertThat(pairs.stream().filter(p -> p.from() == 3 && p.to() == 1).findFirst().orElseThrow().canAccessPeer())
                .as("the other way is asked on its own").isTrue();
    }

    @Test
    void refusalsAreUnknownsNamedByTheDriver() {
        fake.setPeer(0, 1, true, true, true, FakeDriver.UNKNOWN);
        fake.failOnce("cuDeviceCanAccessPeer", 3, 1); // the second pair's: CUDA_ERROR_NOT_INITIALIZED
        List<PeerAccess> pairs = PeerAccessReader.read(cuda);
        assertThat(pairs.get(0).performanceRank()).isNull();
        assertThat(pairs.get(0).unknown()).containsExactly(java.util.Map.entry("performanceRank", "CUDA_ERROR_INVALID_VALUE (1)"));
        assertThat(pairs.get(0).nativeAtomics()).isTrue();
        assertThat(pairs.get(1).canAccessPeer()).isNull();
        assertThat(pairs.get(1).unknown()).containsEntry("canAccessPeer", "CUDA_ERROR_NOT_INITIALIZED (3)");
        assertThat(pairs.get(1).performanceRank()).isZero();
    }

    /** The address each GPU is read under: the join key with the PCIe tree. */
    private String address(int ordinal) {
        return cuda.pciBusId(cuda.device(ordinal));
    }
}
