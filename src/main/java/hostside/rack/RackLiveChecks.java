package hostside.rack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.Finding;
import hostside.gpu.bench.Copies;
import hostside.gpu.cuda.FabricReadiness;
import hostside.gpu.nvml.FabricHealth;
import hostside.gpu.nvml.NvmlFacts;
import hostside.gpu.nvml.NvmlGpu;
import hostside.harness.Result;
import hostside.machine.GpuDrill;
import hostside.machine.MachineFacts;

/**
 * The checklist rows only a live machine answers, from NVML's facts, the fabric readiness test and
 * the measured copies: persistence, the C2C link, the fabric state, fabric readiness, NVLS and the
 * failure domain. Pure, like {@link RackChecklist}: every reading comes in. An item it cannot
 * judge is left out, and the checklist's own rule answers it (n/a on a platform it does not
 * concern, not run otherwise).
 */
public final class RackLiveChecks {
    private RackLiveChecks() {}

    /**
     * GH200's host-to-device copy through the copy engine over C2C, as one user's nvbandwidth run
     * measured it (NVIDIA/nvbandwidth#23, titled "Unexpected Low Host-to-Device Bandwidth", clocks
     * unknown). One third-party figure is no floor: it is quoted beside this machine's, never judged
     * against (design/platforms.md's corrections of 2026-12-05; DCGM's PCIe test sets no bandwidth
     * floor on coherent hosts, min_pci_width 1). No GB200 figure is on record.
     */
    static final double GH200_HOST_TO_DEVICE_GBS = 346;

    /**
     * @param nvml      NVML's facts; its notRun says why when NVML did not start
     * @param readiness the fabric readiness test per GPU; empty when CUDA did not start
     * @param gpu       the copies measured per GPU (for the C2C floor); null when none ran
     */
    public static List<RackCheck> of(Platform platform, MachineFacts machine, NvmlFacts nvml, List<FabricReadiness> readiness,
                                     GpuDrill.GpuSection gpu) {
        List<RackCheck> out = new ArrayList<>();
        if (platform.kind() == Platform.Kind.NO_GPU) return out;
        if (nvml == null || !nvml.ran()) {
            String why = "NVML did not start: " + (nvml == null ? "not read" : nvml.notRun());
            for (RackItem i : List.of(RackItem.PERSISTENCE, RackItem.FABRIC_STATE, RackItem.FAILURE_DOMAIN)) out.add(RackCheck.notRun(i, why));
            if (platform.c2c()) out.add(RackCheck.notRun(RackItem.C2C_LINK, why));
        } else {
            out.add(persistence(nvml.gpus()));
            if (platform.c2c()) out.add(c2c(platform, nvml.gpus(), gpu));
            out.add(fabricState(nvml.gpus()));
            out.add(failureDomain(machine, nvml.gpus()));
        }
        if (!readiness.isEmpty()) {
            out.add(readiness(readiness));
            out.add(nvls(readiness));
        } else {
            String why = gpu != null && !gpu.notRun().isEmpty() ? gpu.notRun() : "CUDA did not start";
            out.add(RackCheck.notRun(RackItem.FABRIC_READINESS, why));
            out.add(RackCheck.notRun(RackItem.NVLS, why));
        }
        return out;
    }

    // ---- 13. persistence mode ----

