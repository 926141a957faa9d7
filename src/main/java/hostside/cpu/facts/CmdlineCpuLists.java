package hostside.cpu.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import hostside.core.CpuSet;
import hostside.cpu.facts.CpuFacts.CmdlineCpus;
import hostside.core.GarbageException;

/**
 * The kernel command line's CPU-list parameters (isolcpus=, nohz_full=, rcu_nocbs=, irqaffinity=):
 * parsed from their text, and what isolcpus= takes out of the scheduler. Pure functions of the
 * text; {@link CpuFactsReader} finds the parameters on the command line.
 */
public final class CmdlineCpuLists {
    private static final Pattern FLAG = Pattern.compile("[a-z_]+");

    private CmdlineCpuLists() {}

    /**
     * Parses "isolcpus=managed_irq,domain,2-7", "nohz_full=1-N", "rcu_nocbs" (bare) and the like.
     *
     * @param flags   whether lower-case words before the list are flags (isolcpus)
     * @param lastCpu the highest CPU number, for "N" and "all"; -1 when unknown
     */
    public static CmdlineCpus parse(String text, boolean flags, int lastCpu) {
        int eq = text.indexOf('=');
        String value = eq < 0 ? "" : text.substring(eq + 1);
        List<String> fl = new ArrayList<>();
        List<String> parts = new ArrayList<>(List.of(value.split(",", -1)));
        if (flags) {
            while (!parts.isEmpty() && FLAG.matcher(parts.getFirst()).matches() && !parts.getFirst().equals("all")) {
                fl.add(parts.removeFirst());
            }
        }
        String list = String.join(",", parts);
        if (lastCpu >= 0) {
            list = list.replaceAll("\\ball\\b", "0-" + lastCpu).replaceAll("(?<![\\w])N(?![\\w])", String.valueOf(lastCpu));
        }
        CpuSet cpus;
        try {
            // the command line's text, read here once: the one place its CPU list is parsed
            cpus = CpuSet.parseList(list);
        } catch (GarbageException e) {
            cpus = null;
        }
        return new CmdlineCpus(text, List.copyOf(fl), cpus);
    }

    /** The CPUs isolcpus= takes out of the scheduler's domains: all of them unless only "nohz" or "managed_irq" was asked. */
    public static CpuSet domainIsolated(CmdlineCpus isolcpus) {
        if (isolcpus == null || isolcpus.cpus() == null) return CpuSet.EMPTY;
        boolean domain = isolcpus.flags().isEmpty() || isolcpus.flags().contains("domain");
        return domain ? isolcpus.cpus() : CpuSet.EMPTY;
    }
}
