package hostside.io;

import java.util.Locale;
import java.util.Map;

import hostside.harness.Result;
import hostside.core.Style;
import hostside.core.Table;
import hostside.core.Units;

/** The human view of one Module 4 I/O run. */
public final class IoView {
    private final IoRun run;
    private final Style style;

    public IoView(IoRun run, Style style) {
        this.run = run;
        this.style = style;
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(style.bold("Storage and network: how checkpoints and datasets reach memory")).append('\n');
        if (run.facts() != null) sb.append(new hostside.io.facts.IoFactsView(run.facts(), style).render());
        hostside.core.FindingLines.render(sb, run.findings(), style);
        measurements(sb);
        if (!run.verdicts().isEmpty()) {
            sb.append("\nWhat it means\n");
            for (String v : run.verdicts()) sb.append("  ").append(v).append('\n');
        }
        return sb.toString();
    }

    private void measurements(StringBuilder sb) {
        if (run.results().isEmpty()) return;
        java.util.Set<String> whys = new java.util.HashSet<>();
        run.results().forEach(r -> whys.add(r.isOk() ? "" : r.why()));
        if (whys.size() == 1 && !whys.contains("")) {
            sb.append("\nMeasurements: not run: ").append(whys.iterator().next()).append('\n');
            return;
        }
        IoRun.FileUsed f = run.file();
        sb.append('\n').append(style.bold("Reads and writes")).append(f == null ? "" : " of " + f.path() + " (" + Units.bytes(f.bytes()) + ", " + f.filesystem() + ")")
                .append(", median of the samples with min and max\n");
        Table t = new Table("measurement", "median", "min", "max", "unit", "also", "latency p50", "p99").right(1, 2, 3, 5, 6, 7);
        StringBuilder skipped = new StringBuilder();
        for (Result r : run.results()) {
            if (!r.isOk()) {
                // below the table: a sentence in a figure's column would stretch every row
                skipped.append("  ").append(r.key()).append(": ").append(r.status()).append(": ").append(r.why()).append('\n');
                continue;
            }
            String also = "";
            if (hostside.harness.MapDetail.of(r).get("iops") instanceof Number n) also = String.format(Locale.ROOT, "%,.0f IOPS", n.doubleValue());
            else if (hostside.harness.MapDetail.of(r).get("gbPerS") instanceof Number n) also = String.format(Locale.ROOT, "%.2f GB/s", n.doubleValue());
            else if (hostside.harness.MapDetail.of(r).get("fsyncMs") instanceof Number n) also = String.format(Locale.ROOT, "fsync %.0f ms", n.doubleValue());
            String p50 = "", p99 = "";
            if (hostside.harness.MapDetail.of(r).get("latencyUs") instanceof Map<?, ?> lat) {
                p50 = us(lat.get("p50"));
                p99 = us(lat.get("p99"));
            }
            boolean iops = r.unit() == hostside.core.Unit.IOPS;
            t.row(r.key(), iops ? String.format(Locale.ROOT, "%,.0f", r.value().median()) : Units.figure(r.value().median()),
                    iops ? String.format(Locale.ROOT, "%,.0f", r.value().min()) : Units.figure(r.value().min()),
                    iops ? String.format(Locale.ROOT, "%,.0f", r.value().max()) : Units.figure(r.value().max()), r.unit(), also, p50, p99);
        }
        if (!t.isEmpty()) sb.append(t.render("  "));
        sb.append(skipped);
        run.results().stream().filter(r -> r.isOk() && hostside.harness.MapDetail.of(r).get("pageCacheBytes") instanceof Number).filter(r -> r.key().equals("seq_read_warm_qd1"))
                .findFirst().ifPresent(r -> sb.append("  page cache held by the file after the warm reads: ")
                        .append(Units.bytes(((Number) hostside.harness.MapDetail.of(r).get("pageCacheBytes")).longValue())).append('\n'));
    }

    private static String us(Object v) {
        return v instanceof Number n ? (n.doubleValue() >= 100 ? String.format(Locale.ROOT, "%.0f us", n.doubleValue()) : String.format(Locale.ROOT, "%.1f us", n.doubleValue())) : "";
    }
}