    static RackCheck persistence(List<NvmlGpu> gpus) {
        RackItem item = RackItem.PERSISTENCE;
        List<String> on = new ArrayList<>(), off = new ArrayList<>(), unknown = new ArrayList<>();
        for (NvmlGpu g : gpus) (g.persistenceMode() == null ? unknown : g.persistenceMode() ? on : off).add(label(g));
        if (gpus.isEmpty()) return RackCheck.unknown(item, "NVML lists no GPU", "");
        if (!off.isEmpty()) {
            return RackCheck.of(item, RackVerdict.WARN, "off: " + Finding.some(off) + (on.isEmpty() ? "" : "; on: " + Finding.some(on)),
                    "without persistence the driver tears a GPU's state down whenever no process holds it: the next CUDA start waits seconds for it to come back, and settings made meanwhile are lost",
                    "run nvidia-persistenced (enabled at boot), or nvidia-smi -pm 1");
        }
        if (!unknown.isEmpty()) return RackCheck.unknown(item, "NVML would not say for " + Finding.some(unknown), "");
        return RackCheck.ok(item, "on (" + on.size() + " GPU" + (on.size() == 1 ? "" : "s") + ")", "the driver keeps each GPU initialised between jobs");
    }

    // ---- 14. C2C link: NVML's mode and links, and the measured copy against GH200's floor ----

    static RackCheck c2c(Platform platform, List<NvmlGpu> gpus, GpuDrill.GpuSection section) {
        RackItem item = RackItem.C2C_LINK;
        List<String> parts = new ArrayList<>(), problems = new ArrayList<>();
        for (NvmlGpu g : gpus) {
            NvmlGpu.C2c c = g.c2c();
            if (c == null) {
                parts.add(label(g) + " unknown");
                continue;
            }
            StringBuilder p = new StringBuilder(label(g) + " " + c.mode());
            if (c.mode() == NvmlGpu.C2c.Mode.DISABLED) problems.add(label(g) + ": C2C is disabled");
            if (c.links() != null && !c.links().isEmpty()) {
                long active = c.links().stream().filter(l -> Boolean.TRUE.equals(l.active())).count();
                long mbps = c.links().stream().filter(l -> l.maxBandwidthMBps() != null).mapToLong(NvmlGpu.C2cLink::maxBandwidthMBps).sum();
                p.append(String.format(Locale.ROOT, ", %d of %d links up", active, c.links().size()));
                if (mbps > 0) p.append(String.format(Locale.ROOT, ", %.0f GB/s at most", mbps / 1000.0));
                if (active < c.links().size()) problems.add(label(g) + ": " + (c.links().size() - active) + " C2C link(s) down");
            }
            Optional<Double> h2d = measured(section, g.pciBusId());
            if (h2d.isPresent()) {
                p.append(String.format(Locale.ROOT, "; host to device %.1f GB/s", h2d.get()));
            }
            parts.add(p.toString());
        }
        String value = String.join("; ", parts);
        if (!problems.isEmpty()) {
            return RackCheck.of(item, RackVerdict.WARN, value, String.join("; ", problems)
                            + ": a host link below its speed passes every other tool (DCGM's PCIe test sets no floor for it)",
                    "check nvidia-smi -q for the C2C section and the kernel log for link errors; a link that stays down is a hardware case (RMA)");
        }
        String floor = platform.kind() == Platform.Kind.GRACE_HOPPER
                ? String.format(Locale.ROOT, "; the one public GH200 figure, %.0f GB/s, is a single user's run with unknown clocks (NVIDIA/nvbandwidth#23):"
                        + " no floor, so the copies are not judged against it", GH200_HOST_TO_DEVICE_GBS)
                : "; no reference figure for this platform's copies is on record, so none is judged";
        boolean measured = gpus.stream().anyMatch(g -> measured(section, g.pciBusId()).isPresent());
        return RackCheck.ok(item, value, "the coherent link is up" + (measured ? floor : ""));
    }

    private static Optional<Double> measured(GpuDrill.GpuSection section, String pci) {
        if (section == null || section.runs() == null) return Optional.empty();
        return section.runs().stream().filter(r -> pci.equals(r.pciAddress())).findFirst()
                .flatMap(r -> Result.median(r.results(), new Copies.CePinned(true).key()));
    }

    // ---- 15. fabric state: COMPLETED, status success, a cluster UUID, healthy ----

