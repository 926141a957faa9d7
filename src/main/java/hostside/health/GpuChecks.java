package hostside.health;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.gpu.nvml.ClockEvents;
import hostside.gpu.nvml.GpuHealth;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.nvml.NvmlHealth;
import hostside.gpu.nvml.NvmlTypes;
import hostside.gpu.nvml.Unread;

/**
 * The checks of what NVML answered, GPU by GPU: memory (ECC, retired pages, row remapping), state
 * (the driver's recovery action, clocks held down by the hardware, temperature, power limit,
 * persistence, compute and MIG modes), PCIe replays and NVLink. A field NVML did not give is never
 * taken as clean: where it was refused (no permission, an error) the GPU's unread fields become one
 * {@link HealthRules#NOT_JUDGED} finding; where the GPU lacks the feature nothing is said.
 */
final class GpuChecks {
    private GpuChecks() {}

    /** DCGM's replays a minute a lane at the BER of 1e-12, for PCIe Gen1 to Gen6: the lane rate in Gb/s x 1e-12 x 1e9 x 60. */
    static final double[] REPLAYS_PER_MINUTE_PER_LANE = {0.15, 0.3, 0.48, 0.96, 1.92, 3.84};
    /** DCGM_LIMIT_MAX_RETIRED_PAGES: at this many retired pages a GPU fails DCGM's memory watch. */
    static final long MAX_RETIRED_PAGES = 63;
    /** Within this many degrees C of the slowdown threshold at rest, a training step's heat reaches it. */
    static final int TEMPERATURE_MARGIN_C = 5;

    static void check(NvmlHealth nvml, Judged out) {
        if (nvml.notRun() != null) {
            notRun(nvml, out);
            return;
        }
        for (GpuHealth g : nvml.gpus()) gpu(g, out);
    }

    /** NVML could not be used at all: a driver fault is bad; no NVIDIA library is no GPU to check (the host checks say if GPUs are on the bus). */
    private static void notRun(NvmlHealth nvml, Judged out) {
        Integer code = nvml.notRunCode();
        Evidence e = Evidence.fact("nvmlInit_v2", nvml.notRun());
        if (code != null && (code == NvmlTypes.NVML_ERROR_DRIVER_NOT_LOADED || code == NvmlTypes.NVML_ERROR_LIB_RM_VERSION_MISMATCH)) {
            out.add(HealthRules.DRIVER.finding(BAD, "driver", nvml.notRun(), e));
        } else if (code != null && code == NvmlTypes.NVML_ERROR_NO_PERMISSION) {
            out.add(HealthRules.NOT_JUDGED.unknown("GPUs", "NVML refused this user (" + nvml.notRun() + "): no GPU's health was read;"
                    + " run as root or as a member of the group that owns /dev/nvidia*", List.of(e)));
        }
    }

    static void gpu(GpuHealth g, Judged out) {
        String s = "GPU" + g.index();
        List<Unread> fatal = g.unread().stream().filter(u -> u.gpuLost() || u.resetRequired()).toList();
        if (!fatal.isEmpty()) {
            Unread u = fatal.getFirst();
            out.add(HealthRules.GPU_LOST.finding(BAD, s, s + (u.gpuLost() ? " fell off the bus or is otherwise unreachable" : " needs a reset")
                    + " (NVML: " + u.why() + "); nothing else of it was read", Evidence.fact(u.field(), u.why())));
            return;
        } else {
            out.pass(HealthRules.GPU_LOST, s);
        }
        if (g.memory() != null) memory(s, g.memory(), out);
        if (g.state() != null) state(s, g.state(), out);
        if (g.pcie() != null) replays(s, g.pcie(), out);
        if (g.nvLinks() != null) nvLinks(s, g.nvLinks(), out);
        if (g.fabric() != null) fabric(s, g.fabric(), out);
        refused(s, g.unread(), out);
    }

    // ---- memory ----

