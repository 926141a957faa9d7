package hostside.io.facts;

import java.util.ArrayList;
import java.util.List;

import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.CuFile;
import hostside.io.facts.IoFacts.DataDir;
import hostside.io.facts.IoFacts.GpuDirect;
import hostside.io.facts.IoFacts.Nic;
import hostside.io.facts.IoFacts.Queue;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.io.facts.IoFacts.RdmaPort;
import hostside.machine.PciLink;
import hostside.core.Style;
import hostside.core.Table;
import hostside.core.Units;

/** The storage and network facts as aligned tables; a section only when it has rows. */
public final class IoFactsView {
    private final IoFacts f;
    private final Style style;

    public IoFactsView(IoFacts f, Style style) {
        this.f = f;
        this.style = style;
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        dataDirs(sb);
        blockDevices(sb);
        nics(sb);
        rdma(sb);
        gpuDirect(sb);
        for (String u : f.unknowns()) sb.append("  ").append(style.dim("unknown: " + u)).append('\n');
        return sb.toString();
    }

    private void section(StringBuilder sb, String title, Table t) {
        if (t.isEmpty()) return;
        sb.append(style.bold(title)).append('\n').append(t.render("  ")).append('\n');
    }

    private void dataDirs(StringBuilder sb) {
        Table t = new Table("data dir", "mounted at", "fs", "storage", "source", "device", "disks", "read-ahead", "options").right(7);
        for (DataDir d : f.dataDirs()) {
            String path = d.realPath().equals(d.path()) ? d.path() : d.path() + " -> " + d.realPath();
            if (Boolean.FALSE.equals(d.exists())) path += " (missing)";
            if (d.filesystem() == null) {
                t.row(path, "unknown (no mount table)");
                continue;
            }
            IoFacts.Filesystem m = d.filesystem();
            String storage = m.storage() + ": " + m.what();
            if (d.upperDir() != null) {
                storage += d.upper() == null ? ", upper layer not visible from here"
                        : ", upper layer on " + d.upper().type() + " at " + d.upper().mountPoint();
            }
            t.row(path, m.mountPoint(), m.type(), storage, m.source(), dash(d.blockDevice()), d.disks().isEmpty() ? "-" : String.join(", ", d.disks()),
                    d.readAheadKb() == null ? "-" : kib(d.readAheadKb()), m.options().isEmpty() ? "-" : String.join(",", m.options()));
        }
        section(sb, "Data paths", t);
    }

    private void blockDevices(StringBuilder sb) {
        Table t = new Table("device", "kind", "model", "size", "rotational", "scheduler", "queue", "blocks", "read-ahead",
                "max I/O", "built from", "NUMA", "PCIe link").right(3, 6, 8, 9);
        for (BlockDevice b : f.blockDevices()) {
            Queue q = b.queue();
            String kind = b.remote() == null ? b.kind() : b.kind() + " (" + b.remote() + ")";
            String blocks = q.logicalBlockBytes() == null ? "-" : q.logicalBlockBytes()
                    + (q.physicalBlockBytes() == null || q.physicalBlockBytes().equals(q.logicalBlockBytes()) ? "" : "/" + q.physicalBlockBytes());
            String built = b.slaves().isEmpty() ? "-" : String.join(", ", b.slaves())
                    + (b.physical().equals(b.slaves()) ? "" : " (disks " + String.join(", ", b.physical()) + ")");
            t.row(b.name(), kind, dash(b.model()), b.sizeBytes() == null ? "unknown" : Units.bytes(b.sizeBytes()),
                    b.rotational() == null ? "unknown" : b.rotational() ? "yes" : "no", scheduler(q), n(q.nrRequests()), blocks,
                    q.readAheadKb() == null ? "unknown" : kib(q.readAheadKb()),
                    q.maxSectorsKb() == null ? "unknown" : kib(q.maxSectorsKb()), built,
                    b.controller() == null ? "-" : numa(b.controller().numaNode()),
                    b.controller() == null ? "-" : link(b.controller().link()));
        }
        section(sb, "Block devices", t);
    }

