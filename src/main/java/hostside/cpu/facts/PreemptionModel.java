package hostside.cpu.facts;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's preemption model ("none", "voluntary", "full", "lazy", "rt", or what can be said
 * without debugfs) and where it was read, as {@link CpuFacts.Kernel} records them.
 *
 * @param model  the model; null when nothing tells it
 * @param source where it was read, or why it is not known
 */
record PreemptionModel(String model, String source) {
    /**
     * The preemption model and how it was decided: debugfs names the current one ("none
     * voluntary (full) lazy"); otherwise the build flags in /proc/version (PREEMPT_RT, then
     * PREEMPT_DYNAMIC, then PREEMPT, as the kernel's build prints them) and, on a dynamic kernel,
     * preempt= on the command line.
     *
     * @param debug debugfs's sched/preempt, when it could be read
     */
    static PreemptionModel decide(Optional<String> debug, String version, String preemptArg, Integer major, Integer minor) {
        if (debug.isPresent()) {
            Matcher m = Pattern.compile("\\((\\w+)\\)").matcher(debug.get());
            if (m.find()) return new PreemptionModel(m.group(1), CpuFactsReader.DEBUG_SCHED + "/preempt");
        }
        if (version == null) return new PreemptionModel(null, "unknown: no /proc/version");
        if (Pattern.compile("\\bPREEMPT_RT\\b").matcher(version).find()) {
            return new PreemptionModel("rt", "/proc/version: PREEMPT_RT");
        }
        if (Pattern.compile("\\bPREEMPT_DYNAMIC\\b").matcher(version).find()) {
            if (preemptArg != null && preemptArg.matches("none|voluntary|full|lazy")) {
                return new PreemptionModel(preemptArg, "kernel command line preempt=" + preemptArg + " (a PREEMPT_DYNAMIC kernel)");
            }
            return new PreemptionModel("dynamic", "/proc/version: PREEMPT_DYNAMIC: the model is chosen at boot (preempt=); "
                    + "this build's default shows only in " + CpuFactsReader.DEBUG_SCHED + "/preempt (root, debugfs)");
        }
        if (Pattern.compile("\\bPREEMPT\\b").matcher(version).find()) {
            boolean lazy = major != null && (major > 6 || major == 6 && minor >= 13);
            return new PreemptionModel(lazy ? "full or lazy" : "full", "/proc/version: PREEMPT");
        }
        return new PreemptionModel("none or voluntary", "/proc/version: no PREEMPT flag (CONFIG_PREEMPT_NONE or _VOLUNTARY)");
    }
}
