package hostside.io.facts;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Units;
import hostside.doc.Block;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.Note;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Text;
import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.CuFile;
import hostside.io.facts.IoFacts.DataDir;
import hostside.io.facts.IoFacts.GpuDirect;
import hostside.io.facts.IoFacts.Nic;
import hostside.io.facts.IoFacts.Queue;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.io.facts.IoFacts.RdmaPort;
import hostside.machine.PciLink;

/**
 * The storage and network facts as a document's blocks: a section per kind (data paths, block
 * devices, network interfaces, RDMA, GPUDirect), only when it has rows, then what could not be
 * read. What the text view and the report's Markdown each showed, the union.
 */
public final class IoFactsBlocks {
    private IoFactsBlocks() {}

    public static List<Block> of(IoFacts f) {
        List<Block> out = new ArrayList<>();
        dataDirs(f, out);
        blockDevices(f, out);
        nics(f, out);
        rdma(f, out);
        gpuDirect(f.gpuDirect(), out);
        for (String u : f.unknowns()) out.add(Note.of("unknown: " + u));
        return out;
    }

    /** A table under a title, left out when it has no rows. */
    private static void section(List<Block> out, String title, List<Column> columns, List<List<Text>> rows) {
        if (!rows.isEmpty()) out.add(new Section(title, List.of(new Block.Table(columns, rows))));
    }

    private static List<Column> columns(String... headers) {
        return java.util.Arrays.stream(headers).map(h -> new Column(h, Align.LEFT)).toList();
    }

    /** {@code headers}, those at {@code right} right-aligned (figures). */
    private static List<Column> columns(List<Integer> right, String... headers) {
        List<Column> c = new ArrayList<>(columns(headers));
        for (int i : right) c.set(i, new Column(headers[i], Align.RIGHT));
        return c;
    }

    private static List<Text> row(String... cells) {
        return java.util.Arrays.stream(cells).map(Text::of).toList();
    }

    private static void dataDirs(IoFacts f, List<Block> out) {
        List<List<Text>> rows = new ArrayList<>();
        for (DataDir d : f.dataDirs()) {
            String path = d.realPath().equals(d.path()) ? d.path() : d.path() + " -> " + d.realPath();
            Text where = Text.code(path).plain(Boolean.FALSE.equals(d.exists()) ? " (missing)" : "");
            if (d.filesystem() == null) {
                List<Text> r = new ArrayList<>(List.of(where, Text.of("unknown (no mount table)")));
                while (r.size() < 9) r.add(Text.of(""));
                rows.add(r);
                continue;
            }
            IoFacts.Filesystem m = d.filesystem();
            String storage = m.storage() + ": " + m.what();
            if (d.upperDir() != null) {
                storage += d.upper() == null ? ", upper layer not visible from here"
                        : ", upper layer on " + d.upper().type() + " at " + d.upper().mountPoint();
            }
            List<Text> r = new ArrayList<>(List.of(where));
            r.addAll(row(m.mountPoint(), m.type(), storage, m.source(), dash(d.blockDevice()), d.disks().isEmpty() ? "-" : String.join(", ", d.disks()),
                    d.readAheadKb() == null ? "-" : kib(d.readAheadKb()), m.options().isEmpty() ? "-" : String.join(",", m.options())));
            rows.add(r);
        }
        section(out, "Data paths", columns(List.of(7), "data dir", "mounted at", "fs", "storage", "source", "device", "disks", "read-ahead", "options"), rows);
    }

    private static void blockDevices(IoFacts f, List<Block> out) {
        List<List<Text>> rows = new ArrayList<>();
        for (BlockDevice b : f.blockDevices()) {
            Queue q = b.queue();
            String kind = b.remote() == null ? b.kind().toString() : b.kind() + " (" + b.remote() + ")";
            String blocks = q.logicalBlockBytes() == null ? "-" : q.logicalBlockBytes()
                    + (q.physicalBlockBytes() == null || q.physicalBlockBytes().equals(q.logicalBlockBytes()) ? "" : "/" + q.physicalBlockBytes());
            String built = b.slaves().isEmpty() ? "-" : String.join(", ", b.slaves())
                    + (b.physical().equals(b.slaves()) ? "" : " (disks " + String.join(", ", b.physical()) + ")");
            rows.add(row(b.name(), kind, dash(b.model()), Units.bytes(b.sizeBytes()),
                    b.rotational() == null ? "unknown" : b.rotational() ? "yes" : "no", scheduler(q), Units.orUnknown(q.nrRequests()), blocks,
                    q.readAheadKb() == null ? "unknown" : kib(q.readAheadKb()), q.maxSectorsKb() == null ? "unknown" : kib(q.maxSectorsKb()), built,
                    b.controller() == null ? "-" : Units.orUnknown(b.controller().numaNode()), b.controller() == null ? "-" : link(b.controller().link())));
        }
        section(out, "Block devices", columns(List.of(3, 6, 8, 9), "device", "kind", "model", "size", "rotational", "scheduler", "queue", "blocks",
                "read-ahead", "max I/O", "built from", "NUMA", "PCIe link"), rows);
    }

