package hostside.health.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class AerReaderTest {

    @Test
    void aFileOfTodaysKernelHasNamesWithSpacesAndItsTotalLast() {
        // Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats, its sample of aer_dev_correctable
        List<String> unknowns = new ArrayList<>();
        AerCounts c = AerCounts.parse("""
                Receiver Error 2
                Bad TLP 0
                Bad DLLP 0
                RELAY_NUM Rollover 0
                Replay Timer Timeout 0
                Advisory Non-Fatal 0
                Corrected Internal Error 0
                Header Log Overflow 0
                TOTAL_ERR_COR 2
                """, "x/aer_dev_correctable", unknowns);
        assertThat(c.total()).isEqualTo(2);
        assertThat(c.counters()).hasSize(8).containsEntry("Receiver Error", 2L).containsEntry("RELAY_NUM Rollover", 0L)
                .doesNotContainKey("TOTAL_ERR_COR");
        assertThat(c.counters().keySet()).first().isEqualTo("Receiver Error");
        assertThat(unknowns).isEmpty();
    }

    @Test
    void anOlderKernelsShortNamesAndAnUnnamedBitReadTheSame() {
        // the short names of drivers/pci/pcie/aer.c before they were spelt out (as in prometheus/procfs's
        // fixture), and the "<array>_bit[N]" line the kernel writes for a bit without a name
        List<String> unknowns = new ArrayList<>();
        AerCounts c = AerCounts.parse("RxErr 0\nBadTLP 5\nBadDLLP 0\ndev_cor_errs_bit[9] 1\nTOTAL_ERR_COR 5\n", "x", unknowns);
        assertThat(c.counters()).containsEntry("BadTLP", 5L).containsEntry("dev_cor_errs_bit[9]", 1L);
        assertThat(c.total()).as("the kernel's total, though the lines sum to 6").isEqualTo(5);
        assertThat(c.count()).isEqualTo(5);
        assertThat(unknowns).isEmpty();
    }

    @Test
    void garbageLinesBecomeUnknownsAndTheRestIsKept() {
        List<String> unknowns = new ArrayList<>();
        AerCounts c = AerCounts.parse("Receiver Error 2\nlots of errors\n 17\nBad TLP -1\nReceiver Error 9\nBad\u001b[2J TLP x\n", "d/aer_dev_correctable", unknowns);
        assertThat(c.counters()).containsExactly(java.util.Map.entry("Receiver Error", 2L));
        assertThat(c.total()).isNull();
        assertThat(c.count()).as("without a total, the sum").isEqualTo(2);
        assertThat(unknowns).hasSize(6).allMatch(u -> u.startsWith("d/aer_dev_correctable: "));
        assertThat(String.join("\n", unknowns)).doesNotContain("\u001b").contains("twice").contains("no TOTAL_ERR_* line");
    }

    @Test
    void theSwitchPortAboveAGpuCountsWhatTheGpuDoesNot() {
        PcieAer aer = AerReader.read(Machines.ibNode(), List.of(Machines.GPU0));
        AerChain chain = aer.chains().getFirst();
        assertThat(chain.state()).isEqualTo(AerState.COUNTED);
        assertThat(chain.functions()).extracting(AerFunction::address)
                .containsExactly("0000:03:00.0", "0000:02:00.0", "0000:01:00.0", "0000:00:01.0");
        assertThat(chain.functions()).extracting(AerFunction::role)
                .containsExactly(PcieRole.DEVICE, PcieRole.BRIDGE, PcieRole.BRIDGE, PcieRole.ROOT_PORT);
        AerFunction gpu = chain.functions().get(0), downstream = chain.functions().get(1), root = chain.functions().get(3);
        assertThat(gpu.correctable().total()).isZero();
        assertThat(gpu.fatal().counters()).hasSize(17).containsEntry("Surprise Down Error", 0L);
        assertThat(downstream.correctable().total()).isEqualTo(7);
        assertThat(downstream.correctable().counters()).containsEntry("Receiver Error", 7L);
        assertThat(gpu.rootPort()).isNull();
        assertThat(root.rootPort()).isEqualTo(new RootPortTotals(7L, 1L, 0L));
        assertThat(aer.unknowns()).isEmpty();
    }

    @Test
    void aGpuWithoutAerFilesIsNotExposedNotClean() {
        PcieAer aer = AerReader.read(Machines.ibNode(), List.of(Machines.GPU1, Machines.NIC0));
        AerChain gpu1 = aer.chains().get(0);
        assertThat(gpu1.state()).isEqualTo(AerState.NOT_EXPOSED);
        assertThat(gpu1.functions()).allSatisfy(f -> {
            assertThat(f.state()).isEqualTo(AerState.NOT_EXPOSED);
            assertThat(f.correctable()).isNull();
            assertThat(f.fatal()).isNull();
        });
        AerFunction nic = aer.chains().get(1).functions().getFirst();
        assertThat(nic.nonfatal().counters()).containsEntry("Completion Timeout", 1L);
        assertThat(nic.nonfatal().total()).isEqualTo(1);
    }

    @Test
    void theH200RecordingShowsNoAerOnItsGpu() {
        // a real /sys: the Firecracker VM exposes no AER, as the H100 probe found on its twin
        PcieAer aer = AerReader.read(Machines.h200(), List.of("0000:00:06.0"));
        AerChain chain = aer.chains().getFirst();
        assertThat(chain.state()).isEqualTo(AerState.NOT_EXPOSED);
        assertThat(chain.functions()).singleElement().satisfies(f -> {
            assertThat(f.role()).isEqualTo(PcieRole.DEVICE);
            assertThat(f.rootPort()).isNull();
        });
    }

    @Test
    void anAddressThatIsNoFunctionHereSaysSo() {
        PcieAer aer = AerReader.read(Machines.h100Vm(), List.of("0000:99:00.0", "not an address"));
        assertThat(aer.chains()).extracting(AerChain::state).containsExactly(AerState.NO_DEVICE, AerState.NO_DEVICE);
        assertThat(aer.chains()).allSatisfy(c -> assertThat(c.functions()).isEmpty());
        assertThat(aer.unknowns()).hasSize(2).allMatch(u -> u.endsWith("no such PCI function"));
    }

    @Test
    void aChainIsCountedIfAnyFunctionIsAndUnreadableOnlyIfNoneIs() {
        AerFunction counted = new AerFunction("a", PcieRole.DEVICE, AerState.COUNTED, null, null, null, null);
        AerFunction hidden = new AerFunction("b", PcieRole.ROOT_PORT, AerState.NOT_EXPOSED, null, null, null, null);
        AerFunction denied = new AerFunction("c", PcieRole.BRIDGE, AerState.UNREADABLE, null, null, null, null);
        assertThat(AerReader.chainState(List.of(hidden, counted))).isEqualTo(AerState.COUNTED);
        assertThat(AerReader.chainState(List.of(hidden, denied))).isEqualTo(AerState.UNREADABLE);
        assertThat(AerReader.chainState(List.of(hidden))).isEqualTo(AerState.NOT_EXPOSED);
    }
}
