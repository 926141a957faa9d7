package hostside.checklist;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An NVIDIA Xid report from the kernel log: "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>',
 * name=<unknown>, GPU has fallen off the bus." Older drivers leave out "PCI:", and pid/name
 * appear only where the driver knows which process ran. Meanings follow NVIDIA's Xid catalog.
 *
 * @param pci     the GPU as the driver names it, domain:bus:device without the function ("0000:3b:00")
 * @param pid     the process the driver blamed, when it names one
 */
public record Xid(String pci, int code, String detail, Long pid, String processName) {
    private static final Pattern LINE = Pattern.compile("NVRM: Xid \\((?:PCI:)?([0-9a-fA-F:.]+)\\): (\\d{1,4}),\\s*(.*)");
    private static final Pattern PID = Pattern.compile("\\bpid='?(\\d+)'?");
    private static final Pattern NAME = Pattern.compile("\\bname=([^,\\s]+)");

    /** What each common Xid means, and whether it is the GPU's fault (a drain or reset) rather than the application's. */
    record Meaning(String text, boolean hardware) {}

    private static final Map<Integer, Meaning> MEANINGS = Map.ofEntries(
            Map.entry(13, new Meaning("graphics engine exception: usually the application (an out-of-range access)", false)),
            Map.entry(31, new Meaning("GPU memory page fault: usually an illegal address in the application", false)),
            Map.entry(43, new Meaning("GPU stopped processing: a channel aborted after an application fault", false)),
            Map.entry(45, new Meaning("preemptive cleanup: contexts torn down after another error or a kill", false)),
            Map.entry(48, new Meaning("double-bit ECC error: uncorrectable memory error, reset the GPU and drain if it recurs", true)),
            Map.entry(61, new Meaning("internal micro-controller breakpoint/warning: reset the GPU", true)),
            Map.entry(62, new Meaning("internal micro-controller halt: reset the GPU", true)),
            Map.entry(63, new Meaning("ECC page retirement or row remapping recorded: reset to apply, watch the trend", true)),
            Map.entry(64, new Meaning("ECC page retirement or row remapping failed: failing memory, drain", true)),
            Map.entry(74, new Meaning("NVLink error: link or NVSwitch fault, can take the node's NVLink down", true)),
            Map.entry(79, new Meaning("GPU has fallen off the bus: unreachable over PCIe, needs a reboot", true)),
            Map.entry(92, new Meaning("high single-bit ECC error rate: memory degrading", true)),
            Map.entry(94, new Meaning("contained ECC error: the application using that memory was stopped", true)),
            Map.entry(95, new Meaning("uncontained ECC error: every application on the GPU stopped, reset the GPU", true)),
            Map.entry(119, new Meaning("GSP RPC timeout: the GPU's firmware stopped answering, reset the GPU", true)));

    /** The Xid in a kernel message, if it is one. */
    public static Optional<Xid> parse(String message) {
        Matcher m = LINE.matcher(message);
        if (!m.find()) return Optional.empty();
        String detail = m.group(3).strip();
        Matcher p = PID.matcher(detail), n = NAME.matcher(detail);
        Long pid = p.find() ? Long.parseLong(p.group(1)) : null;
        String name = n.find() && !n.group(1).startsWith("<") ? n.group(1) : null;
        return Optional.of(new Xid(m.group(1).toLowerCase(java.util.Locale.ROOT), Integer.parseInt(m.group(2)), detail, pid, name));
    }

    /** NVIDIA's meaning in a few words; for an Xid outside the common list, where to look. */
    public String meaning() {
        Meaning m = MEANINGS.get(code);
        return m == null ? "see NVIDIA's Xid catalog" : m.text();
    }

    /** True for the Xids that mean the GPU or its memory/link failed, not the program on it. */
    public boolean hardware() {
        Meaning m = MEANINGS.get(code);
        return m != null && m.hardware();
    }
}