    private static String scheduler(Queue q) {
        if (q.scheduler() == null) return "unknown";
        List<String> others = new ArrayList<>(q.schedulers());
        others.remove(q.scheduler());
        return others.isEmpty() ? q.scheduler() : q.scheduler() + " (of " + String.join(", ", q.schedulers()) + ")";
    }

    private static void nics(IoFacts f, List<Block> out) {
        List<List<Text>> rows = new ArrayList<>();
        boolean virtual = false;
        for (Nic n : f.nics()) {
            virtual |= n.virtual();
            rows.add(row(n.name(), dash(n.type()), dash(n.driver()),
                    n.speedMbps() != null ? IoVerdicts.gbps(n.speedMbps()) : "unknown (" + n.speedUnknown() + ")",
                    Units.orUnknown(n.mtu()), dash(n.operstate()), dash(n.pciAddress()), n.virtual() ? "-" : Units.orUnknown(n.numaNode()),
                    link(n.link()), n.rdmaDevices().isEmpty() ? "-" : String.join(", ", n.rdmaDevices())));
        }
        section(out, virtual ? "Network interfaces (virtual only: no device behind any of them, as in a container)" : "Network interfaces",
                columns(List.of(3, 4), "interface", "type", "driver", "speed", "MTU", "state", "PCI", "NUMA", "PCIe link", "RDMA"), rows);
    }

    private static void rdma(IoFacts f, List<Block> out) {
        List<List<Text>> rows = new ArrayList<>();
        for (RdmaDevice r : f.rdmaDevices()) {
            String adapter = dash(r.hcaType()) + (r.firmware() == null ? "" : ", firmware " + r.firmware());
            String nets = r.netdevs().isEmpty() ? "-" : String.join(", ", r.netdevs());
            if (r.ports().isEmpty()) rows.add(row(r.name(), "-", "no ports", "", "", "", nets, adapter, dash(r.pciAddress()), Units.orUnknown(r.numaNode())));
            for (RdmaPort p : r.ports()) {
                // a port that is not ACTIVE is what the eye should land on: NCCL loses that rail
                Text state = p.state() == null ? Text.of("unknown") : p.state().equals("ACTIVE") ? Text.of(p.state()) : Text.strong(p.state());
                List<Text> cells = new ArrayList<>(row(r.name(), String.valueOf(p.port())));
                cells.add(state);
                cells.addAll(row(dash(p.physicalState()), dash(p.rate()),
                        p.linkLayer() == null ? "-" : p.linkLayer().equals("Ethernet") ? "Ethernet (RoCE)" : p.linkLayer(),
                        nets, adapter, dash(r.pciAddress()), Units.orUnknown(r.numaNode())));
                rows.add(cells);
            }
        }
        section(out, "RDMA", columns(List.of(1), "RDMA device", "port", "state", "physical", "rate", "link layer", "interfaces", "adapter", "PCI", "NUMA"), rows);
    }

    private static void gpuDirect(GpuDirect g, List<Block> out) {
        if (g == null) return;
        String from = " (" + g.modulesSource() + ")";
        List<KeyValues.Entry> e = new ArrayList<>();
        e.add(KeyValues.Entry.of("GPUDirect RDMA", g.peermem() == null ? "unknown" + from
                : g.peermem() ? g.peermemModule() + " loaded" : "nvidia_peermem not loaded" + from));
        e.add(KeyValues.Entry.of("GPUDirect Storage", g.nvidiaFs() == null ? "unknown" + from : g.nvidiaFs() ? "nvidia_fs loaded" : "nvidia_fs not loaded" + from));
        CuFile c = g.cufile();
        if (c != null) {
            e.add(KeyValues.Entry.of(c.path(), !c.present() ? "absent" : c.error() != null ? "unreadable: " + c.error()
                    : "allow_compat_mode " + flag(c.allowCompatMode()) + ", use_poll_mode " + flag(c.usePollMode())));
        }
        out.add(new Section("GPUDirect", List.of(new KeyValues(e))));
    }

    /** Whole MiB as MiB, anything else in KiB: 1280 KiB is not "1.3 MiB". */
    private static String kib(long kb) {
        return kb % 1024 == 0 && kb > 0 ? Units.bytes(kb * 1024) : kb + " KiB";
    }

    private static String flag(Boolean b) {
        return b == null ? "not set" : b.toString();
    }

    private static String link(PciLink l) {
        if (l == null) return "-";
        String now = l.current(), max = l.max();
        return now.equals(max) ? now : now + " (max " + max + ")";
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
