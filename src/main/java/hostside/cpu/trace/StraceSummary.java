package hostside.cpu.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The table {@code strace -c} prints ("% time, seconds, usecs/call, calls, errors, syscall",
 * then a "total" row), read back. With {@code -w} the seconds are wall time spent in each call,
 * summed over threads; without it, system CPU time.
 *
 * <p>Columns are found from the dashed line under the header, so a blank "errors" cell, the
 * blank "usecs/call" of the total row in strace 4, and extra or missing columns read right.
 * A trace of a 32-bit program as well prints one table per mode; their rows are added up.
 *
 * @param rows    one per syscall, in strace's order (most time first)
 * @param total   the "total" row as printed, if there was one
 * @param ignored lines that were neither header, rule nor row
 */
public record StraceSummary(List<Row> rows, Optional<Row> total, List<String> ignored) {
    public StraceSummary {
        rows = List.copyOf(rows);
        ignored = List.copyOf(ignored);
    }

    /**
     * One row. {@code percent} and {@code usecsPerCall} are NaN where the table had no such
     * cell; {@code errors} is 0 where the cell was blank.
     */
    public record Row(String syscall, double percent, double seconds, double usecsPerCall, long calls, long errors) {}

    /** The summary of a window in which no call finished: strace -c then prints no table at all. */
    public static StraceSummary none() {
        return new StraceSummary(List.of(), Optional.empty(), List.of());
    }

    public long totalCalls() {
        return total.map(Row::calls).orElseGet(() -> rows.stream().mapToLong(Row::calls).sum());
    }

    public double totalSeconds() {
        return total.map(Row::seconds).orElseGet(() -> rows.stream().mapToDouble(Row::seconds).sum());
    }

    public long calls(String syscall) {
        return rows.stream().filter(r -> r.syscall().equals(syscall)).mapToLong(Row::calls).sum();
    }

    /** Calls per syscall name. */
    public Map<String, Long> callsByName() {
        Map<String, Long> m = new TreeMap<>();
        for (Row r : rows) m.merge(r.syscall(), r.calls(), Long::sum);
        return m;
    }

