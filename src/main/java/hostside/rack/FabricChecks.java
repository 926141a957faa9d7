package hostside.rack;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.machine.PciDevice;
import hostside.rack.RackChecklist.Inputs;

/**
 * The rack checklist's fabric and network items: the fabric manager, IMEX and GPUDirect RDMA.
 */
final class FabricChecks {
    private FabricChecks() {}

    // ---- 16. fabric manager: HGX boards with NVSwitches need it (the fabric manager user guide); GB200 trays do not run it ----

    static RackCheck fabricManager(Inputs in) {
        RackItem item = RackItem.FABRIC_MANAGER;
        RackFacts.FabricManager fm = in.rack().fabricManager();
        if (in.platform().nvlinkRack()) return RackCheck.na(item, "on GB200 and GB300 racks the fabric is managed from the NVLink switch trays (NVOS), not from the compute trays (NVIDIA's NVOS user manual for NVLink switches: the switch trays run NVOS, reach the compute trays over the backplane, and provision the fabric)");
        if (fm.nvswitches().isEmpty()) return RackCheck.na(item, "no NVSwitch on this host's PCI bus: there is no NVLink fabric to manage (fourth-generation NVSwitches of HGX B200 boards are managed over the InfiniBand stack and a PCI scan can miss them: systemctl status nvidia-fabricmanager there)");
        if (in.rack().hostIsHidden()) {
            // a pod sees the image's /etc and its own processes: "not installed" would be false
            return RackCheck.of(item, RackVerdict.UNKNOWN, fm.nvswitches().size() + " NVSwitches; the fabric manager out of sight",
                    in.rack().hostHidden() + "; the GPUs' fabric state (fabric_state) says whether the fabric came up",
                    "run hostside rack on the host, or in a pod with hostPID and the host's /etc/systemd mounted");
        }
        String value = fm.nvswitches().size() + " NVSwitches; unit " + (fm.unit().isEmpty() ? "not installed" : fm.enabled() ? "enabled" : "installed, not enabled")
                + (fm.daemon() == null ? "" : fm.daemon() ? ", running" : ", not running");
        String fix = "install nvidia-fabricmanager of exactly the driver's version, then systemctl enable --now nvidia-fabricmanager";
        if (fm.unit().isEmpty() && !fm.enabled()) {
            return RackCheck.of(item, RackVerdict.WARN, value, "NVSwitch boards need the fabric manager before CUDA can start: without it cuInit fails with 802 \"system not yet initialized\" (pytorch#35710)", fix);
        }
        if (Boolean.FALSE.equals(fm.daemon())) {
            return RackCheck.of(item, RackVerdict.WARN, value, "the unit is there but no nv-fabricmanager process runs: CUDA fails with 802 until it does, and the fabric state of every GPU stays \"in progress\" (NVSentinel#889: down 20 days unnoticed)", "systemctl start nvidia-fabricmanager; journalctl -u nvidia-fabricmanager for why it stopped");
        }
        if (fm.daemon() == null) return RackCheck.of(item, fm.enabled() ? RackVerdict.OK : RackVerdict.INFO, value, "whether it runs needs a live machine; the GPUs' fabric state says whether it finished", fm.enabled() ? "" : fix);
        return RackCheck.ok(item, value, "the NVSwitch fabric has its manager");
    }

    // ---- 17. IMEX: context-aware (the IMEX guide; NVIDIA/aicr#2641, NVSentinel#1471) ----

