package hostside.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

import hostside.core.Finding;
import hostside.core.Severity;
import hostside.doc.PrometheusText;
import hostside.doc.PrometheusText.Family;
import hostside.doc.PrometheusText.Sample;
import hostside.doc.PrometheusText.Type;
import hostside.gpu.nvml.ClockEvents;
import hostside.gpu.nvml.GpuHealth;

/**
 * Node health as node_exporter's textfile collector reads it: one family per quantity, the GPU,
 * link, port or rule as labels, the names under {@code hostside_} on the stems dcgm-exporter's
 * DCGM_FI_DEV_* fields use, so that dashboards read them alike. A quantity NVML did not give is
 * left out (no sample), never written as 0: an absent series is "not read", a 0 is "none".
 */
public final class HealthMetrics {
    private HealthMetrics() {}

    public static PrometheusText of(HealthRun run) {
        List<Family> out = new ArrayList<>();
        findings(run, out);
        gpus(run.facts(), out);
        links(run.facts().links(), out);
        xids(run.facts().xids(), out);
        return new PrometheusText(out);
    }

    private static void findings(HealthRun run, List<Family> out) {
        List<Sample> counts = new ArrayList<>();
        for (Severity s : Severity.values()) {
            if (s == Severity.OK) continue;
            counts.add(Sample.of(run.findings().stream().filter(f -> f.severity() == s).count(), "severity", s.toString()));
        }
        out.add(new Family("hostside_health_findings", "Findings of hostside health by severity (bad, warn, unknown, info)", Type.GAUGE, counts));
        Map<List<String>, Integer> each = new LinkedHashMap<>();
        for (Finding f : run.findings()) each.merge(List.of(f.id(), f.severity().toString(), f.subject()), 1, Integer::sum);
        add(out, "hostside_health_finding", "Findings of one rule about one subject; the rule's meaning and fix: hostside rules RULE", Type.GAUGE,
                each.entrySet().stream().map(e -> Sample.of(e.getValue(), "rule", e.getKey().get(0), "severity", e.getKey().get(1),
                        "subject", e.getKey().get(2))).toList());
        out.add(new Family("hostside_health_checks_passed", "Checks of hostside health that read their facts and found nothing wrong",
                Type.GAUGE, List.of(Sample.of(run.passed().size()))));
        out.add(new Family("hostside_health_gpus_judged", "1 when hostside health could read the node's GPUs (or the node has none), 0 when"
                + " it could not", Type.GAUGE, List.of(Sample.of(run.gpusNotJudged() ? 0 : 1))));
    }

    /** Samples of one GPU quantity, labelled with the GPU's index and bus id. */
    private static final class GpuFamily {
        final String name, help;
        final Type type;
        final List<Sample> samples = new ArrayList<>();

        GpuFamily(String name, String help, Type type) {
            this.name = name;
            this.help = help;
            this.type = type;
        }

        void add(GpuHealth g, Number value, String... labels) {
            if (value == null) return;
            String[] all = new String[4 + labels.length];
            all[0] = "gpu";
            all[1] = Integer.toString(g.index());
            all[2] = "pci_bus_id";
            all[3] = g.pciBusId() == null ? "" : g.pciBusId();
            System.arraycopy(labels, 0, all, 4, labels.length);
            samples.add(Sample.of(value.doubleValue(), all));
        }

        void addTo(List<Family> out) {
            HealthMetrics.add(out, name, help, type, samples);
        }
    }

