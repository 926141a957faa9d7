package hostside.vm.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import hostside.core.Table;
import hostside.core.Units;

/**
 * Steps as terminal text. Most states draw themselves from their shape (scalars as an aligned "name value" block,
 * lists of rows as tables); the COW states get a page grid of their own (CowText), because a process-by-page view
 * is the picture the reader has to learn.
 */
final class StepText {
    static final int WIDTH = 88;
    static final String INDENT = "  ";
    private static final Set<String> ACRONYMS = Set.of("rss", "pss", "uss", "tlb", "va");

    private StepText() {}

    static List<String> lines(Step step, int total) {
        List<String> out = new ArrayList<>();
        out.add("Step " + step.number() + " of " + total + ": " + step.title());
        out.addAll(wrap(step.narration(), WIDTH - INDENT.length(), INDENT));
        List<String> picture = step.state() instanceof CowState cow ? CowText.picture(cow)
                : picture(step.number() == 1 ? step.plainState() : withoutContext(step.plainState()));
        if (!picture.isEmpty()) {
            out.add("");
            for (String l : picture) out.add(l.isEmpty() ? l : INDENT + l);
        }
        return out;
    }

    /** What every page-walk step repeats (the layout, the address): said once, in step 1, is enough on a terminal. */
    private static Map<String, Object> withoutContext(Map<String, Object> state) {
        Map<String, Object> m = new LinkedHashMap<>(state);
        m.remove("layout");
        m.remove("address");
        return m;
    }

    /** Scalars first as a name/value block, then each list of rows as a table under its name. */
    static List<String> picture(Map<String, Object> state) {
        List<String> out = new ArrayList<>();
        Table block = new Table("", "");
        for (var e : state.entrySet()) {
            if (e.getKey().equals("kind") || e.getValue() instanceof List<?> || e.getValue() instanceof Map<?, ?>) continue;
            block.row(label(e.getKey()), value(e.getKey(), e.getValue()));
        }
        // The block's header row is empty: drop it.
        block.render("").lines().skip(1).forEach(out::add);
        for (var e : state.entrySet()) {
            if (e.getValue() instanceof List<?> list && !list.isEmpty() && list.getFirst() instanceof Map<?, ?>) {
                out.add("");
                out.add(label(e.getKey()) + ":");
                table(list).lines().forEach(out::add);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static String table(List<?> rows) {
        Map<String, Object> first = (Map<String, Object>) rows.getFirst();
        List<String> keys = first.entrySet().stream()
                .filter(e -> !(e.getValue() instanceof List<?>) && !(e.getValue() instanceof Map<?, ?>))
                .map(Map.Entry::getKey).toList();
        Table t = new Table(keys.stream().map(StepText::label).toArray(String[]::new));
        for (int c = 0; c < keys.size(); c++) if (first.get(keys.get(c)) instanceof Number) t.right(c);
        for (Object r : rows) {
            Map<String, Object> row = (Map<String, Object>) r;
            t.row(keys.stream().map(k -> value(k, row.get(k))).toArray());
        }
        return t.render("");
    }

    /** camelCase key to words; a trailing "Bytes" is a unit, shown in the value instead. */
    static String label(String key) {
        String k = key.endsWith("Bytes") && key.length() > 5 ? key.substring(0, key.length() - 5) : key;
        List<String> words = new ArrayList<>();
        for (String w : k.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT).split(" "))
            words.add(ACRONYMS.contains(w) ? w.toUpperCase(Locale.ROOT) : w);
        return String.join(" ", words);
    }

    static String value(String key, Object v) {
        if (v == null) return "-";
        if (key.endsWith("Bytes") && v instanceof Number n) return size(n);
        if (v instanceof Boolean b) return b ? "yes" : "no";
        return v.toString();
    }

    /** Binary units; a fractional PSS keeps one decimal in the unit it lands in. */
    static String size(Number n) {
        return Units.bytes(Math.round(n.doubleValue()));
    }

    static List<String> wrap(String text, int width, String indent) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split("\\s+")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                out.add(indent + line);
                line.setLength(0);
            }
            if (!line.isEmpty()) line.append(' ');
            line.append(word);
        }
        if (!line.isEmpty()) out.add(indent + line);
        return out;
    }
}
