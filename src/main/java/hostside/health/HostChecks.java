package hostside.health;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.gpu.nvml.GpuHealth;
import hostside.health.host.AerChain;
import hostside.health.host.AerCounts;
import hostside.health.host.AerFunction;
import hostside.health.host.AerState;
import hostside.health.host.Agreement;
import hostside.health.host.IbDevice;
import hostside.health.host.IbErrorCounter;
import hostside.health.host.IbPhysState;
import hostside.health.host.IbPort;
import hostside.health.host.IbPortState;
import hostside.health.host.ModuleFlavour;
import hostside.health.host.NicDistance;
import hostside.health.host.PcieRole;
import hostside.health.host.PcieLevel;
import hostside.health.host.Rail;
import hostside.health.host.VersionCheck;
import hostside.health.host.VersionSource;
import hostside.rack.RackFacts;

/**
 * The checks of what the host says about the GPUs' surroundings: PCIe AER counters on each GPU's
 * and NIC's path, InfiniBand/RoCE ports, which NIC each GPU reaches first, and whether NVIDIA's
 * software agrees with itself and the fabric manager runs where NVSwitches need it.
 */
final class HostChecks {
    private HostChecks() {}

    static void check(HealthFacts f, Judged out) {
        aer(f.aer().chains(), out);
        ports(f.ib().devices(), out);
        rails(f.rails().rails(), out);
        software(f, out);
    }

    // ---- PCIe AER ----

    /**
     * Each PCI function on a GPU's or NIC's path judged once, by its own aer_dev_* counters: a switch
     * or root port above two devices is one finding that names both. A root port's
     * aer_rootport_total_err_* counts the error messages of its whole hierarchy, which its devices'
     * own counters already hold; it is judged only where no function below it counted anything
     * (a device whose AER the kernel does not expose, say).
     */
    static void aer(List<AerChain> chains, Judged out) {
        List<String> hidden = new ArrayList<>();
        Map<String, AerFunction> functions = new LinkedHashMap<>();
        Map<String, List<String>> below = new LinkedHashMap<>();
        for (AerChain c : chains) {
            if (c.state() == AerState.NOT_EXPOSED || c.state() == AerState.UNREADABLE) hidden.add(c.device());
            if (c.state() != AerState.COUNTED) continue;
            for (AerFunction fn : c.functions()) {
                if (fn.state() != AerState.COUNTED) continue;
                functions.putIfAbsent(fn.address(), fn);
                below.computeIfAbsent(fn.address(), k -> new ArrayList<>()).add(c.device());
            }
        }
        for (AerFunction fn : functions.values()) {
            long unc = count(fn.fatal()) + count(fn.nonfatal()), cor = count(fn.correctable());
            String role = fn.role().toString().toLowerCase(Locale.ROOT).replace('_', ' ');
            List<String> devices = below.get(fn.address());
            String s = "PCIe " + fn.address();
            String what = s + (devices.equals(List.of(fn.address())) ? "" : " (" + role + " above " + String.join(", ", devices) + ")");
            boolean quietBelow = fn.role() == PcieRole.ROOT_PORT && functions.values().stream()
                    .filter(o -> o != fn && below.get(o.address()).stream().anyMatch(devices::contains)).allMatch(o -> total(o) == 0);
            if (fn.rootPort() != null && quietBelow && unc + cor == 0) {
                unc = zero(fn.rootPort().fatal()) + zero(fn.rootPort().nonfatal());
                cor = zero(fn.rootPort().correctable());
                if (unc + cor > 0) what += ", error messages from below it that no device counted";
            }
            Evidence e = Evidence.fact("/sys/bus/pci/devices/" + fn.address() + "/aer_dev_*", unc + " uncorrectable, " + cor + " correctable");
            if (unc > 0) {
                out.add(HealthRules.AER.finding(BAD, s, String.format(Locale.ROOT, "%s: %d uncorrectable and %d correctable PCIe errors since boot", what, unc, cor), e));
            } else if (cor > 0) {
                out.add(HealthRules.AER.finding(INFO, s, String.format(Locale.ROOT, "%s: %d correctable PCIe errors since boot", what, cor), e));
            } else {
                out.pass(HealthRules.AER, s);
            }
        }
        if (!hidden.isEmpty()) {
            out.add(HealthRules.AER.finding(INFO, "PCIe", "the kernel exposes no AER counters for " + Finding.some(hidden)
                    + " (a VM, or AER off): their PCIe errors are not visible here, so not judged",
                    Evidence.fact("/sys/bus/pci/devices/*/aer_dev_*", "absent")));
        }
    }