    static void memory(String s, GpuHealth.Memory m, Judged out) {
        if (Boolean.FALSE.equals(m.eccEnabled())) {
            out.add(HealthRules.ECC_MODE.finding(WARN, s, s + ": ECC is off" + (Boolean.TRUE.equals(m.eccPendingEnabled()) ? " (on after the next reboot)" : ""),
                    Evidence.fact("nvmlDeviceGetEccMode.current", "disabled")));
        } else if (Boolean.TRUE.equals(m.eccEnabled()) && Boolean.FALSE.equals(m.eccPendingEnabled())) {
            out.add(HealthRules.ECC_MODE.finding(INFO, s, s + ": ECC is on and turns off at the next reboot",
                    Evidence.fact("nvmlDeviceGetEccMode.pending", "disabled")));
        } else if (Boolean.TRUE.equals(m.eccEnabled())) {
            out.pass(HealthRules.ECC_MODE, s);
        }

        Long volatileUnc = uncorrected(m.volatileErrors()), aggregateUnc = uncorrected(m.aggregateErrors());
        if (volatileUnc != null && volatileUnc > 0) {
            out.add(HealthRules.ECC_UNCORRECTED.finding(BAD, s, String.format(Locale.ROOT, "%s: %d uncorrectable ECC error%s since the driver loaded",
                    s, volatileUnc, volatileUnc == 1 ? "" : "s"), Evidence.fact("nvmlDeviceGetTotalEccErrors.uncorrected.volatile", volatileUnc.toString())));
        } else if (aggregateUnc != null && aggregateUnc > 0) {
            out.add(HealthRules.ECC_UNCORRECTED.finding(INFO, s, String.format(Locale.ROOT, "%s: %d uncorrectable ECC error%s in its life, none since"
                    + " the driver loaded", s, aggregateUnc, aggregateUnc == 1 ? "" : "s"),
                    Evidence.fact("nvmlDeviceGetTotalEccErrors.uncorrected.aggregate", aggregateUnc.toString())));
        } else if (volatileUnc != null) {
            out.pass(HealthRules.ECC_UNCORRECTED, s);
        }

        Long sramUnc = m.aggregateErrors() == null ? null : sum(m.aggregateErrors().sramUncorrectedParity(), m.aggregateErrors().sramUncorrectedSecDed());
        if (Boolean.TRUE.equals(m.sramThresholdExceeded())) {
            out.add(HealthRules.SRAM.finding(BAD, s, s + ": its SRAM errors exceed the field diagnostic's threshold",
                    Evidence.fact("nvmlDeviceGetSramEccErrorStatus.bThresholdExceeded", "1")));
        } else if (sramUnc != null && sramUnc > 0) {
            out.add(HealthRules.SRAM.finding(WARN, s, String.format(Locale.ROOT, "%s: %d uncorrectable SRAM error%s in its life", s, sramUnc, sramUnc == 1 ? "" : "s"),
                    Evidence.fact("nvmlDeviceGetSramEccErrorStatus.aggregateUnc", sramUnc.toString())));
        } else if (m.sramThresholdExceeded() != null) {
            out.pass(HealthRules.SRAM, s);
        }

        GpuHealth.RetiredPages rp = m.retiredPages();
        if (rp != null) {
            Long total = sum(rp.singleBit(), rp.doubleBit());
            if (total != null && total >= MAX_RETIRED_PAGES) {
                out.add(HealthRules.RETIRED_PAGES.finding(BAD, s, String.format(Locale.ROOT, "%s: %d retired pages, at DCGM's limit of %d", s, total, MAX_RETIRED_PAGES),
                        Evidence.fact("nvmlDeviceGetRetiredPages", total.toString())));
            } else if (Boolean.TRUE.equals(rp.pending())) {
                out.add(HealthRules.RETIRED_PAGES.finding(WARN, s, s + ": pages are pending retirement until the driver reloads",
                        Evidence.fact("nvmlDeviceGetRetiredPagesPendingStatus", "1")));
            } else if (total != null || rp.pending() != null) {
                out.pass(HealthRules.RETIRED_PAGES, s);
            }
        }

        GpuHealth.RemappedRows rows = m.remappedRows();
        if (rows != null) {
            if (Boolean.TRUE.equals(rows.failureOccurred())) {
                out.add(HealthRules.ROW_REMAP_FAILED.finding(BAD, s, s + ": a row remapping has failed",
                        Evidence.fact("nvmlDeviceGetRemappedRows.failureOccurred", "1")));
            } else if (rows.failureOccurred() != null) {
                out.pass(HealthRules.ROW_REMAP_FAILED, s);
            }
            if (Boolean.TRUE.equals(rows.pending())) {
                out.add(HealthRules.ROW_REMAP_PENDING.finding(WARN, s, s + ": a row remap is pending until the GPU is reset"
                        + remapCounts(rows), Evidence.fact("nvmlDeviceGetRemappedRows.isPending", "1")));
            } else if (rows.pending() != null) {
                out.pass(HealthRules.ROW_REMAP_PENDING, s);
            }
        }
        GpuHealth.RemapHistogram h = m.remapHistogram();
        if (h != null && h.none() != null) {
            if (h.none() > 0) {
                out.add(HealthRules.REMAP_BANKS.finding(WARN, s, String.format(Locale.ROOT, "%s: %d memory bank%s with no spare row left", s, h.none(),
                        h.none() == 1 ? "" : "s"), Evidence.fact("nvmlDeviceGetRowRemapperHistogram.none", h.none().toString())));
            } else {
                out.pass(HealthRules.REMAP_BANKS, s);
            }
        }
        if (Boolean.TRUE.equals(m.unrepairable())) {
            out.add(HealthRules.UNREPAIRABLE.finding(BAD, s, s + ": NVIDIA flags its memory as unrepairable",
                    Evidence.fact("nvmlDeviceGetUnrepairableMemoryFlag_v1.bUnrepairableMemory", "1")));
        } else if (m.unrepairable() != null) {
            out.pass(HealthRules.UNREPAIRABLE, s);
        }
    }

