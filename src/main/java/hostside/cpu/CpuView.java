package hostside.cpu;

import java.util.Map;

import hostside.harness.Result;
import hostside.report.Style;
import hostside.report.Table;
import hostside.report.Units;

/** The human view of one Module 3 run. */
public final class CpuView {
    private final CpuRun run;
    private final Style style;

    public CpuView(CpuRun run, Style style) {
        this.run = run;
        this.style = style;
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        measurements(sb);
        if (!run.verdicts().isEmpty()) {
            sb.append("\nWhat it means\n");
            for (String v : run.verdicts()) sb.append("  ").append(v).append('\n');
        }
        return sb.toString();
    }

    private void measurements(StringBuilder sb) {
        var m = run.measured();
        if (m.results().isEmpty()) return;
        sb.append(style.bold("What the scheduler charges")).append(", median of the samples with min and max\n");
        Table t = new Table("measurement", "median", "min", "max", "unit", "n").right(1, 2, 3, 5);
        for (Result x : m.results()) {
            if (x.key().startsWith("launch_jitter")) continue;
            if (x.isOk()) t.row(x.key(), Units.figure(x.value().median()), Units.figure(x.value().min()), Units.figure(x.value().max()), x.unit(), x.value().samples());
            else t.row(x.key(), x.status() + ": " + x.why(), "", "", "", "");
        }
        sb.append(t.render("  ")).append('\n');
        sb.append(style.bold("Launch jitter")).append(m.gpu().isEmpty() ? " (no GPU: " + m.noGpu() + "; a timer-driven feeder, cyclictest's method)" : " on " + m.gpu())
                .append(", us\n");
        Table j = new Table("condition", "late p50", "p99", "p99.9", "max", "launch p50", "p99", "p99.9", "max", "gap p99", "max")
                .right(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        for (Result x : m.results()) {
            if (!x.key().startsWith("launch_jitter")) continue;
            String cond = x.key().substring("launch_jitter_".length());
            if (!x.isOk()) {
                j.row(cond, x.status() + ": " + x.why(), "", "", "", "", "", "", "", "", "");
                continue;
            }
            Map<?, ?> late = (Map<?, ?>) x.detail().get("lateNs"), launch = (Map<?, ?>) x.detail().get("launchNs"), gap = (Map<?, ?>) x.detail().get("gapNs");
            j.row(cond, us(late, "p50"), us(late, "p99"), us(late, "p99.9"), us(late, "max"), us(launch, "p50"), us(launch, "p99"), us(launch, "p99.9"),
                    us(launch, "max"), us(gap, "p99"), us(gap, "max"));
        }
        sb.append(j.render("  "));
    }

    private static String us(Map<?, ?> m, String k) {
        if (m == null || !(m.get(k) instanceof Number n)) return "-";
        return String.format("%.1f", n.doubleValue() / 1e3);
    }
}
