package hostside.cpu.facts;

import java.util.Locale;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * /proc/interrupts: a header of CPU columns (online CPUs only), then one row per interrupt.
 * Numbered rows are device and chip interrupts,
 * <pre>
 *  45:    0  123  IR-PCI-MSIX-0000:3b:00.0   0-edge      nvidia          (x86, 6.2+)
 *  45:    0  123  IR-PCI-MSI 1572864-edge      mlx5_comp0@pci:0000:03:00.0 (x86, older)
 *  11: 1234 2345  GICv3  27 Level     arch_timer                         (arm64)
 *  50:    0    7  ITS-MSI 524288 Edge      nvme0q0
 * </pre>
 * named rows (NMI, LOC, IPI0, ERR) are per-CPU counters with a label, and some rows are
 * shorter than the header ("ERR: 0"). Lines that are none of these are kept as unparsed.
 *
 * @param cpus     the CPU number of each count column; from the header, or 0, 1, 2... without one
 * @param header   false when there was no "CPU0 CPU1..." header (the columns are then guessed)
 * @param rows     every row, in file order
 * @param unparsed lines that are neither the header nor a row
 */
public record Interrupts(List<Integer> cpus, boolean header, List<Row> rows, List<String> unparsed) {

    /**
     * One row.
     *
     * @param id          "45", "NMI", "IPI0"
     * @param counts      the counts in column order; may be shorter than the header
     * @param chip        the interrupt chip (numbered rows), "" otherwise
     * @param hwirq       the chip's hardware number, "" when not printed
     * @param trigger     edge, fasteoi, Level... as printed, "" when not printed
     * @param actions     the handler names (numbered rows); several when the line is shared
     * @param description everything after the counts, as printed (trimmed)
     */
    public record Row(String id, List<Long> counts, String chip, String hwirq, String trigger, List<String> actions,
                      String description) {
        /** The IRQ number of a numbered row. */
        public Optional<Integer> number() {
            if (!id.matches("\\d{1,9}")) return Optional.empty();
            return Optional.of(Integer.parseInt(id));
        }

        public long total() {
            long t = 0;
            for (long c : counts) t += c;
            return t;
        }

        /** The handler names as one string, as /proc/interrupts shows them. */
        public String name() {
            return String.join(", ", actions);
        }
    }

    private static final Pattern ROW = Pattern.compile("^\\s*([A-Za-z0-9_]{1,32}):(.*)$");
    private static final Pattern TOKEN = Pattern.compile("\\S+");
    private static final Pattern COUNT = Pattern.compile("\\d{1,19}");
    /** kstat_irqs and the arch counters are unsigned int, printed with %u. */
    static final long MAX_COUNT = 0xFFFF_FFFFL;
    private static final Pattern CPU_COLUMN = Pattern.compile("CPU(\\d{1,7})");
    private static final Pattern HWIRQ = Pattern.compile("(\\d{1,20})(?:-(\\w+))?");
    private static final Pattern LEVEL = Pattern.compile("(?i)edge|level");
    private static final Pattern HANDLER = Pattern.compile("-(\\w+)");
    /** domain:bus:device.function anywhere in a chip or handler name. */
    static final Pattern BDF = Pattern.compile("([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7])");
    /** Chips of per-bus PCI MSI domains, whose hardware number encodes the device (pci_msi_domain_calc_hwirq). */
    private static final Pattern PCI_MSI_CHIP = Pattern.compile("(?:[\\w.]+-)?(?:PCI|ITS)-MSI(?:X)?");