    private static String scheduler(Queue q) {
        if (q.scheduler() == null) return "unknown";
        List<String> others = new ArrayList<>(q.schedulers());
        others.remove(q.scheduler());
        return others.isEmpty() ? q.scheduler() : q.scheduler() + " (of " + String.join(", ", q.schedulers()) + ")";
    }

    private void nics(StringBuilder sb) {
        Table t = new Table("interface", "type", "driver", "speed", "MTU", "state", "PCI", "NUMA", "PCIe link", "RDMA").right(3, 4);
        boolean virtual = false;
        for (Nic n : f.nics()) {
            virtual |= n.virtual();
            t.row(n.name(), dash(n.type()), dash(n.driver()),
                    n.speedMbps() != null ? IoVerdicts.gbps(n.speedMbps()) : "unknown (" + n.speedUnknown() + ")",
                    n(n.mtu()), dash(n.operstate()), dash(n.pciAddress()), n.virtual() ? "-" : numa(n.numaNode()),
                    link(n.link()), n.rdmaDevices().isEmpty() ? "-" : String.join(", ", n.rdmaDevices()));
        }
        section(sb, virtual ? "Network interfaces (virtual only: no device behind any of them, as in a container)" : "Network interfaces", t);
    }

    private void rdma(StringBuilder sb) {
        Table t = new Table("RDMA device", "port", "state", "physical", "rate", "link layer", "interfaces", "adapter", "PCI", "NUMA").right(1);
        for (RdmaDevice r : f.rdmaDevices()) {
            String adapter = (dash(r.hcaType()) + (r.firmware() == null ? "" : ", firmware " + r.firmware()));
            String nets = r.netdevs().isEmpty() ? "-" : String.join(", ", r.netdevs());
            if (r.ports().isEmpty()) t.row(r.name(), "-", "no ports", "", "", "", nets, adapter, dash(r.pciAddress()), numa(r.numaNode()));
            for (RdmaPort p : r.ports()) {
                String state = p.state() == null ? "unknown" : p.state().equals("ACTIVE") ? p.state() : style.warn(p.state());
                t.row(r.name(), p.port(), state, dash(p.physicalState()), dash(p.rate()),
                        p.linkLayer() == null ? "-" : p.linkLayer().equals("Ethernet") ? "Ethernet (RoCE)" : p.linkLayer(),
                        nets, adapter, dash(r.pciAddress()), numa(r.numaNode()));
            }
        }
        section(sb, "RDMA", t);
    }

    private void gpuDirect(StringBuilder sb) {
        GpuDirect g = f.gpuDirect();
        if (g == null) return;
        Table t = new Table("", "");
        String from = " (" + g.modulesSource() + ")";
        t.row("GPUDirect RDMA", g.peermem() == null ? "unknown" + from
                : g.peermem() ? g.peermemModule() + " loaded" : "nvidia_peermem not loaded" + from);
        t.row("GPUDirect Storage", g.nvidiaFs() == null ? "unknown" + from : g.nvidiaFs() ? "nvidia_fs loaded" : "nvidia_fs not loaded" + from);
        CuFile c = g.cufile();
        if (c != null) {
            String s = !c.present() ? "absent" : c.error() != null ? "unreadable: " + c.error()
                    : "allow_compat_mode " + flag(c.allowCompatMode()) + ", use_poll_mode " + flag(c.usePollMode());
            t.row(c.path(), s);
        }
        String rows = t.render("  ");
        sb.append(style.bold("GPUDirect")).append('\n').append(rows.substring(rows.indexOf('\n') + 1)).append('\n');
    }

    /** Whole MiB as MiB, anything else in KiB: 1280 KiB is not "1.3 MiB". */
    private static String kib(long kb) {
        return kb % 1024 == 0 && kb > 0 ? Units.bytes(kb * 1024) : kb + " KiB";
    }

    private static String flag(Boolean b) {
        return b == null ? "not set" : b.toString();
    }

    private static String numa(Integer node) {
        return node == null ? "unknown" : String.valueOf(node);
    }

    private static String link(PciLink l) {
        if (l == null) return "-";
        String now = l.current(), max = l.max();
        return now.equals(max) ? now : now + " (max " + max + ")";
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    private static String n(Object o) {
        return o == null ? "unknown" : o.toString();
    }
}