    static RackCheck fabricState(List<NvmlGpu> gpus) {
        RackItem item = RackItem.FABRIC_STATE;
        List<NvmlGpu> withFabric = gpus.stream().filter(g -> g.fabric() != null && g.fabric().state() != NvmlGpu.Fabric.State.NOT_SUPPORTED).toList();
        if (gpus.stream().allMatch(g -> g.fabric() != null && g.fabric().state() == NvmlGpu.Fabric.State.NOT_SUPPORTED)) {
            return RackCheck.na(item, "NVML: no GPU here is on an NVLink fabric (state \"not supported\")");
        }
        if (withFabric.isEmpty()) return RackCheck.unknown(item, "NVML would not say (drivers before R550 have no fabric info)", "");
        Map<String, List<String>> byState = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        String fix = "";
        for (NvmlGpu g : withFabric) {
            NvmlGpu.Fabric f = g.fabric();
            String s = f.state().toString() + (f.health() == null ? "" : ", " + f.health());
            byState.computeIfAbsent(s, k -> new ArrayList<>()).add(label(g));
            switch (f.state()) {
                case NOT_STARTED, IN_PROGRESS -> {
                    problems.add(label(g) + " " + f.state());
                    fix = "HGX: systemctl status nvidia-fabricmanager (it must run, of the driver's version); GB200 NVL: the switch trays' fabric management";
                }
                case COMPLETED -> {
                    if (f.status() != null && f.status() != 0) problems.add(label(g) + " completed with " + (f.error() == null ? "status " + f.status() : f.error()));
                    else if (!f.hasCluster())
                        problems.add(label(g) + " has no cluster UUID: NCCL turns multi-node NVLink off without a word");
                    if (f.health() == NvmlGpu.Fabric.HealthSummary.UNHEALTHY || f.health() == NvmlGpu.Fabric.HealthSummary.LIMITED_CAPACITY)
                        problems.add(label(g) + " " + f.health());
                    if (f.healthDetail() != null && f.healthDetail().anyProblem()) problems.add(label(g) + ": " + health(f.healthDetail()));
                }
                default -> problems.add(label(g) + " in state " + f.state());
            }
        }
        List<String> parts = new ArrayList<>();
        byState.forEach((s, names) -> parts.add(s + ": " + Finding.some(names)));
        NvmlGpu.Fabric first = withFabric.getFirst().fabric();
        String value = String.join("; ", parts) + (first.cliqueId() == null ? "" : "; clique " + first.cliqueId());
        if (!problems.isEmpty()) {
            return RackCheck.of(item, RackVerdict.WARN, value, String.join("; ", problems)
                    + " (\"in progress\" for minutes means the fabric manager is down: NVSentinel#889 went 20 days unnoticed)", fix.isEmpty() ? "nvidia-smi -q, section Fabric, for the detail; then the fabric manager or the switch trays' operator" : fix);
        }
        return RackCheck.ok(item, value, "registered with its NVLink fabric, healthy");
    }

    static String health(FabricHealth h) {
        List<String> p = new ArrayList<>();
        if (h.degradedBandwidth() == FabricHealth.Flag.YES) p.add("degraded bandwidth");
        if (h.routeRecovery() == FabricHealth.Flag.YES) p.add("route recovery in progress");
        if (h.routeUnhealthy() == FabricHealth.Flag.YES) p.add("route unhealthy");
        if (h.accessTimeoutRecovery() == FabricHealth.Flag.YES) p.add("access-timeout recovery");
        if (h.incorrectConfiguration().isProblem()) p.add("incorrect configuration: " + h.incorrectConfiguration());
        return String.join(", ", p);
    }

    // ---- 18. fabric readiness (the only item that can be bad) and 19. NVLS ----

