package hostside.health;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import hostside.doc.Block;
import hostside.doc.Block.Findings;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Document;
import hostside.doc.Text;
import hostside.gpu.nvml.ClockEvents;
import hostside.gpu.nvml.GpuHealth;
import hostside.gpu.nvml.NvmlHealth;

/**
 * What {@code hostside health} shows, said once for the terminal, the report and HTML: the verdict
 * line, the findings, then what was read: each GPU's memory, state and links as NVML gave them,
 * the PCIe links, and the Xids of the kernel log.
 */
public final class HealthDocument {
    private HealthDocument() {}

    public static Document of(HealthRun run) {
        HealthFacts f = run.facts();
        List<Block> blocks = new ArrayList<>();
        blocks.add(new Section("Findings", List.of(new Findings(run.findings(), "none"),
                Paragraph.of(String.format(Locale.ROOT, "%d check%s looked and found nothing wrong.", run.passed().size(),
                        run.passed().size() == 1 ? "" : "s")))));
        blocks.add(new Section("GPUs, as NVML answered", gpus(f.nvml())));
        blocks.add(new Section("PCIe links of GPUs and NICs", List.of(links(f.links()))));
        blocks.add(new Section("Xids in the kernel log", xids(f.xids())));
        return new Document("hostside health: " + run.verdict(), blocks);
    }

    private static List<Block> gpus(NvmlHealth n) {
        List<Block> out = new ArrayList<>();
        if (n.notRun() != null) {
            out.add(Note.of("not read: " + n.notRun()));
            return out;
        }
        out.add(Paragraph.of("driver " + q(n.driverVersion()) + ", NVML " + q(n.nvmlVersion()) + ", CUDA " + q(n.cudaDriverVersion())));
        List<List<Text>> memory = new ArrayList<>(), state = new ArrayList<>();
        for (GpuHealth g : n.gpus()) {
            String s = "GPU" + g.index();
            GpuHealth.Memory m = g.memory();
            memory.add(row(s, m == null ? "?" : onOff(m.eccEnabled()),
                    m == null ? "?" : q(GpuChecks.uncorrected(m.volatileErrors())) + " / " + q(GpuChecks.uncorrected(m.aggregateErrors())),
                    m == null || m.remappedRows() == null ? "n/a" : q(m.remappedRows().correctable()) + " / " + q(m.remappedRows().uncorrectable()),
                    m == null || m.remappedRows() == null ? "n/a" : yesNo(m.remappedRows().pending()) + " / " + yesNo(m.remappedRows().failureOccurred()),
                    m == null || m.remapHistogram() == null ? "n/a" : q(m.remapHistogram().none()),
                    m == null || m.retiredPages() == null ? "n/a" : q(GpuChecks.sum(m.retiredPages().singleBit(), m.retiredPages().doubleBit()))));
            GpuHealth.State st = g.state();
            GpuHealth.Pcie p = g.pcie();
            state.add(row(s, st == null ? "?" : q(st.gpuTempC()) + " C (" + q(st.marginTempC()) + " to slowdown)",
                    st == null ? "?" : watts(st.powerAverageMw()) + " / " + watts(st.powerLimitMw()),
                    st == null || st.clockEventReasons() == null ? "?" : reasons(st.clockEventReasons()),
                    st == null ? "?" : onOff(st.persistenceMode()),
                    st == null || st.recoveryAction() == null ? "?" : st.recoveryAction().toString(),
                    p == null ? "?" : "Gen" + q(p.gen()) + " x" + q(p.width()) + " of Gen" + q(p.maxGen()) + " x" + q(p.maxWidth()),
                    p == null ? "?" : q(p.replays()),
                    g.nvLinks() == null ? "?" : g.nvLinks().isEmpty() ? "none" : g.nvLinks().stream().filter(GpuHealth.Link::active).count() + "/" + g.nvLinks().size()));
        }
        out.add(new Table(columns("GPU", "ECC", "uncorrectable (volatile / life)", "remapped rows (corr. / unc.)", "remap pending / failed",
                "banks without spare", "retired pages"), memory));
        out.add(new Table(columns("GPU", "temperature", "power / limit", "clocks held by", "persistence", "recovery action", "PCIe",
                "PCIe replays", "NVLink active"), state));
        return out;
    }

    private static Table links(List<DeviceLink> links) {
        List<List<Text>> rows = new ArrayList<>();
        for (DeviceLink l : links) {
            rows.add(row(l.address(), l.kind().toString(), l.label(), l.idle() == null ? "?" : l.idle().current(), l.idle() == null ? "?" : l.idle().max(),
                    l.underLoad() != null ? l.underLoad().current() : l.notLoaded() != null ? "not read: " + l.notLoaded() : "-"));
        }
        return new Table(columns("device", "kind", "name", "link at rest", "maximum", "under load"), rows);
    }

    private static List<Block> xids(XidLog log) {
        if (log.notRead() != null) return List.of(Note.of("not read: " + log.notRead()));
        if (log.seen().isEmpty()) return List.of(Paragraph.of("none since boot, as far as the kernel's ring buffer goes"));
        List<List<Text>> rows = new ArrayList<>();
        for (XidLog.Seen s : log.seen()) {
            rows.add(row(s.pci(), Integer.toString(s.code()), Integer.toString(s.count()), s.lastAgoSeconds() == null ? "?" : XidLog.ago(s.lastAgoSeconds()),
                    s.hardware() ? "the GPU's" : "the application's", s.meaning()));
        }
        return List.of(new Table(columns("GPU", "Xid", "count", "last, ago", "whose", "meaning"), rows));
    }

    private static String reasons(long bits) {
        List<String> names = ClockEvents.names(bits);
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    private static String watts(Integer mw) {
        return mw == null ? "?" : String.format(Locale.ROOT, "%.0f W", mw / 1000.0);
    }

    private static List<Column> columns(String... headers) {
        return Arrays.stream(headers).map(h -> new Column(h, Align.LEFT)).toList();
    }

    private static List<Text> row(String... cells) {
        return Arrays.stream(cells).map(Text::of).toList();
    }

    private static String q(Object o) {
        return o == null ? "?" : o.toString();
    }

    private static String onOff(Boolean b) {
        return b == null ? "?" : b ? "on" : "off";
    }

    private static String yesNo(Boolean b) {
        return b == null ? "?" : b ? "yes" : "no";
    }
}
