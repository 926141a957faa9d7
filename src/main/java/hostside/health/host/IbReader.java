package hostside.health.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.io.facts.IoFacts.RdmaPort;
import hostside.io.facts.RdmaReader;

/**
 * Reads the InfiniBand and RoCE ports under /sys/class/infiniband: their state, rate, link layer,
 * PCI function and interface through io.facts' {@link RdmaReader} (the one reader of those files),
 * and here the counters/ and hw_counters/ folders beside them.
 */
public final class IbReader {
    static final String LIFESPAN = "lifespan";

    private IbReader() {}

    public static IbPorts read(FsRoot fs) {
        List<String> unknowns = new ArrayList<>();
        FactReads reads = new FactReads(fs, unknowns);
        List<IbDevice> devices = new ArrayList<>();
        for (RdmaDevice d : RdmaReader.read(fs, unknowns)) {
            List<IbPort> ports = new ArrayList<>();
            for (RdmaPort p : d.ports()) {
                String dir = RdmaReader.IB + "/" + d.name() + "/ports/" + p.port();
                Map<String, Long> hw = numbers(fs, reads, dir + "/hw_counters");
                Long lifespan = hw.remove(LIFESPAN);
                ports.add(new IbPort(p.port(), IbPortState.ofWord(p.state()), IbPhysState.ofWord(p.physicalState()), p.rate(), p.rateGbps(),
                        IbLinkLayer.ofWord(p.linkLayer()), p.netdev(), numbers(fs, reads, dir + "/counters"), hw, lifespan));
            }
            devices.add(new IbDevice(d.name(), d.hcaType(), d.firmware(), d.pciAddress(), ports));
        }
        return new IbPorts(devices, unknowns);
    }

    /** Every file of a counters folder that holds a number, by name; the others become unknowns. */
    private static Map<String, Long> numbers(FsRoot fs, FactReads reads, String dir) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String name : fs.list(dir)) {
            Long v = reads.number(dir + "/" + name, true);
            if (v != null) out.put(name, v);
        }
        return out;
    }
}
