package hostside.cpu.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.container.ContainerRules;
import hostside.core.CpuSet;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.cpu.facts.CpuFacts.CpuFreq;
import hostside.cpu.facts.CpuFacts.DeviceIrqs;
import hostside.cpu.facts.CpuFacts.Feeder;
import hostside.cpu.facts.CpuFacts.Irq;
import hostside.cpu.facts.CpuFacts.IrqsOnFeeders;
import hostside.cpu.facts.CpuFacts.Share;
import hostside.machine.PciKind;

/**
 * What the CPU facts mean for the threads that feed GPUs (data loading, kernel launches,
 * copies, NCCL's proxy threads): one finding of a {@link CpuFactRules} rule per thing worth acting
 * on or knowing, none for healthy settings. Unknown facts give no finding ({@link CpuFacts#unknowns}
 * says why).
 */
public final class CpuVerdicts {
    private CpuVerdicts() {}

    /** Idle states that take longer than this to leave are worth knowing about for wake-up latency. */
    static final long DEEP_IDLE_US = 50;

    public static List<Finding> of(CpuFacts f) {
        List<Finding> out = new ArrayList<>();
        quota(f, out);
        affinity(f, out);
        isolation(f, out);
        irqsOnFeeders(f, out);
        irqsOffNode(f, out);
        irqsOnCpu0(f, out);
        governors(f, out);
        caps(f, out);
        idle(f, out);
        rtThrottling(f, out);
        scheduler(f, out);
        return List.copyOf(out);
    }

    /** An unknown set (null) counts as empty: unknown facts give no finding. */
    private static CpuSet set(CpuSet s) {
        return s == null ? CpuSet.EMPTY : s;
    }

    /** "CPU 6" or "CPUs 0-3". */
    private static String cpus(CpuSet s) {
        return (s.size() == 1 ? "CPU " : "CPUs ") + s;
    }

    private static CpuSet online(CpuFacts f) {
        return set(f.onlineCpus());
    }

    // ---- the process: cgroup quota and affinity ----

    private static void quota(CpuFacts f, List<Finding> out) {
        if (f.process() == null || f.process().cgroup() == null || f.process().cgroup().quotaCpus() == null) return;
        CpuFacts.Cgroup c = f.process().cgroup();
        Integer visible = f.process().cpusAllowedCount() != null ? f.process().cpusAllowedCount()
                : online(f).isEmpty() ? null : online(f).size();
        if (visible == null || c.quotaCpus() >= visible) return;
        String cores = f.cores() == null ? "" : " (" + f.cores() + " physical cores here)";
        String file = c.version().equals("v2") ? "cpu.max " + c.quotaUs() + " " + c.periodUs()
                : "cpu.cfs_quota_us " + c.quotaUs() + " per " + c.periodUs();
        out.add(CpuFactRules.CPU_QUOTA.finding(Severity.WARN, QUOTA_SUBJECT, "the cgroup grants " + number(c.quotaCpus()) + " CPUs' worth of time ("
                + file + ") but this process sees " + visible + " CPUs: torch's default intra-op threads (one per physical core" + cores
                + "), OpenMP and DataLoader worker counts follow the CPUs, not the quota, so their threads exhaust it early in each "
                + c.periodUs() / 1000 + " ms period and are throttled until the next; " + Math.max(1, (long) Math.floor(c.quotaCpus()))
                + " threads fit the quota",
                Evidence.fact(c.quotaSource(), file), Evidence.fact("process.cpus_allowed", String.valueOf(visible))));
    }