    private static long total(AerFunction fn) {
        return count(fn.fatal()) + count(fn.nonfatal()) + count(fn.correctable());
    }

    private static long count(AerCounts c) {
        return c == null ? 0 : c.count();
    }

    private static long zero(Long v) {
        return v == null ? 0 : v;
    }

    // ---- InfiniBand / RoCE ----

    static void ports(List<IbDevice> devices, Judged out) {
        for (IbDevice d : devices) {
            for (IbPort p : d.ports()) {
                String s = d.name() + "/" + p.port();
                String dir = "/sys/class/infiniband/" + d.name() + "/ports/" + p.port();
                Evidence state = Evidence.fact(dir + "/state", p.state() + ", phys_state " + p.physicalState());
                if (p.state() != IbPortState.ACTIVE) {
                    if (p.physicalState() == IbPhysState.LINK_UP) {
                        out.add(HealthRules.IB_PORT.finding(BAD, s, s + ": its link is up but the port is " + p.state()
                                + " (no subnet manager has made it active)", state));
                    } else {
                        out.add(HealthRules.IB_PORT.finding(WARN, s, s + ": port " + p.state() + ", link " + p.physicalState()
                                + " (unplugged, or a port this node does not use)", state));
                    }
                    continue;
                }
                double best = sameLayerBest(devices, p);
                if (p.rateGbps() != null && best > p.rateGbps() + 0.5) {
                    out.add(HealthRules.IB_PORT.finding(WARN, s, String.format(Locale.ROOT, "%s: active at %s, below the node's %s Gb/s ports", s, p.rate(),
                            fmt(best)), Evidence.fact(dir + "/rate", p.rate())));
                } else {
                    out.pass(HealthRules.IB_PORT, s);
                }
                errors(s, dir, p, out);
            }
        }
    }

    /** The fastest active port of the same link layer: an Ethernet port is not slow beside an InfiniBand one. */
    private static double sameLayerBest(List<IbDevice> devices, IbPort port) {
        return devices.stream().flatMap(d -> d.ports().stream())
                .filter(p -> p.state() == IbPortState.ACTIVE && p.rateGbps() != null && p.linkLayer() == port.linkLayer())
                .mapToDouble(IbPort::rateGbps).max().orElse(0);
    }

    private static void errors(String s, String dir, IbPort p, Judged out) {
        Long downed = p.counter(IbErrorCounter.LINK_DOWNED);
        List<String> others = new ArrayList<>();
        for (IbErrorCounter c : IbErrorCounter.values()) {
            if (c == IbErrorCounter.LINK_DOWNED || c == IbErrorCounter.PORT_XMIT_WAIT) continue; // xmit_wait counts congestion, not errors
            Long n = p.counter(c);
            if (n != null && n > 0) others.add(c.file + " " + n);
        }
        if (downed != null && downed > 0) {
            out.add(HealthRules.IB_ERRORS.finding(WARN, s, s + ": the link went down " + downed + " time" + (downed == 1 ? "" : "s")
                    + (others.isEmpty() ? "" : "; " + String.join(", ", others)), Evidence.fact(dir + "/counters/link_downed", downed.toString())));
        } else if (!others.isEmpty()) {
            out.add(HealthRules.IB_ERRORS.finding(INFO, s, s + ": " + String.join(", ", others), Evidence.fact(dir + "/counters", String.join(", ", others))));
        } else if (downed != null) {
            out.pass(HealthRules.IB_ERRORS, s);
        }
    }

    private static String fmt(double gbps) {
        return gbps == Math.rint(gbps) ? Long.toString((long) gbps) : String.format(Locale.ROOT, "%.1f", gbps);
    }

    // ---- rails ----

    static void rails(List<Rail> rails, Judged out) {
        for (Rail r : rails) {
            NicDistance n = r.nearest();
            if (n == null || n.level() == PcieLevel.UNKNOWN) continue;
            String s = "GPU " + r.gpu();
            if (n.level() == PcieLevel.NODE || n.level() == PcieLevel.SYS) {
                out.add(HealthRules.RAIL.finding(WARN, s, s + ": its nearest RDMA NIC, " + n.rdmaDevice() + " (" + n.pciAddress() + "), is "
                        + n.level() + " away", Evidence.fact("PCIe path " + r.gpu() + " to " + n.pciAddress(), n.level().toString())));
            } else {
                out.pass(HealthRules.RAIL, s);
            }
        }
    }