    /**
     * Reads {@code strace -c} output. Throws {@link UnreadableTraceException} when the text holds
     * no such table (empty, or something else).
     */
    public static StraceSummary parse(String text) {
        if (text == null || text.isBlank()) throw new UnreadableTraceException("strace -c wrote no summary (empty output)");
        String[] lines = text.split("\\R");
        Map<String, Row> rows = new LinkedHashMap<>();
        List<Row> totals = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        Layout layout = null;
        int tables = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) continue;
            if (isHeader(line) && i + 1 < lines.length && isRule(lines[i + 1])) {
                layout = Layout.of(line, lines[i + 1]);
                tables++;
                i++;
                continue;
            }
            if (isRule(line)) continue;
            if (layout == null) {
                ignored.add(line);
                continue;
            }
            Optional<Row> r = layout.row(line);
            if (r.isEmpty()) {
                ignored.add(line);
                continue;
            }
            Row row = r.get();
            if (row.syscall().equals("total")) {
                totals.add(row);
            } else {
                rows.merge(row.syscall(), row, (a, b) -> new Row(a.syscall(), Double.NaN, a.seconds() + b.seconds(),
                        (a.calls() + b.calls()) == 0 ? 0 : 1e6 * (a.seconds() + b.seconds()) / (a.calls() + b.calls()),
                        a.calls() + b.calls(), a.errors() + b.errors()));
            }
        }
        if (tables == 0) {
            throw new UnreadableTraceException("not strace -c output: no \"% time ... calls ... syscall\" header in "
                    + firstWords(text));
        }
        Optional<Row> total = Optional.empty();
        if (totals.size() == 1) {
            total = Optional.of(totals.getFirst());
        } else if (totals.size() > 1) {
            long calls = totals.stream().mapToLong(Row::calls).sum();
            double secs = totals.stream().mapToDouble(Row::seconds).sum();
            total = Optional.of(new Row("total", 100.0, secs, calls == 0 ? 0 : 1e6 * secs / calls, calls,
                    totals.stream().mapToLong(Row::errors).sum()));
        }
        return new StraceSummary(new ArrayList<>(rows.values()), total, ignored);
    }

    private static String firstWords(String text) {
        String t = text.strip().lines().findFirst().orElse("");
        return "\"" + (t.length() > 60 ? t.substring(0, 60) + "..." : t) + "\"";
    }

    static boolean isHeader(String line) {
        String l = line.toLowerCase(Locale.ROOT);
        return l.contains("calls") && (l.contains("syscall") || l.contains("name"));
    }

    static boolean isRule(String line) {
        String t = line.strip();
        if (t.length() < 10 || t.chars().anyMatch(c -> c != '-' && c != ' ')) return false;
        return t.split(" +").length >= 3;
    }

    enum Col { PERCENT, SECONDS, USECS, CALLS, ERRORS, NAME, OTHER }

    /** Column positions taken from the rule under the header; headers sit right-aligned above. */
    record Layout(List<int[]> spans, List<Col> cols) {
        static Layout of(String header, String rule) {
            List<int[]> spans = new ArrayList<>();
            int i = 0;
            while (i < rule.length()) {
                while (i < rule.length() && rule.charAt(i) != '-') i++;
                if (i >= rule.length()) break;
                int s = i;
                while (i < rule.length() && rule.charAt(i) == '-') i++;
                spans.add(new int[] {s, i});
            }
            List<Col> cols = new ArrayList<>();
            for (int k = 0; k < spans.size(); k++) {
                int s = spans.get(k)[0], e = k == spans.size() - 1 ? header.length() : spans.get(k)[1];
                String h = s >= header.length() ? "" : header.substring(s, Math.min(e, header.length())).strip().toLowerCase(Locale.ROOT);
                cols.add(switch (h) {
                    case "% time", "%time", "time-percent" -> Col.PERCENT;
                    case "seconds", "total-time", "total time" -> Col.SECONDS;
                    case "usecs/call", "avg-time", "avg time" -> Col.USECS;
                    case "calls" -> Col.CALLS;
                    case "errors" -> Col.ERRORS;
                    case "syscall", "name", "syscall name" -> Col.NAME;
                    default -> k == spans.size() - 1 ? Col.NAME : Col.OTHER;
                });
            }
            return new Layout(spans, cols);
        }

        Optional<Row> row(String line) {
            String[] cells = new String[cols.size()];
            boolean aligned = true;
            int i = 0;
            while (i < line.length()) {
                while (i < line.length() && line.charAt(i) == ' ') i++;
                if (i >= line.length()) break;
                int s = i;
                while (i < line.length() && line.charAt(i) != ' ') i++;
                int col = columnOf(s, i);
                if (col < 0 || cells[col] != null) {
                    aligned = false;
                    break;
                }
                cells[col] = line.substring(s, i);
            }
            if (!aligned) cells = byOrder(line);
            return cells == null ? Optional.empty() : build(cells);
        }

        /** The column a token belongs to: the name column by its start, numbers by their right end. */
        private int columnOf(int start, int end) {
            int last = spans.size() - 1;
            if (cols.get(last) == Col.NAME && start >= spans.get(last)[0]) return last;
            for (int k = 0; k < spans.size(); k++) {
                int[] sp = spans.get(k);
                if (end > sp[0] && end <= sp[1]) return k;
            }
            return -1;
        }

        /** Fallback for a row whose figures outgrew their columns: tokens in order, a blank errors cell allowed. */
        private String[] byOrder(String line) {
            String[] tok = line.strip().split(" +");
            String[] cells = new String[cols.size()];
            if (tok.length == cols.size()) return tok;
            int errors = cols.indexOf(Col.ERRORS);
            if (tok.length == cols.size() - 1 && errors >= 0) {
                for (int k = 0, t = 0; k < cells.length; k++) cells[k] = k == errors ? null : tok[t++];
                return cells;
            }
            return null;
        }

        private Optional<Row> build(String[] cells) {
            String name = null;
            double percent = Double.NaN, seconds = Double.NaN, usecs = Double.NaN;
            Long calls = null;
            long errors = 0;
            for (int k = 0; k < cells.length; k++) {
                String c = cells[k];
                if (c == null) continue;
                switch (cols.get(k)) {
                    case NAME -> name = c;
                    case PERCENT -> percent = num(c);
                    case SECONDS -> seconds = num(c);
                    case USECS -> usecs = num(c);
                    case CALLS -> {
                        OptionalLong n = Args.number(c);
                        if (n.isEmpty() || !c.chars().allMatch(Character::isDigit)) return Optional.empty();
                        calls = n.getAsLong();
                    }
                    case ERRORS -> {
                        if (!c.chars().allMatch(Character::isDigit)) return Optional.empty();
                        errors = Long.parseLong(c);
                    }
                    case OTHER -> { }
                }
            }
            if (name == null || calls == null || !validName(name)) return Optional.empty();
            if (cols.contains(Col.SECONDS) && Double.isNaN(seconds)) return Optional.empty();
            if (cols.contains(Col.PERCENT) && Double.isNaN(percent) && !name.equals("total")) return Optional.empty();
            return Optional.of(new Row(name, percent, Double.isNaN(seconds) ? 0 : seconds, usecs, calls, errors));
        }

        private static boolean validName(String n) {
            return n.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '?');
        }

        private static double num(String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
    }
}