    /** The subject of a quota finding, the container's too: the report says it once (Conclusions). */
    public static final String QUOTA_SUBJECT = ContainerRules.QUOTA_SUBJECT;

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    private static void affinity(CpuFacts f, List<Finding> out) {
        if (f.process() == null || f.process().cpusAllowed() == null) return;
        CpuSet allowed = set(f.process().cpusAllowed()), on = online(f);
        if (on.isEmpty()) return;
        if (allowed.and(on).size() < on.size()) {
            CpuSet cpuset = f.process().cgroup() == null ? null : f.process().cgroup().cpusetCpus();
            // a cgroup cpuset that says the same is Module 1's finding already
            if (cpuset == null || !cpuset.and(on).equals(allowed.and(on))) {
                String who = cpuset == null ? "taskset, numactl, a launcher or a cpuset"
                        : "narrower than its cgroup's cpuset " + cpuset + ": taskset, numactl or a launcher set it";
                out.add(CpuFactRules.AFFINITY.finding(Severity.INFO, "affinity", "this process may run on CPUs " + allowed + " only ("
                        + allowed.and(on).size() + " of " + on.size() + " online; " + who + "): the threads it starts, DataLoader workers and "
                        + "OpenMP threads included, inherit that set",
                        Evidence.fact("/proc/self/status Cpus_allowed_list", allowed.toString()), Evidence.fact(CpuFactsReader.CPU + "/online", on.toString())));
            }
        }
        for (Feeder g : f.feeders()) {
            CpuSet local = set(g.localCpus());
            if (local.isEmpty() || local.size() >= on.size() || g.allowedFeederCpus() == null) continue;
            if (set(g.allowedFeederCpus()).isEmpty() && local.andNot(set(g.isolatedLocal())).size() > 0) {
                String node = g.numaNode() == null ? "" : ", NUMA node " + g.numaNode();
                out.add(CpuFactRules.GPU_LOCAL_CPUS.finding(Severity.WARN, g.gpu(), "this process may not run on any of " + g.gpu()
                        + "'s local CPUs (" + local + node + "): its launch, copy and data-loading threads run across the CPU interconnect"
                        + " from the GPU", Evidence.fact(g.gpu() + ".local_cpulist", local.toString()),
                        Evidence.fact("/proc/self/status Cpus_allowed_list", set(f.process().cpusAllowed()).toString())));
            }
        }
    }

    // ---- isolation ----

    private static void isolation(CpuFacts f, List<Finding> out) {
        CpuFacts.Isolation i = f.isolation();
        if (i == null) return;
        CpuSet asked = CmdlineCpuLists.domainIsolated(i.isolcpus());
        boolean askedAny = i.isolcpus() != null && i.isolcpus().cpus() != null && !i.isolcpus().cpus().isEmpty();
        CpuSet isolated = i.isolated() != null ? i.isolated() : asked;
        if (i.isolated() != null && i.isolcpus() != null && i.isolcpus().cpus() != null && !asked.isEmpty() && !asked.equals(isolated)) {
            out.add(CpuFactRules.ISOLCPUS_MISMATCH.finding(Severity.WARN, "isolation", "the command line asks " + i.isolcpus().text()
                    + " but the kernel isolated " + (isolated.isEmpty() ? "no CPU" : "CPUs " + isolated) + " (" + CpuFactsReader.CPU
                    + "/isolated): pinned feeder threads meant for the CPUs asked for share them with other threads",
                    Evidence.fact("/proc/cmdline isolcpus", i.isolcpus().text()), Evidence.fact(CpuFactsReader.CPU + "/isolated", isolated.toString())));
        }
        CpuSet isolatedAny = isolated.or(askedAny ? i.isolcpus().cpus() : CpuSet.EMPTY);
        if (isolatedAny.isEmpty()) return;
        CpuSet nohz = i.nohzFullEffective() != null ? i.nohzFullEffective()
                : i.nohzFull() != null && i.nohzFull().cpus() != null ? i.nohzFull().cpus() : CpuSet.EMPTY;
        CpuSet nocbs = i.rcuNocbs() != null && i.rcuNocbs().cpus() != null ? i.rcuNocbs().cpus() : CpuSet.EMPTY;
        CpuSet ticking = isolatedAny.andNot(nohz);
        StringBuilder s = new StringBuilder("CPUs " + isolatedAny + " are isolated (isolcpus)");
        if (!isolated.isEmpty()) {
            s.append(": the scheduler places no thread there unless it is pinned (taskset -c ").append(isolated).append(")");
        }
        List<String> feeding = new ArrayList<>();
        for (Feeder g : f.feeders()) if (!set(g.isolatedLocal()).isEmpty()) feeding.add(g.gpu());
        if (!feeding.isEmpty()) {
            s.append("; they are local to ").append(String.join(", ", feeding))
                    .append(", whose launch or data-loading threads never use them unless pinned there");
        }
        Evidence e = Evidence.fact(CpuFactsReader.CPU + "/isolated", isolatedAny.toString());
        if (!ticking.isEmpty()) {
            CpuSet noCallbacks = ticking.andNot(nocbs);
            s.append("; CPUs ").append(ticking).append(" still take the scheduler tick")
                    .append(noCallbacks.isEmpty() ? "" : " and run RCU callbacks")
                    .append(" (no nohz_full=), which interrupts a thread pinned there");
            out.add(CpuFactRules.ISOLCPUS.finding(Severity.INFO, "isolation", s.toString(), e, Evidence.fact("nohz_full", nohz.toString())));
        } else if (!feeding.isEmpty()) {
            out.add(CpuFactRules.ISOLCPUS.finding(Severity.INFO, "isolation", s.toString(), e, Evidence.fact("nohz_full", nohz.toString())));
        }
    }

