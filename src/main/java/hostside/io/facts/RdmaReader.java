package hostside.io.facts;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.io.facts.IoFacts.RdmaPort;
import hostside.machine.PciDevice;

/** RDMA devices and their ports, from /sys/class/infiniband (RoCE devices are listed there too). */
public final class RdmaReader {
    /** Where the kernel lists every RDMA device, InfiniBand and RoCE alike. */
    public static final String IB = "/sys/class/infiniband";

    private final FsRoot fs;
    private final FactReads reads;
    private final PciFunctions pci;

    RdmaReader(FsRoot fs, FactReads reads, PciFunctions pci) {
        this.fs = fs;
        this.reads = reads;
        this.pci = pci;
    }

    /**
     * Every RDMA device with its ports' state, rate, link layer and interface, for readers outside
     * the I/O facts (health's port counters); failed reads land in {@code unknowns}.
     */
    public static List<RdmaDevice> read(FsRoot fs, List<String> unknowns) {
        return new RdmaReader(fs, new FactReads(fs, unknowns), new PciFunctions(fs, unknowns)).read();
    }

    List<RdmaDevice> read() {
        List<RdmaDevice> out = new ArrayList<>();
        for (String name : fs.list(IB)) {
            String dir = IB + "/" + name;
            String address = SysPaths.pciAddress(fs.realPath(dir).orElse(dir));
            Optional<PciDevice> p = pci.at(address);
            Set<String> netdevs = new LinkedHashSet<>(address == null ? List.of() : fs.list(dir + "/device/net"));
            List<RdmaPort> ports = new ArrayList<>();
            for (String port : fs.list(dir + "/ports")) {
                if (!port.matches("\\d{1,3}")) continue;
                RdmaPort rp = port(dir + "/ports/" + port, Integer.parseInt(port));
                if (rp.netdev() != null) netdevs.add(rp.netdev());
                ports.add(rp);
            }
            out.add(new RdmaDevice(name, fs.text(dir + "/hca_type").filter(s -> !s.isEmpty()).orElse(null),
                    fs.text(dir + "/fw_ver").filter(s -> !s.isEmpty()).orElse(null), address,
                    p.map(PciDevice::numaNode).orElse(null), List.copyOf(netdevs), ports));
        }
        return out;
    }

    private RdmaPort port(String dir, int number) {
        String state = reads.text(dir + "/state", true).map(SysPaths::afterColon).orElse(null);
        String phys = reads.text(dir + "/phys_state", false).map(SysPaths::afterColon).orElse(null);
        String rate = reads.text(dir + "/rate", false).orElse(null);
        String layer = reads.text(dir + "/link_layer", false).orElse(null);
        // Unused GID slots read as errors; only a RoCE port's first GID names its interface.
        String ndev = fs.text(dir + "/gid_attrs/ndevs/0").filter(s -> !s.isEmpty()).orElse(null);
        return new RdmaPort(number, state, phys, rate, rate == null ? null : gbps(rate), layer, ndev);
    }

    /** The figure of "400 Gb/sec (4X NDR)"; null for anything else. */
    static Double gbps(String rate) {
        String[] w = rate.strip().split("\\s+");
        if (w.length < 2 || !w[1].startsWith("Gb/s")) return null;
        try {
            double v = Double.parseDouble(w[0]);
            return v > 0 && v < 1e6 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
