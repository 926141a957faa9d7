package hostside.rack;

import java.util.List;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;

/**
 * One row of the rack checklist (docs/contract.md, Findings: {@code {item, value, verdict, why, fix}}, with the
 * rule's {@code id}, the {@code evidence} read and the rule's main {@code source} added). A report
 * of an earlier version has no id, evidence or source: they are filled from the item's rule
 * ({@link RackRules#of}) when it is read.
 *
 * @param value    what was read, in a few words with units ("64 KiB", "madvise, 512 MiB huge pages")
 * @param why      what the value means here, for this platform; for an unknown or not-run item, why
 * @param fix      what to do, for this row; "" when nothing is to be done (the rule's fix is the general one)
 * @param id       the rule's ID ("M5-THP"); a failed fabric readiness test names its cause's (M5-FABRIC-NO-CHANNEL)
 * @param evidence what was read, by where it was read
 * @param source   the rule's main source, as "kind: citation"
 */
public record RackCheck(RackItem item, String value, RackVerdict verdict, String why, String fix, String id, List<Evidence> evidence, String source) {
    public RackCheck {
        if (item == null || verdict == null) throw new IllegalArgumentException("a check needs its item and verdict");
        value = value == null ? "" : value;
        why = why == null ? "" : why;
        fix = fix == null ? "" : fix;
        Rule rule = RackRules.of(item);
        if (id == null || id.isEmpty()) id = rule.id();
        if (evidence == null) evidence = readFrom(item, value, verdict);
        evidence = List.copyOf(evidence);
        if (source == null || source.isEmpty()) source = byId(id, rule).sources().getFirst().toString();
    }

    /** A row as the contract first had it; its rule's id, the evidence of its value and the rule's source are filled in. */
    public RackCheck(RackItem item, String value, RackVerdict verdict, String why, String fix) {
        this(item, value, verdict, why, fix, null, null, null);
    }

    /** The rule of this row: the item's, or the cause's where the fabric readiness test failed. */
    public Rule rule() {
        return byId(id, RackRules.of(item));
    }

    private static Rule byId(String id, Rule item) {
        if (id.equals(item.id())) return item;
        return RackRules.all().stream().filter(r -> r.id().equals(id)).findFirst().orElse(item);
    }

    /** What the row says for page one: the verdict's severity, none for n/a and not run. */
    public Severity severity() {
        return verdict.severity();
    }

    /**
     * The row as a finding of its rule (null for n/a and not run): the row's value and why as its
     * text, its evidence; an unknown row carries no fix.
     */
    public Finding finding() {
        Severity s = severity();
        if (s == null) return null;
        Rule r = rule();
        String text = value.isEmpty() || value.equals("-") ? why : value + ": " + why;
        if (s == Severity.UNKNOWN) return r.unknown(item.id(), text, evidence);
        Finding f = r.finding(s, item.id(), text, evidence);
        // the row's own fix names this machine's case; the rule's is the general one
        return fix.isEmpty() || !s.toFix() ? f : f.withFix(fix);
    }

    static RackCheck of(RackItem item, RackVerdict verdict, String value, String why, String fix) {
        if (!RackRules.gives(item, verdict.severity())) {
            throw new IllegalStateException(RackRules.of(item).id() + " gives no " + verdict + " verdict");
        }
        return new RackCheck(item, value, verdict, why, fix);
    }

    static RackCheck ok(RackItem item, String value, String why) {
        return of(item, RackVerdict.OK, value, why, "");
    }

    static RackCheck na(RackItem item, String why) {
        return new RackCheck(item, "-", RackVerdict.NA, why, "");
    }

    static RackCheck notRun(RackItem item, String why) {
        return new RackCheck(item, "-", RackVerdict.NOT_RUN, why, "");
    }

    static RackCheck unknown(RackItem item, String why, String fix) {
        return of(item, RackVerdict.UNKNOWN, "unknown", why, fix);
    }

    /** Where each item is read (docs/commands.md's table), as the fact its value is evidence of; none for a row that read nothing. */
    static List<Evidence> readFrom(RackItem item, String value, RackVerdict verdict) {
        if (verdict == RackVerdict.NA || verdict == RackVerdict.NOT_RUN || value == null || value.isEmpty() || value.equals("-")) return List.of();
        String where = switch (item) {
            case BASE_PAGE_SIZE -> "sysconf(_SC_PAGESIZE)";
            case THP -> "/sys/kernel/mm/transparent_hugepage/enabled";
            case INIT_ON_ALLOC, POWER_METER_CAP -> "/proc/cmdline";
            case NUMA_BALANCING -> "/proc/sys/kernel/numa_balancing";
            case GPU_MEMORY_MODE -> "/proc/driver/nvidia/params";
            case NODE_ROLES -> "/sys/devices/system/node";
            case BINDING -> "/sys/bus/pci/devices/*/numa_node";
            case PROCESS_PLACEMENT -> "/proc/self/status";
            case CPU_GOVERNOR -> "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor";
            case IOMMU -> "/sys/class/iommu";
            case PCI_POWER -> "/sys/bus/pci/devices/*/power/control";
            case PERSISTENCE -> "nvml.persistence_mode";
            case C2C_LINK -> "nvml.c2c";
            case FABRIC_STATE -> "nvml.gpu_fabric_info";
            case FABRIC_MANAGER -> "nvidia-fabricmanager.service";
            case IMEX -> "/dev/nvidia-caps-imex-channels";
            case FABRIC_READINESS -> "fabric_readiness";
            case NVLS -> "cuda.attribute_132";
            case GPUDIRECT -> "/sys/module/nvidia_peermem";
            case FAILURE_DOMAIN -> "nvml.platform_info";
            case MEMORY_BANDWIDTH -> "stream.triad";
        };
        return List.of(Evidence.fact(where, value));
    }
}