    // ---- interrupts ----

    private static void irqsOnFeeders(CpuFacts f, List<Finding> out) {
        for (Feeder g : f.feeders()) {
            CpuSet feeders = set(g.feederCpus());
            if (feeders.isEmpty()) continue;
            for (IrqsOnFeeders d : g.irqsOnFeeders()) {
                CpuSet hit = set(d.cpus());
                CpuSet rest = feeders.andNot(hit);
                String irqs = d.irqs() == 1 ? "1 IRQ lands on " + cpus(hit) : d.irqs() + " IRQs land on " + cpus(hit);
                String managed = d.kind() == PciKind.NVME ? " (NVMe queue interrupts: kernel-managed, they stay there)" : "";
                boolean most = hit.size() * 2 >= feeders.size();
                List<Evidence> e = List.of(Evidence.fact(d.device() + ".irqs_on_feeders", String.valueOf(d.irqs())),
                        Evidence.fact(g.gpu() + ".feeder_cpus", feeders.toString()), Evidence.fact(d.device() + ".irq_cpus", hit.toString()));
                if (most) {
                    out.add(CpuFactRules.IRQ_FEEDERS.finding(Severity.WARN, g.gpu(), d.device() + "'s " + irqs + managed + ", the cores that feed "
                            + g.gpu() + (hit.equals(feeders) ? "" : " (" + feeders + ")") + ": interrupt and softirq work preempts "
                            + "its launch and data-loading threads there; "
                            + (rest.isEmpty() ? "no local core is free of them" : "the rest (" + rest + ") are free of them"), e));
                } else if (d.activeIrqs() > 0) {
                    out.add(CpuFactRules.IRQ_FEEDERS.finding(Severity.INFO, g.gpu(), d.device() + "'s " + irqs + managed + ", among the "
                            + feeders.size() + " that feed " + g.gpu() + " (" + feeders + "): latency-sensitive feeder threads pinned to " + rest
                            + " stay out of their way", e));
                }
            }
        }
    }