    private static String remapCounts(GpuHealth.RemappedRows r) {
        if (r.correctable() == null && r.uncorrectable() == null) return "";
        return String.format(Locale.ROOT, " (rows remapped so far: %s for correctable, %s for uncorrectable errors)",
                r.correctable() == null ? "?" : r.correctable(), r.uncorrectable() == null ? "?" : r.uncorrectable());
    }

    /** Uncorrectable errors of a counter: NVML's total where it gave one, else DRAM's and SRAM's together. */
    static Long uncorrected(GpuHealth.EccCounts c) {
        if (c == null) return null;
        if (c.totalUncorrected() != null) return c.totalUncorrected();
        return sum(c.dramUncorrected(), c.sramUncorrectedParity(), c.sramUncorrectedSecDed());
    }

    /** The sum of the counts that are known; null when none is. */
    static Long sum(Long... counts) {
        Long total = null;
        for (Long c : counts) if (c != null) total = total == null ? c : total + c;
        return total;
    }

    // ---- state ----

    static void state(String s, GpuHealth.State st, Judged out) {
        recovery(s, st.recoveryAction(), out);
        slowdown(s, st, out);
        temperature(s, st, out);
        if (st.powerLimitMw() != null && st.defaultPowerLimitMw() != null) {
            if (st.powerLimitMw() < st.defaultPowerLimitMw()) {
                out.add(HealthRules.POWER_CAPPED.finding(WARN, s, String.format(Locale.ROOT, "%s: power limited to %.0f W, below its default %.0f W", s,
                        st.powerLimitMw() / 1000.0, st.defaultPowerLimitMw() / 1000.0), Evidence.fact("nvmlDeviceGetEnforcedPowerLimit", st.powerLimitMw() + " mW"),
                        Evidence.fact("nvmlDeviceGetPowerManagementDefaultLimit", st.defaultPowerLimitMw() + " mW")));
            } else {
                out.pass(HealthRules.POWER_CAPPED, s);
            }
        }
        if (Boolean.FALSE.equals(st.persistenceMode())) {
            out.add(HealthRules.PERSISTENCE.finding(WARN, s, s + ": persistence mode is off", Evidence.fact("nvmlDeviceGetPersistenceMode", "disabled")));
        } else if (st.persistenceMode() != null) {
            out.pass(HealthRules.PERSISTENCE, s);
        }
        if (st.computeMode() != null) {
            switch (st.computeMode()) {
                case PROHIBITED -> out.add(HealthRules.COMPUTE_MODE.finding(BAD, s, s + ": compute mode Prohibited, no CUDA context can be made",
                        Evidence.fact("nvmlDeviceGetComputeMode", st.computeMode().toString())));
                case EXCLUSIVE_PROCESS, EXCLUSIVE_THREAD -> out.add(HealthRules.COMPUTE_MODE.finding(INFO, s, s + ": compute mode " + st.computeMode()
                        + ", one process at a time", Evidence.fact("nvmlDeviceGetComputeMode", st.computeMode().toString())));
                case DEFAULT -> out.pass(HealthRules.COMPUTE_MODE, s);
                default -> { } // a mode newer than hostside: the unread line says which number
            }
        }
        if (st.migEnabled() != null && st.migPendingEnabled() != null) {
            if (!st.migEnabled().equals(st.migPendingEnabled())) {
                out.add(HealthRules.MIG_PENDING.finding(WARN, s, s + ": MIG is " + onOff(st.migEnabled()) + " and turns " + onOff(st.migPendingEnabled())
                        + " at the next GPU reset", Evidence.fact("nvmlDeviceGetMigMode", onOff(st.migEnabled()) + ", pending " + onOff(st.migPendingEnabled()))));
            } else {
                out.pass(HealthRules.MIG_PENDING, s);
            }
        }
    }

