package hostside.io.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Read;
import hostside.io.facts.IoFacts.Nic;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.machine.PciDevice;

/**
 * Network interfaces from /sys/class/net. Interfaces with a device behind them come first; the
 * virtual ones (veth, bridges, VLANs, bonds) only when there is no other, as in a container whose
 * eth0 is one end of a veth pair.
 */
final class NetReader {
    static final String NET = "/sys/class/net";
    private static final int ARPHRD_ETHER = 1, ARPHRD_INFINIBAND = 32;

    private final FsRoot fs;
    private final FactReads reads;
    private final PciFunctions pci;

    NetReader(FsRoot fs, FactReads reads, PciFunctions pci) {
        this.fs = fs;
        this.reads = reads;
        this.pci = pci;
    }

    List<Nic> read(List<RdmaDevice> rdma) {
        List<String> physical = new ArrayList<>(), virtual = new ArrayList<>();
        for (String name : fs.list(NET)) {
            if (name.equals("lo")) continue;
            (fs.exists(NET + "/" + name + "/device") ? physical : virtual).add(name);
        }
        boolean showVirtual = physical.isEmpty();
        List<Nic> out = new ArrayList<>();
        for (String name : showVirtual ? virtual : physical) out.add(nic(name, showVirtual, rdma));
        return out;
    }

    private Nic nic(String name, boolean virtual, List<RdmaDevice> rdma) {
        String dir = NET + "/" + name;
        Integer arp = reads.integer(dir + "/type", false, false);
        String type = arp == null ? null : arp == ARPHRD_ETHER ? "ethernet" : arp == ARPHRD_INFINIBAND ? "infiniband" : "ARP type " + arp;
        String driver = fs.readLink(dir + "/device/driver").map(SysPaths::name).orElse(null);
        String address = virtual ? null : SysPaths.pciAddress(fs.realPath(dir).orElse(dir));
        Optional<PciDevice> p = pci.at(address);
        Speed speed = speed(dir + "/speed");
        List<String> rdmaNames = rdma.stream().filter(r -> r.netdevs().contains(name)).map(RdmaDevice::name).toList();
        return new Nic(name, virtual, type, driver, speed.mbps(), speed.unknown(), reads.integer(dir + "/mtu", true, false),
                reads.text(dir + "/operstate", true).orElse(null), address, p.map(PciDevice::numaNode).orElse(null),
                p.map(PciDevice::link).orElse(null), rdmaNames);
    }

    /** A link speed in Mb/s, or why there is none. */
    record Speed(Long mbps, String unknown) {}

    /**
     * The kernel says -1 when the driver reports no speed (virtio, many VMs) and refuses the read
     * (EINVAL) while the link is down; neither is a fault of the machine, so neither is an unknown
     * of the reader, only of the field.
     */
    Speed speed(String path) {
        Read r = fs.read(path);
        if (r instanceof Read.Failed f) return new Speed(null, f.reason().equals("Invalid argument")
                ? "not readable while the link is down" : f.reason());
        String t = r.trimmed().orElse("");
        if (t.isEmpty()) return new Speed(null, "empty file");
        if (t.equals("-1")) return new Speed(null, "the driver reports -1");
        Long v = FactReads.parseNumber(t);
        if (v == null) {
            reads.garbage(path, "not a number", t);
            return new Speed(null, "not a number: \"" + FactReads.shown(t) + "\"");
        }
        return v == 0 ? new Speed(null, "the driver reports 0") : new Speed(v, null);
    }
}