    static RackCheck readiness(List<FabricReadiness> rs) {
        RackItem item = RackItem.FABRIC_READINESS;
        List<FabricReadiness> failed = rs.stream().filter(r -> r.outcome() == FabricReadiness.Outcome.NOT_READY).toList();
        if (!failed.isEmpty()) {
            FabricReadiness f = failed.getFirst();
            String value = "not ready on " + failed.size() + " of " + rs.size() + " GPU" + (rs.size() == 1 ? "" : "s") + ": " + f.failedStep()
                    + step(f, f.failedStep());
            // the row names the failed step's rule (M5-FABRIC-NO-CHANNEL, ...), with the first failed GPU's evidence
            return new RackCheck(item, value, RackVerdict.BAD, f.why() + "; NCCL will not use multi-node NVLink here", f.fix(),
                    f.finding().id(), f.finding().evidence(), f.finding().source());
        }
        if (rs.stream().allMatch(r -> r.outcome() == FabricReadiness.Outcome.NOT_APPLICABLE)) {
            return RackCheck.na(item, rs.getFirst().why());
        }
        FabricReadiness r = rs.stream().filter(x -> x.outcome() == FabricReadiness.Outcome.READY).findFirst().orElseThrow();
        String times = String.join(", ", r.steps().stream().filter(s -> s.micros() != null && s.outcome() == FabricReadiness.StepOutcome.OK
                && !s.name().equals(FabricReadiness.STEP_ATTRIBUTE)).map(s -> s.name() + " " + s.micros() + " us").toList());
        long ready = rs.stream().filter(x -> x.outcome() == FabricReadiness.Outcome.READY).count();
        return RackCheck.ok(item, "ready on " + ready + " of " + rs.size() + " GPU" + (rs.size() == 1 ? "" : "s") + " (" + times + ")",
                r.why() + "; " + r.caveat());
    }

    private static String step(FabricReadiness r, String name) {
        return r.steps().stream().filter(s -> s.name().equals(name) && s.error() != null).findFirst()
                .map(s -> " (" + s.call() + ": " + s.error() + (s.errorCode() == null ? "" : " " + s.errorCode()) + ")").orElse("");
    }

    static RackCheck nvls(List<FabricReadiness> rs) {
        RackItem item = RackItem.NVLS;
        if (rs.stream().anyMatch(r -> Integer.valueOf(1).equals(r.multicastSupported()))) {
            return RackCheck.of(item, RackVerdict.INFO, "multicast supported (attribute 132)",
                    "NCCL uses NVLink SHARP for all-reduce here; hostside never creates a multicast object, since a failed bind can take GPUs shared with other jobs out of service",
                    "test NVLS in a maintenance window (nvbandwidth's multicast test, or nccl-tests all_reduce with NCCL_NVLS_ENABLE=1); if binds fail in jobs, NCCL_NVLS_ENABLE=0 is the workaround");
        }
        if (rs.stream().allMatch(r -> Integer.valueOf(0).equals(r.multicastSupported()))) return RackCheck.na(item, "no GPU here supports NVLink multicast (attribute 132 is 0)");
        return RackCheck.unknown(item, "this driver does not know attribute 132 (multicast)", "");
    }

    // ---- 21. failure domain: chassis, tray and slot where NVML has them; what the GPUs share ----

    static RackCheck failureDomain(MachineFacts machine, List<NvmlGpu> gpus) {
        List<String> parts = new ArrayList<>();
        for (NvmlGpu g : gpus) {
            NvmlGpu.Platform p = g.platform();
            if (p == null || !p.supported()) continue;
            parts.add(String.format(Locale.ROOT, "%s: chassis %s, tray %s, slot %s, host %s", label(g),
                    p.chassisSerialHash() == null ? "?" : p.chassisSerialHash().substring(0, Math.min(8, p.chassisSerialHash().length())),
                    p.trayIndex(), p.slotNumber(), p.hostId()));
        }
        return PlacementChecks.failureDomain(machine, parts, "no rack position from NVML (nvmlDeviceGetPlatformInfo answers on Blackwell and later)");
    }

    private static String label(NvmlGpu g) {
        return "GPU" + g.index();
    }
}