    private static void gpus(HealthFacts f, List<Family> out) {
        List<GpuHealth> gpus = f.nvml().gpus();
        family(out, "hostside_gpu_ecc_errors", "ECC errors NVML counts: volatile since the driver loaded, aggregate over the board's life",
                Type.GAUGE, gpus, (fam, g) -> {
                    GpuHealth.Memory m = g.memory();
                    if (m == null) return;
                    for (var c : List.of(Map.entry("volatile", m.volatileErrors()), Map.entry("aggregate", m.aggregateErrors()))) {
                        if (c.getValue() == null) continue;
                        fam.add(g, c.getValue().totalCorrected(), "counter", c.getKey(), "type", "corrected");
                        fam.add(g, GpuChecks.uncorrected(c.getValue()), "counter", c.getKey(), "type", "uncorrected");
                    }
                });
        family(out, "hostside_gpu_remapped_rows", "GPU memory rows remapped, by the errors that caused them", Type.GAUGE, gpus, (fam, g) -> {
            GpuHealth.RemappedRows r = g.memory() == null ? null : g.memory().remappedRows();
            if (r == null) return;
            fam.add(g, r.correctable(), "cause", "correctable");
            fam.add(g, r.uncorrectable(), "cause", "uncorrectable");
        });
        family(out, "hostside_gpu_row_remap_pending", "1 when a row remap waits for a GPU reset", Type.GAUGE, gpus,
                (fam, g) -> fam.add(g, bit(g.memory() == null || g.memory().remappedRows() == null ? null : g.memory().remappedRows().pending())));
        family(out, "hostside_gpu_row_remap_failure", "1 when a row remapping has failed (NVIDIA's RMA condition)", Type.GAUGE, gpus,
                (fam, g) -> fam.add(g, bit(g.memory() == null || g.memory().remappedRows() == null ? null : g.memory().remappedRows().failureOccurred())));
        family(out, "hostside_gpu_remap_banks", "Memory banks by the spare rows they have left (max: all, none: no spare row)", Type.GAUGE, gpus, (fam, g) -> {
            GpuHealth.RemapHistogram h = g.memory() == null ? null : g.memory().remapHistogram();
            if (h == null) return;
            fam.add(g, h.max(), "availability", "max");
            fam.add(g, h.high(), "availability", "high");
            fam.add(g, h.partial(), "availability", "partial");
            fam.add(g, h.low(), "availability", "low");
            fam.add(g, h.none(), "availability", "none");
        });
        family(out, "hostside_gpu_retired_pages", "GPU memory pages retired (GPUs before Ampere), by cause", Type.GAUGE, gpus, (fam, g) -> {
            GpuHealth.RetiredPages p = g.memory() == null ? null : g.memory().retiredPages();
            if (p == null) return;
            fam.add(g, p.singleBit(), "cause", "single_bit");
            fam.add(g, p.doubleBit(), "cause", "double_bit");
        });
        family(out, "hostside_gpu_temperature_celsius", "GPU and memory temperature", Type.GAUGE, gpus, (fam, g) -> {
            if (g.state() == null) return;
            fam.add(g, g.state().gpuTempC(), "sensor", "gpu");
            fam.add(g, g.state().memoryTempC(), "sensor", "memory");
        });
        family(out, "hostside_gpu_temperature_margin_celsius", "Degrees to the GPU's slowdown temperature (nvidia-smi's GPU T.Limit Temp)",
                Type.GAUGE, gpus, (fam, g) -> fam.add(g, g.state() == null ? null : g.state().marginTempC()));
        family(out, "hostside_gpu_power_watts", "Power drawn, averaged over a second", Type.GAUGE, gpus,
                (fam, g) -> fam.add(g, g.state() == null ? null : watts(g.state().powerAverageMw())));
        family(out, "hostside_gpu_power_limit_watts", "The power limit enforced now, and the board's default", Type.GAUGE, gpus, (fam, g) -> {
            if (g.state() == null) return;
            fam.add(g, watts(g.state().powerLimitMw()), "limit", "enforced");
            fam.add(g, watts(g.state().defaultPowerLimitMw()), "limit", "default");
        });
        family(out, "hostside_gpu_clock_event_reason_active", "1 for each reason holding the GPU's clocks down as it was read", Type.GAUGE, gpus, (fam, g) -> {
            Long bits = g.state() == null ? null : g.state().clockEventReasons();
            if (bits == null) return;
            for (ClockEvents.Reason r : ClockEvents.REASONS) {
                fam.add(g, (bits & r.bit()) != 0 ? 1 : 0, "reason", r.words().toLowerCase(Locale.ROOT).replace(' ', '_'));
            }
        });
        family(out, "hostside_gpu_clock_event_seconds_total", "Time the clocks were held down, by reason, since the driver loaded", Type.COUNTER, gpus, (fam, g) -> {
            GpuHealth.ThrottleTime t = g.state() == null ? null : g.state().throttleTime();
            if (t == null) return;
            fam.add(g, seconds(t.swPowerCapNs()), "reason", "sw_power_cap");
            fam.add(g, seconds(t.syncBoostNs()), "reason", "sync_boost");
            fam.add(g, seconds(t.swThermalNs()), "reason", "sw_thermal_slowdown");
            fam.add(g, seconds(t.hwThermalNs()), "reason", "hw_thermal_slowdown");
            fam.add(g, seconds(t.hwPowerBrakeNs()), "reason", "hw_power_brake_slowdown");
        });
        family(out, "hostside_gpu_persistence_mode", "1 when persistence mode is on", Type.GAUGE, gpus,
                (fam, g) -> fam.add(g, bit(g.state() == null ? null : g.state().persistenceMode())));
        family(out, "hostside_gpu_recovery_action", "1 for the recovery action the driver asks for (none when all is well)", Type.GAUGE, gpus,
                (fam, g) -> {
                    if (g.state() != null && g.state().recoveryAction() != null) fam.add(g, 1, "action", g.state().recoveryAction().toString());
                });
        family(out, "hostside_gpu_pcie_link_generation", "The GPU's PCIe generation now and at most", Type.GAUGE, gpus, (fam, g) -> {
            if (g.pcie() == null) return;
            fam.add(g, g.pcie().gen(), "link", "current");
            fam.add(g, g.pcie().maxGen(), "link", "max");
        });
        family(out, "hostside_gpu_pcie_link_width", "The GPU's PCIe lanes now and at most", Type.GAUGE, gpus, (fam, g) -> {
            if (g.pcie() == null) return;
            fam.add(g, g.pcie().width(), "link", "current");
            fam.add(g, g.pcie().maxWidth(), "link", "max");
        });
        family(out, "hostside_gpu_pcie_replays_total", "PCIe replays the GPU counted since the driver loaded", Type.COUNTER, gpus,
                (fam, g) -> fam.add(g, g.pcie() == null ? null : g.pcie().replays()));
        family(out, "hostside_gpu_nvlink_active", "1 for each NVLink that is active", Type.GAUGE, gpus, (fam, g) -> {
            if (g.nvLinks() == null) return;
            for (GpuHealth.Link l : g.nvLinks()) fam.add(g, l.active() ? 1 : 0, "link", Integer.toString(l.link()));
        });
        family(out, "hostside_gpu_nvlink_errors_total", "NVLink errors since the driver loaded, by link and kind", Type.COUNTER, gpus, (fam, g) -> {
            if (g.nvLinks() == null) return;
            for (GpuHealth.Link l : g.nvLinks()) {
                String n = Integer.toString(l.link());
                fam.add(g, l.replayErrors(), "link", n, "type", "replay");
                fam.add(g, l.recoveryErrors(), "link", n, "type", "recovery");
                fam.add(g, l.crcFlitErrors(), "link", n, "type", "crc_flit");
                fam.add(g, l.crcDataErrors(), "link", n, "type", "crc_data");
                fam.add(g, l.symbolErrors(), "link", n, "type", "symbol");
                fam.add(g, l.recoveryFailed(), "link", n, "type", "recovery_failed");
            }
        });
    }