    private static void recovery(String s, GpuHealth.RecoveryAction action, Judged out) {
        if (action == null) return;
        Evidence e = Evidence.fact("NVML_FI_DEV_GET_GPU_RECOVERY_ACTION", action.toString());
        switch (action) {
            case NONE -> out.pass(HealthRules.RECOVERY_ACTION, s);
            case DRAIN_P2P -> out.add(HealthRules.RECOVERY_ACTION.finding(WARN, s, s + ": the driver asks to drain peer-to-peer traffic, then reset", e));
            case GPU_RESET -> out.add(HealthRules.RECOVERY_ACTION.finding(BAD, s, s + ": the driver asks for a GPU reset", e));
            case NODE_REBOOT -> out.add(HealthRules.RECOVERY_ACTION.finding(BAD, s, s + ": the driver asks for a reboot of the node", e));
            case DRAIN_AND_RESET -> out.add(HealthRules.RECOVERY_ACTION.finding(BAD, s, s + ": the driver asks to drain the GPU, then reset it", e));
            case RECOVER_IMEX_DOMAIN -> out.add(HealthRules.RECOVERY_ACTION.finding(BAD, s, s + ": the driver asks to recover the IMEX domain", e));
            default -> out.add(HealthRules.RECOVERY_ACTION.finding(WARN, s, s + ": the driver asks for a recovery action newer than hostside knows"
                    + " (nvidia-smi -q shows it as GPU Recovery Action)", e));
        }
    }

    /** HW thermal slowdown and HW power brake: the hardware protecting itself, as opposed to HW Slowdown alone. */
    static final long PROTECTING = NvmlTypes.nvmlClocksThrottleReasonHwThermalSlowdown | NvmlTypes.nvmlClocksThrottleReasonHwPowerBrakeSlowdown;

    private static void slowdown(String s, GpuHealth.State st, Judged out) {
        Long reasons = st.clockEventReasons();
        GpuHealth.ThrottleTime t = st.throttleTime();
        if (reasons != null && (reasons & PROTECTING) != 0) {
            out.add(HealthRules.CLOCK_SLOWDOWN.finding(BAD, s, s + ": clocks held down now by " + String.join(", ", ClockEvents.names(reasons & PROTECTING)),
                    Evidence.fact("nvmlDeviceGetCurrentClocksEventReasons", hex(reasons))));
        } else if (reasons != null && (reasons & NvmlTypes.nvmlClocksThrottleReasonHwSlowdown) != 0) {
            out.add(HealthRules.CLOCK_SLOWDOWN.finding(WARN, s, s + ": clocks held down now by HW Slowdown",
                    Evidence.fact("nvmlDeviceGetCurrentClocksEventReasons", hex(reasons))));
        } else if (t != null && positive(sum(t.hwThermalNs(), t.hwPowerBrakeNs()))) {
            out.add(HealthRules.CLOCK_SLOWDOWN.finding(INFO, s, String.format(Locale.ROOT, "%s: %.1f s in HW thermal slowdown and %.1f s in power brake"
                    + " since the driver loaded, none now", s, seconds(t.hwThermalNs()), seconds(t.hwPowerBrakeNs())),
                    Evidence.fact("NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_THERM_SLOWDOWN", Objects.toString(t.hwThermalNs()) + " ns"),
                    Evidence.fact("NVML_FI_DEV_CLOCKS_EVENT_REASON_HW_POWER_BRAKE_SLOWDOWN", Objects.toString(t.hwPowerBrakeNs()) + " ns")));
        } else if (reasons != null) {
            out.pass(HealthRules.CLOCK_SLOWDOWN, s);
        }
    }