    public static Interrupts parse(String text) {
        List<Integer> cpus = new ArrayList<>();
        boolean header = false;
        List<Row> rows = new ArrayList<>();
        List<String> unparsed = new ArrayList<>();
        if (text == null) return new Interrupts(List.of(), false, List.of(), List.of());
        boolean first = true;
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            if (first) {
                first = false;
                List<Integer> columns = header(line);
                if (columns != null) {
                    cpus.addAll(columns);
                    header = true;
                    continue;
                }
            }
            Row r = row(line, header ? cpus.size() : -1);
            if (r == null) unparsed.add(line.strip());
            else rows.add(r);
        }
        if (!header) {
            int widest = rows.stream().mapToInt(r -> r.counts().size()).max().orElse(0);
            for (int i = 0; i < widest; i++) cpus.add(i);
        }
        return new Interrupts(List.copyOf(cpus), header, List.copyOf(rows), List.copyOf(unparsed));
    }

    /** The CPU numbers of a header line, or null when the line is not one. */
    private static List<Integer> header(String line) {
        List<Integer> out = new ArrayList<>();
        for (String t : line.strip().split("\\s+")) {
            Matcher m = CPU_COLUMN.matcher(t);
            if (!m.matches()) return null;
            out.add(Integer.parseInt(m.group(1)));
        }
        return out.isEmpty() ? null : out;
    }

    private static Row row(String line, int columns) {
        Matcher m = ROW.matcher(line);
        if (!m.matches()) return null;
        String id = m.group(1), rest = m.group(2);
        List<Long> counts = new ArrayList<>();
        Matcher t = TOKEN.matcher(rest);
        int descriptionAt = rest.length();
        while (t.find()) {
            if ((columns < 0 || counts.size() < columns) && COUNT.matcher(t.group()).matches()) {
                try {
                    long c = Long.parseLong(t.group());
                    // the kernel counts each CPU's interrupts in 32 bits: a larger count is a recording's garbage, and
                    // rows' totals (summed over CPUs, then over a device's IRQs) could wrap past 2^63 with it
                    if (c > MAX_COUNT) return null;
                    counts.add(c);
                    continue;
                } catch (NumberFormatException e) {
                    return null; // a count beyond a long: garbage
                }
            }
            descriptionAt = t.start();
            break;
        }
        String description = rest.substring(descriptionAt).strip().replaceAll("\\p{Cntrl}", "?");
        if (counts.isEmpty() && description.isEmpty()) return null;
        if (!id.matches("\\d+")) {
            return new Row(id, List.copyOf(counts), "", "", "", List.of(), description);
        }
        if (counts.isEmpty()) return null; // a numbered row without a single count is garbage
        String[] tok = description.isEmpty() ? new String[0] : description.split("\\s+");
        String chip = tok.length > 0 ? tok[0] : "";
        String hwirq = "", trigger = "";
        int i = 1;
        if (i < tok.length) {
            Matcher h = HWIRQ.matcher(tok[i]);
            if (h.matches()) {
                hwirq = h.group(1);
                if (h.group(2) != null) trigger = h.group(2);
                i++;
            }
        }
        if (i < tok.length && LEVEL.matcher(tok[i]).matches()) trigger = tok[i++];
        if (i < tok.length) {
            Matcher h = HANDLER.matcher(tok[i]);
            if (h.matches()) {
                trigger = trigger.isEmpty() ? h.group(1) : trigger;
                i++;
            }
        }
        List<String> actions = new ArrayList<>();
        if (i < tok.length) {
            for (String a : String.join(" ", java.util.Arrays.copyOfRange(tok, i, tok.length)).split(",\\s*")) {
                if (!a.isBlank()) actions.add(a.strip());
            }
        }
        return new Row(id, List.copyOf(counts), chip, hwirq, trigger, List.copyOf(actions), description);
    }

    /** Numbered rows by IRQ number. */
    public Map<Integer, Row> byNumber() {
        Map<Integer, Row> out = new LinkedHashMap<>();
        for (Row r : rows) r.number().ifPresent(n -> out.putIfAbsent(n, r));
        return Collections.unmodifiableMap(out);
    }

    /** The row's non-zero counts by CPU number (columns beyond the header are left out). */
    public Map<Integer, Long> perCpu(Row r) {
        Map<Integer, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < r.counts().size() && i < cpus.size(); i++) {
            if (r.counts().get(i) != 0) out.put(cpus.get(i), r.counts().get(i));
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * The PCI devices a numbered row names: an address in its chip or handler names, or the
     * address encoded in the hardware number of a bus-wide PCI MSI chip ("PCI-MSI 1572864" is
     * 0000:03:00.0: bus, device and function from bit 11 up, the domain from bit 27).
     */
    public static List<String> addresses(Row r) {
        List<String> out = new ArrayList<>();
        Matcher m = BDF.matcher(r.chip() + " " + String.join(" ", r.actions()));
        while (m.find()) {
            String a = m.group(1).toLowerCase();
            if (!out.contains(a)) out.add(a);
        }
        if (out.isEmpty() && PCI_MSI_CHIP.matcher(r.chip()).matches() && !r.hwirq().isEmpty()) {
            try {
                long hw = Long.parseLong(r.hwirq());
                out.add(String.format(Locale.ROOT, "%04x:%02x:%02x.%x", hw >>> 27, (hw >>> 19) & 0xff,
                        (hw >>> 14) & 0x1f, (hw >>> 11) & 0x7));
            } catch (NumberFormatException e) {
                // beyond a long: no address
            }
        }
        return out;
    }
}