    static RackCheck imex(Inputs in) {
        RackItem item = RackItem.IMEX;
        if (!in.platform().nvlinkRack()) {
            return RackCheck.na(item, RackChecklist.noGpu(in) ? "no NVIDIA GPU" : "IMEX shares memory across the nodes of a multi-node NVLink domain (NVL72 racks): this is not one");
        }
        RackFacts.Imex x = in.rack().imex();
        RackFacts.DriverParams p = in.rack().driverParams();
        List<String> parts = new ArrayList<>();
        parts.add(x.major() == null ? "no channel device class" : "channel class major " + x.major());
        if (x.channels() != null) parts.add(x.channels().isEmpty() ? "no channel files" : "channels " + String.join(", ", x.channels()));
        if (p != null && p.createImexChannel0() != null) parts.add("CreateImexChannel0=" + p.createImexChannel0());
        parts.add((x.config() ? "config.cfg" : "no config.cfg") + ", " + (x.nodesConfig() ? "nodes_config.cfg" : "no nodes_config.cfg"));
        if (x.daemon() != null) parts.add(x.daemon() ? "nvidia-imex running" : "nvidia-imex not running");
        String value = String.join("; ", parts);
        if (x.major() == null) {
            return RackCheck.of(item, RackVerdict.WARN, value, "the driver registers no IMEX channel device: fabric handles cannot be shared across nodes (drivers before R550, or IMEX support not built)", "a driver of R550 or later");
        }
        boolean channel0 = x.channels() != null && x.channels().contains("channel0");
        boolean made = p != null && Integer.valueOf(1).equals(p.createImexChannel0());
        if (Boolean.FALSE.equals(x.daemon())) {
            return RackCheck.of(item, RackVerdict.INFO, value,
                    "no IMEX daemon runs: normal between jobs where a job's prolog or a Kubernetes ComputeDomain starts it; a job that exports fabric handles needs it (the readiness item tries)", "");
        }
        if (x.channels() != null && !channel0 && !made) {
            return RackCheck.of(item, RackVerdict.INFO, value,
                    "no channel0 and the driver does not create it: a job that allocates fabric memory gets CUDA_ERROR_NOT_PERMITTED unless its prolog creates a channel (the channels are not made by default and do not survive a reboot)",
                    "nvidia-modprobe -i 0:1 in the job's prolog, or NVreg_CreateImexChannel0=1 for single-tenant nodes");
        }
        return RackCheck.of(item, x.daemon() == null ? RackVerdict.INFO : RackVerdict.OK, value,
                x.daemon() == null ? (in.rack().hostIsHidden() ? in.rack().hostHidden() + ": whether nvidia-imex runs is not known here (nvidia-imex-ctl -N on the host says)"
                        : "whether the daemon runs and the domain is up needs a live machine (nvidia-imex-ctl -N)")
                        : "a channel and a running daemon: fabric handles can be exported", "");
    }

    // ---- 20. GPUDirect RDMA: dma-buf (recommended) or nvidia_peermem (legacy); NCCL_NET_GDR_C2C on Grace since 2.27 ----

    static RackCheck gpuDirect(Inputs in) {
        RackItem item = RackItem.GPUDIRECT;
        if (RackChecklist.noGpu(in)) return RackCheck.na(item, "no NVIDIA GPU");
        List<PciDevice> rdma = in.machine().nics().stream().filter(PciDevice::rdma).toList();
        if (rdma.isEmpty()) return RackCheck.na(item, "no RDMA NIC: GPUDirect RDMA needs an InfiniBand or RoCE device");
        String names = Finding.some(rdma.stream().map(PciDevice::label).toList());
        String mod = in.rack().peermem();
        String value = rdma.size() + " RDMA NIC" + (rdma.size() == 1 ? "" : "s") + " (" + names + "); " + (mod == null ? "no nvidia_peermem" : mod + " loaded");
        String grace = in.platform().grace() ? "; on Grace NCCL 2.27 and later use GPUDirect RDMA for NICs on the C2C-attached CPU by default (NCCL_NET_GDR_C2C=1, src/graph/paths.cc); before 2.26 NCCL reached the NIC through the CPU unless told (NCCL_NET_GDR_LEVEL=SYS gave 13-20% more, nccl#1579)" : "";
        if (mod != null) return RackCheck.of(item, in.platform().grace() ? RackVerdict.INFO : RackVerdict.OK, value, "NICs can DMA straight into GPU memory" + grace, in.platform().grace() ? "NCCL before 2.26 only: export NCCL_NET_GDR_LEVEL=SYS for NCCL jobs" : "");
        return RackCheck.of(item, RackVerdict.INFO, value,
                "without nvidia_peermem, GPUDirect RDMA needs the dma-buf path (open kernel modules, Linux 5.12 or later, a NCCL and NIC stack that use it); otherwise NCCL stages through host memory" + grace,
                "modprobe nvidia_peermem, where the dma-buf path is not in use");
    }

}