    private static void temperature(String s, GpuHealth.State st, Judged out) {
        Integer margin = st.marginTempC();
        if (margin == null && st.gpuTempC() != null && st.slowdownTempC() != null) margin = st.slowdownTempC() - st.gpuTempC();
        if (margin == null) return;
        String now = st.gpuTempC() == null ? "" : " at " + st.gpuTempC() + " C";
        Evidence e = Evidence.fact("nvmlDeviceGetMarginTemperature", margin + " C");
        if (margin <= 0) {
            out.add(HealthRules.TEMPERATURE.finding(BAD, s, s + now + " is at its slowdown temperature (" + margin + " C to go)", e));
        } else if (margin < TEMPERATURE_MARGIN_C) {
            out.add(HealthRules.TEMPERATURE.finding(WARN, s, s + now + " is " + margin + " C from its slowdown temperature", e));
        } else {
            out.pass(HealthRules.TEMPERATURE, s);
        }
    }

    // ---- PCIe and NVLink ----

    static void replays(String s, GpuHealth.Pcie p, Judged out) {
        if (p.replays() == null) return;
        Evidence e = Evidence.fact("nvmlDeviceGetPcieReplayCounter", p.replays().toString());
        Long perMinute = replayLimit(p.gen(), p.width());
        if (p.replays() == 0) {
            out.pass(HealthRules.PCIE_REPLAYS, s);
        } else if (perMinute != null && p.replays() > perMinute) {
            out.add(HealthRules.PCIE_REPLAYS.finding(WARN, s, String.format(Locale.ROOT, "%s: %d PCIe replays since the driver loaded, more than"
                    + " DCGM allows in a minute at Gen%d x%d (%d)", s, p.replays(), p.gen(), p.width(), perMinute), e));
        } else {
            out.add(HealthRules.PCIE_REPLAYS.finding(INFO, s, String.format(Locale.ROOT, "%s: %d PCIe replay%s since the driver loaded", s, p.replays(),
                    p.replays() == 1 ? "" : "s"), e));
        }
    }

    /** DCGM's replays a minute for a link: ceil(per-lane rate x lanes); null when the link is not known. Generations past 6 take Gen6's, as DCGM does. */
    static Long replayLimit(Integer gen, Integer width) {
        if (gen == null || width == null || gen < 1 || width < 1) return null;
        return (long) Math.ceil(REPLAYS_PER_MINUTE_PER_LANE[Math.min(gen, REPLAYS_PER_MINUTE_PER_LANE.length) - 1] * width);
    }

    static void nvLinks(String s, List<GpuHealth.Link> links, Judged out) {
        if (links.isEmpty()) return;
        List<Integer> down = links.stream().filter(l -> !l.active()).map(GpuHealth.Link::link).toList();
        Evidence state = Evidence.fact("nvmlDeviceGetNvLinkState", (links.size() - down.size()) + " of " + links.size() + " active");
        if (down.size() == links.size()) {
            out.add(HealthRules.NVLINK_DOWN.finding(WARN, s, s + ": none of its " + links.size() + " NVLinks is active", state));
        } else if (!down.isEmpty()) {
            out.add(HealthRules.NVLINK_DOWN.finding(BAD, s, s + ": NVLink " + numbers(down) + " inactive, " + (links.size() - down.size()) + " of "
                    + links.size() + " active", state));
        } else {
            out.pass(HealthRules.NVLINK_DOWN, s);
        }
        List<String> serious = new ArrayList<>(), crc = new ArrayList<>();
        boolean read = false;
        for (GpuHealth.Link l : links) {
            if (!l.active()) continue;
            read |= l.replayErrors() != null || l.recoveryErrors() != null || l.symbolErrors() != null;
            count(serious, l, "replays", l.replayErrors());
            count(serious, l, "recoveries", l.recoveryErrors());
            count(serious, l, "symbol errors", l.symbolErrors());
            count(serious, l, "failed recoveries", l.recoveryFailed());
            count(crc, l, "CRC flit errors", l.crcFlitErrors());
            count(crc, l, "CRC data errors", l.crcDataErrors());
        }
        if (!serious.isEmpty()) {
            out.add(HealthRules.NVLINK_ERRORS.finding(WARN, s, s + " NVLink errors since the driver loaded: " + Finding.some(serious),
                    Evidence.fact("nvmlDeviceGetNvLinkErrorCounter", String.join("; ", serious))));
        } else if (!crc.isEmpty()) {
            out.add(HealthRules.NVLINK_ERRORS.finding(INFO, s, s + " NVLink CRC errors since the driver loaded (retried): " + Finding.some(crc),
                    Evidence.fact("nvmlDeviceGetNvLinkErrorCounter", String.join("; ", crc))));
        } else if (read) {
            out.pass(HealthRules.NVLINK_ERRORS, s);
        }
    }