    // ---- software ----

    /** GPU names of the Blackwell generation and later, which run only with the open kernel module. */
    static final Pattern OPEN_ONLY = Pattern.compile("\\b(GB?[23]00|B[12]00|RTX (PRO )?50\\d0|RTX 5\\d{3}|Blackwell)\\b");

    static void software(HealthFacts f, Judged out) {
        for (VersionCheck c : f.versions()) {
            String found = String.join(", ", c.found().stream().map(HostChecks::source).toList());
            Evidence e = Evidence.fact(c.check().toString(), found);
            switch (c.check()) {
                case NVML_LIBRARY, CUDA_LIBRARY -> {
                    if (c.agreement() == Agreement.DIFFER) {
                        out.add(HealthRules.SOFTWARE.finding(BAD, "driver", "the " + (c.check() == VersionCheck.Check.NVML_LIBRARY ? "NVML" : "CUDA")
                                + " library and the kernel module differ: " + found, e));
                    } else if (c.agreement() == Agreement.AGREE) {
                        out.pass(HealthRules.SOFTWARE, c.check().toString());
                    }
                }
                case NCCL -> {
                    if (c.agreement() == Agreement.DIFFER) out.add(HealthRules.SOFTWARE.finding(WARN, "NCCL", "several NCCL versions on the node: " + found, e));
                    else if (c.agreement() == Agreement.AGREE) out.pass(HealthRules.SOFTWARE, "NCCL");
                }
                case FABRIC_MANAGER -> fabricManager(f.fabricManager(), c, found, e, out);
            }
        }
        ModuleFlavour flavour = f.software().flavour();
        if (flavour == ModuleFlavour.PROPRIETARY) {
            List<String> needOpen = f.nvml().gpus().stream().map(GpuHealth::name).filter(n -> n != null && OPEN_ONLY.matcher(n).find()).distinct().toList();
            Evidence e = Evidence.fact("/proc/driver/nvidia/version", f.software().versionLine() == null ? "" : f.software().versionLine());
            if (!needOpen.isEmpty()) {
                out.add(HealthRules.OPEN_MODULE.finding(BAD, "driver", "the proprietary kernel module drives " + String.join(", ", needOpen)
                        + ", which need the open one", e));
            } else {
                out.add(HealthRules.OPEN_MODULE.finding(INFO, "driver", "the proprietary kernel module is loaded: DMA-BUF (and GPUDirect RDMA"
                        + " without nvidia-peermem) needs the open one", e));
            }
        } else if (flavour == ModuleFlavour.OPEN) {
            out.pass(HealthRules.OPEN_MODULE, "driver");
        }
    }

    /** NVSwitches on the bus need the fabric manager, running, of the driver's version. */
    private static void fabricManager(RackFacts.FabricManager fm, VersionCheck c, String found, Evidence e, Judged out) {
        if (fm == null || fm.nvswitches().isEmpty()) return;
        String s = "fabric manager";
        String switches = fm.nvswitches().size() + " NVSwitch" + (fm.nvswitches().size() == 1 ? "" : "es");
        if (c.agreement() == Agreement.DIFFER) {
            out.add(HealthRules.FABRIC_MANAGER.finding(BAD, s, switches + " and a fabric manager of another version than the driver: " + found, e));
        } else if (Boolean.FALSE.equals(fm.daemon())) {
            out.add(HealthRules.FABRIC_MANAGER.finding(BAD, s, switches + " on the bus and no nv-fabricmanager running"
                    + (fm.unit().isEmpty() ? " (no nvidia-fabricmanager unit installed)" : ""), Evidence.fact("nv-fabricmanager", "not running")));
        } else if (c.agreement() == Agreement.NOT_APPLICABLE && fm.unit().isEmpty() && fm.daemon() == null) {
            out.add(HealthRules.FABRIC_MANAGER.finding(WARN, s, switches + " on the bus and no fabric manager package or unit found; whether it"
                    + " runs could not be seen", e));
        } else {
            out.pass(HealthRules.FABRIC_MANAGER, s);
        }
    }

    private static String source(VersionSource v) {
        return v.where() + " " + (v.version() == null ? "?" : v.version());
    }
}
