package hostside.health.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class IbReaderTest {

    private static Map<String, IbDevice> byName(IbPorts ib) {
        return ib.devices().stream().collect(Collectors.toMap(IbDevice::name, Function.identity()));
    }

    @Test
    void anInfiniBandPortWithItsStatesCodesAndCounters() {
        IbPorts ib = IbReader.read(Machines.ibNode());
        assertThat(ib.devices()).extracting(IbDevice::name).containsExactly("mlx4_0", "mlx5_0", "mlx5_1", "mlx5_2", "rxe0");
        IbDevice mlx5 = byName(ib).get("mlx5_0");
        assertThat(mlx5.pciAddress()).isEqualTo(Machines.NIC0);
        assertThat(mlx5.firmware()).isEqualTo("28.41.1000");
        IbPort p = mlx5.ports().getFirst();
        assertThat(p.state()).isEqualTo(IbPortState.ACTIVE);
        assertThat(p.state().code).isEqualTo(4);
        assertThat(p.physicalState()).isEqualTo(IbPhysState.LINK_UP);
        assertThat(p.physicalState().code).isEqualTo(5);
        assertThat(p.linkLayer()).isEqualTo(IbLinkLayer.INFINIBAND);
        assertThat(p.rate()).isEqualTo("400 Gb/sec (4X NDR)");
        assertThat(p.rateGbps()).isEqualTo(400.0);
        assertThat(p.counter(IbErrorCounter.PORT_XMIT_WAIT)).isEqualTo(2489603687L);
        assertThat(p.counter(IbErrorCounter.LINK_DOWNED)).isEqualTo(2);
        assertThat(p.counter(IbErrorCounter.SYMBOL_ERROR)).isEqualTo(5);
        assertThat(p.counters()).as("names outside the error list are kept")
                .containsEntry("port_rcv_constraint_errors", 0L).containsEntry("port_xmit_data", 2880761508848L);
        for (IbErrorCounter c : IbErrorCounter.values()) assertThat(p.counters()).containsKey(c.file);
        assertThat(p.hwCounters()).isEmpty();
        assertThat(p.hwCountersLifespanMs()).isNull();
    }

    @Test
    void roCEPortsCarryTheirInterfaceAndHardwareCounters() {
        IbPorts ib = IbReader.read(Machines.ibNode());
        IbPort up = byName(ib).get("mlx5_1").ports().getFirst();
        assertThat(up.linkLayer()).isEqualTo(IbLinkLayer.ETHERNET);
        assertThat(up.netdev()).isEqualTo("ens3f0np0");
        assertThat(up.hwCounters()).containsEntry("roce_adp_retrans", 99L).containsEntry("rx_read_requests", 175528982L)
                .hasSize(24).doesNotContainKey("lifespan");
        assertThat(up.hwCountersLifespanMs()).isEqualTo(10);

        IbPort down = byName(ib).get("mlx5_2").ports().getFirst();
        assertThat(down.state()).isEqualTo(IbPortState.DOWN);
        assertThat(down.state().code).isEqualTo(1);
        assertThat(down.physicalState()).isEqualTo(IbPhysState.DISABLED);
        assertThat(down.rateGbps()).as("\"10 Gb/sec (4X)\": SDR has no speed word").isEqualTo(10.0);
        assertThat(down.counter(IbErrorCounter.VL15_DROPPED)).as("\"N/A (no PMA)\" is no number").isNull();
        assertThat(ib.unknowns()).anyMatch(u -> u.contains("mlx5_2/ports/1/counters/VL15_dropped") && u.contains("N/A (no PMA)"));
    }

    @Test
    void aTwoPortHcaAndASoftwareDevice() {
        IbPorts ib = IbReader.read(Machines.ibNode());
        IbDevice mlx4 = byName(ib).get("mlx4_0");
        assertThat(mlx4.hcaType()).isEqualTo("MT4099");
        assertThat(mlx4.ports()).extracting(IbPort::port).containsExactly(1, 2);
        assertThat(mlx4.ports()).extracting(IbPort::linkLayer).containsOnly(IbLinkLayer.INFINIBAND);
        assertThat(mlx4.ports().get(1).counter(IbErrorCounter.PORT_XMIT_WAIT)).isEqualTo(3846);
        IbDevice rxe = byName(ib).get("rxe0");
        assertThat(rxe.pciAddress()).isNull();
        assertThat(rxe.ports().getFirst().counters()).isEmpty();
    }

    @Test
    void aMachineWithoutRdmaHasNoDevicesAndNothingUnknown() {
        IbPorts ib = IbReader.read(Machines.h100Vm());
        assertThat(ib.devices()).isEmpty();
        assertThat(ib.unknowns()).isEmpty();
    }

    @Test
    void statesByTheKernelsWords() {
        // drivers/infiniband/core/sysfs.c: state_show's table and phys_state_show's strings
        assertThat(IbPortState.ofWord("ACTIVE_DEFER").code).isEqualTo(5);
        assertThat(IbPortState.ofWord("NOP").code).isZero();
        assertThat(IbPortState.ofWord("UNKNOWN")).isEqualTo(IbPortState.UNKNOWN);
        assertThat(IbPortState.ofWord("Active")).as("words are the kernel's, upper case").isEqualTo(IbPortState.UNKNOWN);
        assertThat(IbPortState.ofWord(null)).isEqualTo(IbPortState.UNKNOWN);
        assertThat(IbPhysState.ofWord("Phy Test").code).isEqualTo(7);
        assertThat(IbPhysState.ofWord("PortConfigurationTraining").code).isEqualTo(4);
        assertThat(IbPhysState.ofWord("<unknown>")).isEqualTo(IbPhysState.UNKNOWN);
        // prometheus/procfs's fixture has phys_state "4: ACTIVE": not a physical state
        assertThat(IbPhysState.ofWord("ACTIVE")).isEqualTo(IbPhysState.UNKNOWN);
        assertThat(IbLinkLayer.ofWord("Unknown")).isEqualTo(IbLinkLayer.UNKNOWN);
        for (IbPortState s : IbPortState.values()) if (s != IbPortState.UNKNOWN) assertThat(s.code).isEqualTo(s.ordinal());
        for (IbPhysState s : IbPhysState.values()) if (s != IbPhysState.UNKNOWN) assertThat(s.code).isEqualTo(s.ordinal() + 1);
    }
}
