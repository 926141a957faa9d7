package hostside.cpu.trace;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import hostside.core.Units;
import hostside.doc.Block;
import hostside.doc.Text;

/** The profiles as tables of the trace's document ({@link Block.Table}), figures right-aligned. */
public final class ProfileTables {
    private ProfileTables() {}

    /** A table filled row by row, as core's Table was: headers, the right-aligned columns, then rows of cells. */
    private static final class Table {
        private final List<Block.Table.Column> columns = new ArrayList<>();
        private final List<List<Text>> rows = new ArrayList<>();

        Table(String... headers) {
            for (String h : headers) columns.add(new Block.Table.Column(h, Block.Table.Align.LEFT));
        }

        Table right(int... cols) {
            for (int c : cols) columns.set(c, new Block.Table.Column(columns.get(c).header(), Block.Table.Align.RIGHT));
            return this;
        }

        void row(Object... cells) {
            List<Text> r = new ArrayList<>();
            for (Object c : cells) r.add(Text.of(String.valueOf(c)));
            rows.add(r);
        }

        Block.Table block() {
            return new Block.Table(columns, rows);
        }
    }

    /** One row per group: calls, seconds, share, and its top syscalls. */
    public static Block.Table groups(SyscallProfile p) {
        Table t = new Table("group", "calls", "seconds", "share", "top syscalls").right(1, 2, 3);
        for (SyscallProfile.GroupStats g : p.groups()) {
            t.row(g.group().label(), String.format(Locale.ROOT, "%,d", g.calls()), seconds(g.seconds()), Units.share(g.share()),
                    g.top().stream().limit(3).map(s -> String.format(Locale.ROOT, "%s %,d", s.name(), s.calls())).collect(Collectors.joining(", ")));
        }
        t.row("total", String.format(Locale.ROOT, "%,d", p.totalCalls()), seconds(p.totalSeconds()), p.totalCalls() == 0 ? "" : "100%", "");
        return t.block();
    }

    /**
     * Hostside's groups for both runs side by side: the summary run's counts (names only, so its
     * futex and ioctl rows are unsplit) beside the timed run's, with the timed run's split rows
     * folded back into the summary's groups so that each line compares like with like.
     */
    public static Block.Table groupsSideBySide(SyscallProfile summary, SyscallProfile timed) {
        Table t = new Table("group", "strace -c calls", "seconds", "timed trace calls", "seconds").right(1, 2, 3, 4);
        Map<SyscallGroup, long[]> calls = new EnumMap<>(SyscallGroup.class);
        Map<SyscallGroup, double[]> secs = new EnumMap<>(SyscallGroup.class);
        for (SyscallProfile.SyscallStats s : timed.syscalls()) {
            SyscallGroup g = SyscallGroup.ofName(s.name());
            calls.computeIfAbsent(g, k -> new long[1])[0] += s.calls();
            secs.computeIfAbsent(g, k -> new double[1])[0] += s.seconds();
        }
        Set<SyscallGroup> all = EnumSet.noneOf(SyscallGroup.class);
        summary.groups().forEach(g -> all.add(g.group()));
        all.addAll(calls.keySet());
        for (SyscallGroup g : all) {
            SyscallProfile.GroupStats s = summary.group(g);
            t.row(g.label(), String.format(Locale.ROOT, "%,d", s.calls()), seconds(s.seconds()), String.format(Locale.ROOT, "%,d", calls.getOrDefault(g, new long[1])[0]),
                    seconds(secs.getOrDefault(g, new double[1])[0]));
        }
        t.row("total", String.format(Locale.ROOT, "%,d", summary.totalCalls()), seconds(summary.totalSeconds()), String.format(Locale.ROOT, "%,d", timed.totalCalls()),
                seconds(timed.totalSeconds()));
        return t.block();
    }

    /** The busiest threads: calls, seconds, life, where their time went. */
    public static Block.Table threads(SyscallProfile p, int max) {
        Table t = new Table("TID", "process", "name", "calls", "seconds", "alive s", "most time in").right(0, 1, 3, 4, 5);
        for (SyscallProfile.ThreadStats th : p.threads().stream().limit(max).toList()) {
            t.row(th.tid() + (th.main() ? "*" : ""), th.process(), th.name(), String.format(Locale.ROOT, "%,d", th.calls()), seconds(th.seconds()),
                    String.format(Locale.ROOT, "%.2f", th.lifeSeconds()), th.topGroup().label() + " " + Units.share(th.topShare()));
        }
        return t.block();
    }

    /** strace -c's own table, as it printed it (the plain figures). */
    public static Block.Table summary(StraceSummary s, int max) {
        Table t = new Table("% time", "seconds", "usecs/call", "calls", "errors", "syscall").right(0, 1, 2, 3, 4);
        List<StraceSummary.Row> rows = s.rows().stream().limit(max).toList();
        for (StraceSummary.Row r : rows) {
            t.row(Double.isNaN(r.percent()) ? "" : String.format(Locale.ROOT, "%.2f", r.percent()), String.format(Locale.ROOT, "%.6f", r.seconds()),
                    Double.isNaN(r.usecsPerCall()) ? "" : String.format(Locale.ROOT, "%.0f", r.usecsPerCall()), String.format(Locale.ROOT, "%,d", r.calls()),
                    r.errors() == 0 ? "" : String.format(Locale.ROOT, "%,d", r.errors()), r.syscall());
        }
        s.total().ifPresent(r -> t.row(Double.isNaN(r.percent()) ? "" : String.format(Locale.ROOT, "%.2f", r.percent()), String.format(Locale.ROOT, "%.6f", r.seconds()),
                Double.isNaN(r.usecsPerCall()) ? "" : String.format(Locale.ROOT, "%.0f", r.usecsPerCall()), String.format(Locale.ROOT, "%,d", r.calls()),
                r.errors() == 0 ? "" : String.format(Locale.ROOT, "%,d", r.errors()), "total"));
        return t.block();
    }

    /** The cross-check's rows that were compared, or that disagree. */
    public static Block.Table crossCheck(CrossCheck.Result r, int max) {
        Table t = new Table("syscall", "strace -c", "timed trace", "difference", "").right(1, 2, 3);
        r.rows().stream().filter(row -> Math.max(row.summaryCalls(), row.traceCalls()) >= CrossCheck.MIN_CALLS || !row.why().isEmpty())
                .limit(max)
                .forEach(row -> t.row(row.syscall(), String.format(Locale.ROOT, "%,d", row.summaryCalls()), String.format(Locale.ROOT, "%,d", row.traceCalls()),
                        Units.share(row.difference()), row.agrees() ? "agree" : row.why()));
        return t.block();
    }

    static String seconds(double s) {
        return Units.figure(s);
    }

}