    /** GPU, NIC and NVMe interrupts handled outside the device's NUMA node. */
    private static void irqsOffNode(CpuFacts f, List<Finding> out) {
        if (f.irqs() == null) return;
        CpuSet on = online(f);
        for (DeviceIrqs d : f.irqs().devices()) {
            CpuSet local = set(d.localCpus());
            if (!on.isEmpty()) local = local.and(on);
            if (local.isEmpty() || local.size() >= on.size()) continue;
            CpuSet far = CpuSet.EMPTY;
            List<Integer> farIrqs = new ArrayList<>();
            for (Irq i : d.irqs()) {
                if (!CpuFactsReader.placed(i)) continue;
                CpuSet r = set(i.routedTo()).andNot(local);
                if (r.isEmpty()) continue;
                far = far.or(r);
                farIrqs.add(i.irq());
            }
            if (farIrqs.isEmpty()) continue;
            String node = d.numaNode() == null ? "" : " on NUMA node " + d.numaNode();
            String what = switch (d.kind()) {
                case GPU -> "its completion interrupts (blocking synchronisation, events) are serviced across the CPU interconnect";
                case NIC -> "its packets are processed across the CPU interconnect, away from the buffers near it";
                default -> "its I/O completions are serviced across the CPU interconnect";
            };
            String which = farIrqs.size() <= 8 ? " (IRQ " + CpuSet.of(farIrqs.stream().mapToInt(x -> x).toArray()) + ")" : "";
            String managed = d.kind() == PciKind.NVME ? "; NVMe queue interrupts are kernel-managed and cannot be moved" : "";
            out.add(CpuFactRules.IRQ_FAR.finding(Severity.WARN, d.device(), d.device() + "'s " + (farIrqs.size() == 1 ? "1 IRQ is" : farIrqs.size() + " IRQs are")
                    + " handled on " + cpus(far) + which + ", outside its local CPUs " + local + node + ": " + what + managed,
                    Evidence.fact(d.device() + ".local_cpulist", local.toString()), Evidence.fact("/proc/irq/N/effective_affinity_list", far.toString())));
        }
    }

    private static void irqsOnCpu0(CpuFacts f, List<Finding> out) {
        if (f.irqs() == null || Boolean.TRUE.equals(f.irqs().irqbalance()) || online(f).size() < 2) return;
        int n = 0;
        List<String> devices = new ArrayList<>();
        for (DeviceIrqs d : f.irqs().devices()) {
            for (Irq i : d.irqs()) {
                if (i.routedTo().isEmpty()) continue;
                if (!i.routedTo().equals(CpuSet.of(0))) return;
                n++;
                if (!devices.contains(d.device())) devices.add(d.device());
            }
        }
        if (n < 2) return;
        String ib = Boolean.FALSE.equals(f.irqs().irqbalance()) ? " and irqbalance is not running" : "";
        out.add(CpuFactRules.IRQ_CPU0.finding(Severity.WARN, "IRQ", "all " + n + " interrupts of " + String.join(", ", devices) + " land on CPU0" + ib
                + ": one core services every completion and packet and its threads are preempted for each",
                Evidence.fact("/proc/interrupts device IRQs on CPU0", String.valueOf(n)),
                Evidence.fact("irqbalance", String.valueOf(f.irqs().irqbalance()))));
    }

    // ---- frequency ----

    private static void governors(CpuFacts f, List<Finding> out) {
        CpuFacts.Frequency q = f.frequency();
        if (q == null || q.cpus().isEmpty()) return;
        for (Share g : q.governors()) {
            CpuSet cpus = set(g.cpus());
            List<CpuFreq> these = q.cpus().stream().filter(c -> cpus.contains(c.cpu())).toList();
            String driver = these.stream().map(CpuFreq::driver).filter(d -> d != null).distinct()
                    .reduce((a, b) -> a + ", " + b).orElse("unknown driver");
            boolean active = these.stream().allMatch(c -> "intel_pstate".equals(c.driver()) || "amd-pstate-epp".equals(c.driver()));
            String on = "CPUs " + g.cpus();
            switch (g.value()) {
                case "performance" -> { }
                case "powersave" -> {
                    if (active) {
                        Map<String, CpuSet> lowEpp = new LinkedHashMap<>();
                        for (CpuFreq c : these) {
                            if ("power".equals(c.epp()) || "balance_power".equals(c.epp())) lowEpp.merge(c.epp(), CpuSet.of(c.cpu()), CpuSet::or);
                        }
                        lowEpp.forEach((epp, set) -> out.add(CpuFactRules.EPP.finding(Severity.WARN, "cpufreq", "CPUs " + set + " run " + driver
                                + " powersave with energy_performance_preference=" + epp + ": the hardware favours energy and "
                                + "ramps slowly for bursty feeder threads",
                                Evidence.fact(CpuFactsReader.CPU + "/cpuN/cpufreq/energy_performance_preference", epp), governor(g))));
                    } else {
                        out.add(CpuFactRules.GOVERNOR.finding(Severity.BAD, "cpufreq", on + " use the generic powersave governor (" + driver
                                + "), which holds them at their lowest frequency: feeder threads run at minimum clock", governor(g),
                                Evidence.fact(CpuFactsReader.CPU + "/cpuN/cpufreq/scaling_driver", driver)));
                    }
                }
                case "ondemand", "conservative" -> out.add(CpuFactRules.GOVERNOR.finding(Severity.WARN, "cpufreq", on + " use the " + g.value()
                        + " governor (" + driver + "), which samples load and raises the clock only after a burst has begun: short feeder "
                        + "bursts (batch collation, kernel launches) run at low clock", governor(g)));
                case "schedutil" -> out.add(CpuFactRules.GOVERNOR.finding(Severity.INFO, "cpufreq", on + " use schedutil (" + driver + "): the clock "
                        + "follows the scheduler's utilisation estimate, which decays while a thread sleeps, so a feeder that waits between "
                        + "batches may start each burst below full speed; the performance governor removes that ramp where "
                        + "feeder latency matters", governor(g)));
                case "userspace" -> out.add(CpuFactRules.GOVERNOR.finding(Severity.INFO, "cpufreq", on + " use the userspace governor (" + driver
                        + "): a daemon or script sets their frequency (scaling_setspeed), which decides whether feeder CPUs run at full speed",
                        governor(g)));
                default -> { }
            }
        }
    }

