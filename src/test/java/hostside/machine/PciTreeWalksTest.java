package hostside.machine;

import static hostside.machine.AffinityTest.dev;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.doc.Block;

/**
 * The walks over a PCIe tree that came from a recording or a report end, whatever the links say
 * (issue 36): the chain up from a function, and the drawing down from the host bridges.
 */
class PciTreeWalksTest {
    static final Duration LIMIT = Duration.ofSeconds(30);

    static Map<String, PciDevice> byAddress(List<PciDevice> pci) {
        Map<String, PciDevice> m = new HashMap<>();
        for (PciDevice d : pci) m.put(d.address(), d);
        return m;
    }

    @Test
    void aChainThatComesBackToItsStartIsACycleThere() {
        List<PciDevice> pci = List.of(dev("0000:03:00.0", "gpu", "GPU0", "0000:02:00.0", "pci0000:00", 0, null),
                dev("0000:02:00.0", "bridge", "", "0000:01:00.0", "pci0000:00", 0, null),
                dev("0000:01:00.0", "bridge", "", "0000:02:00.0", "pci0000:00", 0, null));
        UpstreamChain c = assertTimeoutPreemptively(LIMIT, () -> UpstreamChain.of(pci.getFirst(), byAddress(pci)));
        assertThat(c.fault()).isEqualTo("a cycle at 0000:02:00.0 (a bridge above itself)");
        assertThat(c.addresses()).containsExactly("0000:01:00.0", "0000:02:00.0", "0000:03:00.0");
        assertThat(UpstreamChain.firstFault(pci)).contains("a cycle at 0000:02:00.0 (a bridge above itself)");
    }

    @Test
    void aChainLongerThanPcieAllowsEndsAtTheBound() {
        List<PciDevice> pci = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            pci.add(dev(String.format("0000:%02x:%02x.0", i / 32, i % 32), i == 0 ? "gpu" : "bridge", i == 0 ? "GPU0" : "",
                    String.format("0000:%02x:%02x.0", (i + 1) / 32, (i + 1) % 32), "pci0000:00", 0, null));
        }
        UpstreamChain c = UpstreamChain.of(pci.getFirst(), byAddress(pci));
        assertThat(c.addresses()).hasSize(UpstreamChain.MAX_DEPTH);
        assertThat(c.fault()).startsWith("more than 256 bridges above 0000:00:00.0");
    }

    @Test
    void aTreeThatEndsHasNoFaultAndItsChainIsUnchanged() {
        AffinityTest t = new AffinityTest();
        assertThat(UpstreamChain.firstFault(t.tree)).isEmpty();
        PciDevice gpu1 = t.tree.stream().filter(d -> d.name().equals("GPU1")).findFirst().orElseThrow();
        assertThat(Affinity.chain(gpu1, byAddress(t.tree))).containsExactly("0000:00:01.0", "0000:01:00.0", "0000:02:10.0",
                "0000:04:00.0", "0000:05:00.0", "0000:06:00.0");
    }

    /**
     * A report can give a host bridge the address of a function and a function the name of that
     * host bridge: every chain ends, yet the drawing went from one to the other for ever.
     */
    @Test
    void theDrawingDrawsEachFunctionOnceWhenAHostBridgeBearsAFunctionsAddress() {
        List<PciDevice> pci = List.of(dev("0000:00:06.0", "gpu", "GPU0", null, "pci0000:00", 0, null),
                dev("pci0000:00", "nic", "eth0", null, "0000:00:06.0", 0, null),
                dev("0000:00:06.0", "bridge", "", "0000:00:06.0", "pci0000:00", 0, null));
        Block.Section s = (Block.Section) assertTimeoutPreemptively(LIMIT, () -> PcieTree.of(pci));
        Block.Table table = (Block.Table) s.blocks().getFirst();
        List<String> drawn = table.rows().stream().map(r -> r.getFirst().plainText()).filter(f -> f.contains("\u2500"))
                .map(f -> f.substring(f.lastIndexOf('\u00a0') + 1)).toList();
        assertThat(drawn).doesNotHaveDuplicates().contains("0000:00:06.0", "pci0000:00");
    }
}
