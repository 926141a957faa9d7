package hostside.io;

import java.util.Locale;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;
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
            String also = "", p50 = "", p99 = "";
            if (r.detail() instanceof ReadTest.ReadDetail d) {
                Stats other = d.otherUnit(r.unit(), r.value());
                also = r.unit() == Unit.GB_PER_S ? String.format(Locale.ROOT, "%,.0f IOPS", other.median()) : String.format(Locale.ROOT, "%.2f GB/s", other.median());
                if (d.latencyUs() != null) {
                    p50 = us(d.latencyUs().p50());
                    p99 = us(d.latencyUs().p99());
                }
            } else if (r.detail() instanceof WriteTest.WriteDetail w && w.fsyncMs() != null) {
                also = String.format(Locale.ROOT, "fsync %.0f ms", w.fsyncMs().median());
            }
            boolean iops = r.unit() == Unit.IOPS;
            t.row(r.key(), iops ? String.format(Locale.ROOT, "%,.0f", r.value().median()) : Units.figure(r.value().median()),
                    iops ? String.format(Locale.ROOT, "%,.0f", r.value().min()) : Units.figure(r.value().min()),
                    iops ? String.format(Locale.ROOT, "%,.0f", r.value().max()) : Units.figure(r.value().max()), r.unit(), also, p50, p99);
        }
        if (!t.isEmpty()) sb.append(t.render("  "));
        sb.append(skipped);
        run.results().stream().filter(r -> r.isOk() && r.key().equals("seq_read_warm_qd1") && r.detail() instanceof ReadTest.ReadDetail d && d.pageCacheBytes() != null)
                .findFirst().ifPresent(r -> sb.append("  page cache held by the file after the warm reads: ")
                        .append(Units.bytes(((ReadTest.ReadDetail) r.detail()).pageCacheBytes())).append('\n'));
    }

    private static String us(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f us", v) : String.format(Locale.ROOT, "%.1f us", v);
    }
}
