package hostside.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An aligned text table: columns as wide as their widest cell, numbers right-aligned. */
public final class Table {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private final boolean[] right;

    public Table(String... header) {
        this.header = Arrays.asList(header);
        this.right = new boolean[header.length];
    }

    /** Right-aligns the given columns (figures). */
    public Table right(int... columns) {
        for (int c : columns) right[c] = true;
        return this;
    }

    public Table row(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) r.add(c == null ? "" : c.toString());
        while (r.size() < header.size()) r.add("");
        rows.add(r);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** Renders with the given indent; ANSI colour codes do not count towards widths. */
    public String render(String indent) {
        int n = header.size();
        int[] w = new int[n];
        for (int i = 0; i < n; i++) w[i] = visible(header.get(i));
        for (List<String> r : rows) for (int i = 0; i < n; i++) w[i] = Math.max(w[i], visible(r.get(i)));
        StringBuilder sb = new StringBuilder();
        line(sb, indent, header, w);
        for (List<String> r : rows) line(sb, indent, r, w);
        return sb.toString();
    }

    private void line(StringBuilder sb, String indent, List<String> cells, int[] w) {
        StringBuilder l = new StringBuilder(indent);
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            String pad = " ".repeat(w[i] - visible(c));
            l.append(right[i] ? pad + c : c + (i == cells.size() - 1 ? "" : pad));
            if (i < cells.size() - 1) l.append("  ");
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    private static int visible(String s) {
        return s.replaceAll("\u001b\\[[0-9;]*m", "").length();
    }
}