    private static void family(List<Family> out, String name, String help, Type type, List<GpuHealth> gpus,
                               BiConsumer<GpuFamily, GpuHealth> fill) {
        GpuFamily fam = new GpuFamily(name, help, type);
        for (GpuHealth g : gpus) fill.accept(fam, g);
        fam.addTo(out);
    }

    private static void links(List<DeviceLink> links, List<Family> out) {
        List<Sample> gen = new ArrayList<>();
        for (DeviceLink l : links) {
            if (l.idle() == null) continue;
            speed(gen, l, "rest", l.idle().speedGTs());
            speed(gen, l, "max", l.idle().maxSpeedGTs());
            if (l.underLoad() != null) speed(gen, l, "load", l.underLoad().speedGTs());
        }
        add(out, "hostside_pcie_link_speed_gts", "A GPU's or NIC's PCIe link speed per lane from sysfs: at rest, its maximum, and under load where read",
                Type.GAUGE, gen);
    }

    private static void speed(List<Sample> into, DeviceLink l, String state, Double gts) {
        if (gts != null) into.add(Sample.of(gts, "device", l.address(), "kind", l.kind().toString(), "state", state));
    }

    private static void xids(XidLog log, List<Family> out) {
        add(out, "hostside_xid_reports", "NVIDIA Xid reports in the kernel log since boot, by GPU and Xid", Type.GAUGE,
                log.seen().stream().map(s -> Sample.of(s.count(), "pci", s.pci(), "xid", Integer.toString(s.code()))).toList());
    }

    /** A family only where it has samples: an empty one says nothing a scrape needs. */
    static void add(List<Family> out, String name, String help, Type type, List<Sample> samples) {
        if (!samples.isEmpty()) out.add(new Family(name, help, type, samples));
    }

    private static Integer bit(Boolean b) {
        return b == null ? null : b ? 1 : 0;
    }

    private static Double watts(Integer mw) {
        return mw == null ? null : mw / 1000.0;
    }

    private static Double seconds(Long ns) {
        return ns == null ? null : ns / 1e9;
    }
}
