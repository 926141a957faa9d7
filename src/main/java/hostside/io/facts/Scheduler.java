package hostside.io.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * queue/scheduler: every scheduler the kernel offers for a device, the one in use in brackets
 * ("none [mq-deadline] kyber bfq"). Devices with no choice (device-mapper, some virtual ones) print
 * the one name bare ("none").
 *
 * @param selected the one in use
 * @param offered  every one offered, in the kernel's order
 */
record Scheduler(String selected, List<String> offered) {
    /** Null for text that is no scheduler list: empty, two bracketed names, names with odd characters. */
    static Scheduler parse(String text) {
        if (text == null || text.isBlank()) return null;
        String[] words = text.strip().split("\\s+");
        String selected = null;
        List<String> offered = new ArrayList<>();
        for (String w : words) {
            boolean bracketed = w.startsWith("[") && w.endsWith("]") && w.length() > 2;
            String name = bracketed ? w.substring(1, w.length() - 1) : w;
            if (!name.matches("[a-z0-9][a-z0-9_+-]*")) return null;
            if (bracketed) {
                if (selected != null) return null;
                selected = name;
            }
            offered.add(name);
        }
        if (selected == null) {
            if (words.length != 1) return null;
            selected = words[0];
        }
        return new Scheduler(selected, List.copyOf(offered));
    }
}