    private static void count(List<String> into, GpuHealth.Link l, String what, Long n) {
        if (n != null && n > 0) into.add("link " + l.link() + " " + n + " " + what);
    }

    /** The GPU's registration with the NVLink fabric; a GPU without one (NOT_SUPPORTED: no NVSwitch fabric) has nothing to say. */
    static void fabric(String s, NvmlGpu.Fabric f, Judged out) {
        if (f.state() == NvmlGpu.Fabric.State.NOT_SUPPORTED || f.state() == null) return;
        Evidence e = Evidence.fact("nvmlDeviceGetGpuFabricInfoV", f.state() + (f.health() == null ? "" : ", health " + f.health())
                + (f.error() == null ? "" : ", " + f.error()));
        switch (f.state()) {
            case NOT_STARTED, IN_PROGRESS -> out.add(HealthRules.FABRIC.finding(BAD, s, s + ": its NVLink fabric registration is " + f.state()
                    + ": CUDA cannot start on it until the fabric manager completes it", e));
            case COMPLETED -> {
                if (f.error() != null || (f.status() != null && f.status() != NvmlTypes.NVML_SUCCESS)) {
                    out.add(HealthRules.FABRIC.finding(BAD, s, s + ": its fabric registration completed with an error: " + f.error(), e));
                } else if (f.health() == NvmlGpu.Fabric.HealthSummary.UNHEALTHY) {
                    out.add(HealthRules.FABRIC.finding(BAD, s, s + ": its NVLink fabric is unhealthy", e));
                } else if (f.health() == NvmlGpu.Fabric.HealthSummary.LIMITED_CAPACITY) {
                    out.add(HealthRules.FABRIC.finding(WARN, s, s + ": its NVLink fabric runs at limited capacity", e));
                } else {
                    out.pass(HealthRules.FABRIC, s);
                }
            }
            default -> out.add(HealthRules.FABRIC.finding(WARN, s, s + ": its fabric state is one hostside does not know (" + f.state() + ")", e));
        }
    }

    // ---- what was not read ----    // ---- what was not read ----

    /** Fields NVML refused (no permission, an unexpected error): one unknown finding naming them; features the GPU lacks are not listed. */
    static void refused(String s, List<Unread> unread, Judged out) {
        List<Unread> refused = unread.stream().filter(u -> !u.notSupported() && !u.driverTooOld()).toList();
        if (refused.isEmpty()) return;
        List<String> fields = refused.stream().map(u -> u.field() + " (" + u.why() + ")").toList();
        out.add(HealthRules.NOT_JUDGED.unknown(s, s + ": NVML would not give " + Finding.some(fields),
                refused.stream().<Evidence>map(u -> Evidence.fact(u.field(), u.why())).toList()));
    }

    private static String numbers(List<Integer> links) {
        return String.join(", ", links.stream().map(String::valueOf).toList());
    }

    private static String onOff(Boolean b) {
        return b ? "on" : "off";
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static boolean positive(Long v) {
        return v != null && v > 0;
    }

    private static double seconds(Long ns) {
        return ns == null ? 0 : ns / 1e9;
    }
}