    private static Evidence governor(Share g) {
        return Evidence.fact(CpuFactsReader.CPU + "/cpuN/cpufreq/scaling_governor", g.value() + " on CPUs " + g.cpus());
    }

    private static void caps(CpuFacts f, List<Finding> out) {
        CpuFacts.Frequency q = f.frequency();
        if (q == null) return;
        Map<String, CpuSet> capped = new LinkedHashMap<>();
        for (CpuFreq c : q.cpus()) {
            if (c.cpuinfoMaxKHz() == null || c.scalingMaxKHz() == null || c.cpuinfoMaxKHz() <= 0) continue;
            if (c.scalingMaxKHz() < c.cpuinfoMaxKHz() * 0.98) {
                capped.merge(ghz(c.scalingMaxKHz()) + " of " + ghz(c.cpuinfoMaxKHz()), CpuSet.of(c.cpu()), CpuSet::or);
            }
        }
        capped.forEach((what, cpus) -> out.add(CpuFactRules.FREQ_CAP.finding(Severity.WARN, "cpufreq", "CPUs " + cpus + " are capped at " + what
                + " (scaling_max_freq below cpuinfo_max_freq): feeder threads there cannot reach full clock",
                Evidence.fact(CpuFactsReader.CPU + "/cpuN/cpufreq/scaling_max_freq of cpuinfo_max_freq", what + " on CPUs " + cpus))));
        if (Boolean.FALSE.equals(q.turbo())) {
            out.add(CpuFactRules.TURBO_OFF.finding(Severity.WARN, "cpufreq", "turbo is off (" + q.turboSource() + "): single-threaded feeder work "
                    + "(the Python main loop, kernel launches, collation) runs at base clock", Evidence.fact(q.turboSource() == null ? "turbo" : q.turboSource(), "off")));
        }
    }

    private static String ghz(long khz) {
        return String.format(java.util.Locale.ROOT, "%.2f GHz", khz / 1e6);
    }

    // ---- idle ----

