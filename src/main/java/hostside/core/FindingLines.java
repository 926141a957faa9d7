package hostside.core;

import java.util.List;

/** Findings in a terminal, as every drill's text view shows them. */
public final class FindingLines {
    private FindingLines() {}

    /** Findings as every drill shows them: a mark per severity, the bad ones in colour. */
    public static void render(StringBuilder sb, List<Finding> findings, Style style) {
        if (findings.isEmpty()) {
            sb.append("Findings: none\n");
            return;
        }
        sb.append("Findings\n");
        for (Finding x : findings) {
            String mark = switch (x.severity()) {
                case BAD -> style.bad("✗ ");
                case WARN -> style.warn("! ");
                default -> "· ";
            };
            String text = x.severity() == hostside.core.Severity.BAD ? style.bad(x.text()) : x.text();
            sb.append("  ").append(mark).append(text).append('\n');
        }
    }
}