    private static void idle(CpuFacts f, List<Finding> out) {
        CpuFacts.Idle i = f.idle();
        if (i == null || i.states().isEmpty()) return;
        CpuFacts.IdleState deepest = null;
        for (CpuFacts.IdleState s : i.states()) {
            if (Boolean.TRUE.equals(s.disabled()) || s.latencyUs() == null) continue;
            if (deepest == null || s.latencyUs() > deepest.latencyUs()) deepest = s;
        }
        if (deepest == null || deepest.latencyUs() < DEEP_IDLE_US) return;
        out.add(CpuFactRules.IDLE_DEEP.finding(Severity.INFO, "cpuidle", "idle CPUs may enter " + deepest.name() + ", which takes up to "
                + deepest.latencyUs() + " µs to leave (CPU" + i.cpu() + ", cpuidle " + (i.driver() == null ? "?" : i.driver()) + "/"
                + (i.governor() == null ? "?" : i.governor()) + "): a feeder thread that sleeps between batches can pay that "
                + "on each wake-up", Evidence.fact(CpuFactsReader.CPU + "/cpu" + i.cpu() + "/cpuidle/" + deepest.name() + "/latency",
                String.valueOf(deepest.latencyUs()))));
    }

    // ---- scheduler ----

    private static void rtThrottling(CpuFacts f, List<Finding> out) {
        if (f.sched() == null || f.sched().rtRuntimeUs() == null || f.sched().rtRuntimeUs() != -1) return;
        out.add(CpuFactRules.RT_THROTTLING.finding(Severity.INFO, "scheduler", "RT throttling is off (sched_rt_runtime_us=-1): a SCHED_FIFO "
                + "thread that spins can starve everything else on its CPU, kernel threads included",
                Evidence.fact("/proc/sys/kernel/sched_rt_runtime_us", "-1")));
    }

    private static void scheduler(CpuFacts f, List<Finding> out) {
        CpuFacts.Kernel k = f.kernel();
        if (k == null || k.scheduler() == null) return;
        CpuFacts.Tunables t = f.sched() == null ? null : f.sched().tunables();
        String preempt = k.preemption() == null ? ""
                : k.preemption().equals("dynamic") ? "; the preemption model is chosen at boot (PREEMPT_DYNAMIC, preempt=)"
                : "; preemption model: " + k.preemption();
        String text;
        if (k.scheduler().equals("EEVDF")) {
            String slice;
            if (t != null && t.baseSliceNs() != null) {
                slice = "base_slice_ns " + ms(t.baseSliceNs());
            } else {
                int n = online(f).size();
                slice = n == 0 ? "base_slice_ns, 0.75 ms times 1 + log2 of the CPUs up to 8"
                        : "base_slice_ns, by default " + ms(750_000L * (1 + log2(Math.min(n, 8)))) + " with " + n + " CPUs";
            }
            boolean shortSlices = k.major() > 6 || k.major() == 6 && k.minor() >= 12;
            text = "kernel " + k.major() + "." + k.minor() + " schedules with EEVDF (6.6 and later): each thread gets a "
                    + "virtual deadline one slice (" + slice + ") after it becomes eligible and the eligible thread with the "
                    + "earliest deadline runs; a waking thread preempts only if its deadline is earlier, and the lag it owes or "
                    + "is owed is kept when it sleeps, instead of CFS's wake-up granularity and sleeper credit"
                    + (shortSlices ? "; a latency-sensitive thread can ask for a shorter slice with sched_setattr (sched_runtime)" : "")
                    + preempt;
        } else {
            String gran = t != null && t.wakeupGranularityNs() != null ? " (" + ms(t.wakeupGranularityNs()) + " here)" : "";
            text = "kernel " + k.major() + "." + k.minor() + " schedules with CFS (before 6.6): the thread with the least virtual "
                    + "runtime runs, a waking thread preempts only when it is behind by more than wakeup_granularity" + gran
                    + ", and sleepers are placed up to half a sched_latency behind; 6.6 replaced it with EEVDF (deadlines and "
                    + "a base slice)" + preempt;
        }
        out.add(CpuFactRules.SCHEDULER.finding(Severity.INFO, "scheduler", text,
                Evidence.fact("/proc/sys/kernel/osrelease", k.major() + "." + k.minor()), Evidence.fact("scheduler", k.scheduler())));
    }

    private static int log2(int n) {
        return 31 - Integer.numberOfLeadingZeros(Math.max(1, n));
    }

    private static String ms(long ns) {
        double v = ns / 1e6;
        return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(java.util.Locale.ROOT, "%.2f", v)
                .replaceAll("0+$", "")) + " ms";
    }
}
