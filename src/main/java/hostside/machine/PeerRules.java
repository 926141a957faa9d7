package hostside.machine;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 1's rules between GPUs: what the wiring and the driver say ({@link GpuMatrix}'s pairs
 * through the CPU and NVLinks down, {@link PeerPath}'s refused peer access and ACS redirect), and
 * what the peer and all-at-once copies measured ({@link PeerVerdicts}: NVLink at PCIe speed or
 * degraded, switch peers no faster than staging through the host, the host's share uneven or
 * shared). The measured rules give an unknown finding, never a fix, where the machine was busy.
 */
public final class PeerRules {
    private PeerRules() {}

    static final Source NCCL_P2P = Source.source("NVIDIA/nccl src/graph/paths.cc (commit 7aa1c46f), ncclTopoCheckP2p: P2P is used up to"
            + " PATH_SYS by default, but only up to PATH_PXB on Intel x86 (and ARM, Zhaoxin) CPUs unless NCCL_P2P_LEVEL says otherwise;"
            + " a pair beyond it is diverted through the CPU (host memory); src/graph/topo.h: PATH_PIX one PCIe bridge, PATH_PXB several"
            + " without the host bridge, PATH_PHB through a host bridge, PATH_SYS across the SMP interconnect (NCCL has no NODE level:"
            + " nvidia-smi's NODE, host bridges of one NUMA node, is NCCL's PHB)");

    static final Source NVLINK_RATES = Source.document("NVIDIA whitepapers: Tesla P100, four NVLink 1.0 links, 160 GB/s bidirectional"
            + " (20 GB/s per link per direction); Tesla V100, six NVLink 2.0 links, 300 GB/s (25); A100, twelve NVLink 3.0 links, 600 GB/s"
            + " (25); GA102 (RTX 3090, RTX A6000, A40), four x4 NVLink 3.0 links of 14.0625 GB/s per direction; H100, eighteen NVLink 4.0"
            + " links, 900 GB/s (25); Blackwell B200, eighteen NVLink 5.0 links, 1.8 TB/s (50)");

    public static final Rule PCIE_PATH = Rule.of("M1-PEER-PCIE-PATH", "GPU pairs without NVLink whose PCIe path goes through the CPU (PHB, NODE, SYS)",
            EnumSet.of(WARN),
            "peer traffic between them crosses the CPU's root complex, and across sockets the CPU interconnect too; NCCL uses P2P"
                    + " there only on CPUs it trusts with it (not on Intel's by default) and otherwise stages through host memory, so"
                    + " an all-reduce ring or a tensor-parallel group spanning them runs at the host's pace",
            "group tensor-parallel ranks among GPUs that nvidia-smi topo -m shows as NV# or PIX/PXB (CUDA_VISIBLE_DEVICES per group); set"
                    + " NCCL_P2P_LEVEL only after measuring (nccl-tests all_reduce_perf) that P2P through the CPU beats staging",
            NCCL_P2P,
            Source.document("NCCL User Guide, Environment Variables, NCCL_P2P_LEVEL: PHB, use P2P when GPUs are on the same NUMA node,"
                    + " traffic goes through the CPU; SYS, between NUMA nodes, potentially crossing the SMP interconnect (QPI/UPI)"));

    public static final Rule NVLINK_DOWN = Rule.of("M1-NVLINK-DOWN", "a GPU with some of its NVLinks inactive while others are up",
            EnumSet.of(WARN),
            "the GPU has only its active links' share of its NVLink bandwidth, and an all-reduce ring or tensor-parallel group moves at"
                    + " the pace of its slowest member, so every GPU grouped with it slows to it",
            "check nvidia-smi nvlink -s (each link's state and speed) and nvidia-smi nvlink -e (error counters); then, as NVIDIA's health"
                    + " checks recommend, drain the node, reset the GPU (nvidia-smi -r -i <gpu>), reboot, and call for service if the link stays down",
            Source.document("NVIDIA Health Validation, NVLink checks, nvlink_active: any inactive NVLink (max_inactive_nvlinks 0) makes the GPU"
                    + " failing; recommended action drain, then reset_gpu, restart_os, service_required"),
            Source.document("NVML API reference, nvmlDeviceGetNvLinkState: whether the link is active"),
            Source.reasoned("a share of the links is that share of the bandwidth; a board that wires fewer links than NVML lists looks the"
                    + " same, which the fix's nvidia-smi nvlink -s tells apart"));

    public static final Rule NVLINK_REFUSED = Rule.of("M1-PEER-NVLINK-REFUSED", "GPU pairs joined by NVLink whose peer access the driver refuses",
            EnumSet.of(BAD),
            "copies between them are staged through host memory over PCIe, and NCCL stops at init (P2P is disabled between NVLink"
                    + " connected GPUs) unless NCCL_IGNORE_DISABLED_P2P=1 lets it go on without P2P",
            "on an NVSwitch board, run the fabric manager (systemctl enable --now nvidia-fabricmanager) and check each GPU's fabric state"
                    + " reads Completed (nvidia-smi -q | grep -A3 Fabric); in a VM, have the hypervisor pass the GPUs through as one P2P group",
            Source.source("NVIDIA/nccl src/graph/paths.cc (commit 7aa1c46f), ncclTopoCheckP2p: NVML's P2P read or write status not OK on an"
                    + " NVLink path is an error (\"P2P is disabled between NVLINK connected GPUs\") unless NCCL_IGNORE_DISABLED_P2P is set"),
            Source.document("NVIDIA Fabric Manager User Guide: on NVSwitch systems the fabric manager configures the NVSwitches and NVLinks;"
                    + " until it has, the GPUs' fabric state is not Completed and peer traffic over NVLink is not available"),
            Source.document("CUDA Driver API, cuDeviceCanAccessPeer; NVML nvmlDeviceGetP2PStatus"));

    public static final Rule PEER_NONE = Rule.of("M1-PEER-NONE", "GPU pairs on PCIe without peer access",
            EnumSet.of(WARN),
            "copies between them go through host memory, over each GPU's PCIe link and the CPU's memory, and NCCL moves their traffic"
                    + " through shared host memory: all-reduce between them is bounded by the host",
            "where the GPUs support P2P: in a VM, ask for P2P pass-through; on bare metal, turn ACS redirect off on the switch ports"
                    + " (see M1-PEER-ACS) and check the IOMMU mode (iommu=pt); GeForce RTX 4090 and 5090 cards get P2P over PCIe only from a"
                    + " patched driver (tinygrad/open-gpu-kernel-modules)",
            Source.source("NVIDIA/nccl src/graph/paths.cc (commit 7aa1c46f), ncclTopoComputePaths: a pair without P2P is diverted through"
                    + " the CPU (addInterStep through the GPU's local CPU)"),
            Source.document("CUDA Driver API, cuDeviceCanAccessPeer; NVML nvmlDeviceGetP2PStatus and its nvmlGpuP2PStatus_t reasons"
                    + " (chipset not supported, GPU not supported, IOH topology not supported, disabled by regkey)"),
            Source.thread("tinygrad/open-gpu-kernel-modules#29 and #28: P2P between RTX 5090s and 4090s needs the driver modified"
                    + " (the fork's P2P patch); with it, simpleP2P reports peer access and copies between the cards"));

    public static final Rule ACS = Rule.of("M1-PEER-ACS", "PCIe switch ports between GPUs that redirect peer requests upstream (ACS P2P Request Redirect)",
            EnumSet.of(WARN),
            "peer requests between GPUs under the switch are sent up to the root complex (and its IOMMU) instead of across the"
                    + " switch, which the switch exists to avoid: NVIDIA's NCCL guide names a significant performance loss, or a hang",
            "on bare metal, turn ACS off in the BIOS, or at boot for each port the finding names: setpci -s <port> ECAP_ACS+0x6.w=0000,"
                    + " or the kernel's pci=disable_acs_redir=<ports>; in a VM, ACS isolates the guests and is expected",
            Source.document("NCCL User Guide, Troubleshooting, PCI Access Control Services (ACS): IO virtualization can redirect all PCI"
                    + " point-to-point traffic to the CPU root complex, causing a significant performance reduction or even a hang;"
                    + " disable ACS (setpci ECAP_ACS+0x6.w=0000)"),
            Source.source("torvalds/linux commit aaca43fd (PCI: Add \"pci=disable_acs_redir=\" parameter for peer-to-peer support): clearing"
                    + " P2P Request Redirect, P2P Completion Redirect and P2P Egress Control lets P2P traffic pass uninterrupted"),
            Source.document("PCI Express Base Specification, Access Control Services: ACS P2P Request Redirect sends peer-to-peer requests"
                    + " upstream towards the root complex"));

    public static final Rule NVLINK_AT_PCIE = Rule.of("M1-NVLINK-AT-PCIE", "NVLink pairs whose peer copies run no faster than their PCIe links could",
            EnumSet.of(BAD, UNKNOWN),
            "the traffic is not on NVLink (links down or untrained, the fabric manager not running, P2P staged through the host), so"
                    + " all-reduce and tensor-parallel exchanges between the two run at PCIe speed",
            "check nvidia-smi nvlink -s (link states and speeds) and nvidia-smi -q's Fabric state; on an NVSwitch board, the fabric"
                    + " manager must be running (systemctl status nvidia-fabricmanager)",
            NVLINK_RATES, TopologyRules.PCIE_RATES);

    /** An NVLink pair below this share of its links' rate is degraded. */
    static final double DEGRADED = 0.5;

    public static final Rule NVLINK_DEGRADED = Rule.of("M1-NVLINK-DEGRADED", "NVLink pairs whose peer copies reach less than half of what their links carry",
            EnumSet.of(WARN, UNKNOWN),
            "an all-reduce or tensor-parallel exchange through the pair is that much slower than the links allow",
            "look for links at reduced width or with errors (nvidia-smi nvlink -s, nvidia-smi nvlink -e) and for another job on those GPUs"
                    + " (nvidia-smi --query-compute-apps=pid,name --format=csv)",
            NVLINK_RATES,
            Source.thread("NVIDIA/nccl#1264: p2pBandwidthLatencyTest on an HGX H100 (NV18), 380 GB/s of 450 one way, 749 of 900 both ways,"
                    + " about 84% of the links' rate"),
            Source.source("NVIDIA/nccl src/graph/topo.h (commit f3d51667): NCCL's own per-link figures, SM80_NVLINK_BW 22.0 against"
                    + " SM86_NVLINK_BW 12.0 GB/s: NVLink 3.0 on GA102 (sm_86) carries about half of A100's"),
            Source.document("NVIDIA Health Validation, NVLink checks, nvlink_bandwidth_count_speed: expected per-link speed 26562 MB/s on"
                    + " H100, 53125 on GB200 and GB300 (signalling rates; the 25 and 50 GB/s above are the whitepapers' data rates)"),
            Source.reasoned(Math.round(100 * DEGRADED) + "% of the links' rate: well below the 84% a healthy HGX H100 reached, so that"
                    + " copy-engine overheads are not named and a lost link or a shared GPU is; on NVLink 3.0 only A100/A800 (25 GB/s a link)"
                    + " and GA102 cards are judged, other 3.0 parts' rate is not known to hostside"));

    /** Direct peer copies within this factor of staged ones are not direct. */
    static final double VIA_HOST = 1.2;

    public static final Rule VIA_HOST_RULE = Rule.of("M1-PEER-VIA-HOST", "GPU pairs under one PCIe switch whose peer copies are no faster than staging through host memory",
            EnumSet.of(WARN, UNKNOWN),
            "their P2P traffic goes up through the CPU (ACS redirect on the switch ports, the IOMMU translating peer addresses, a BIOS"
                    + " setting) instead of across the switch, so NCCL between them gets host-copy bandwidth",
            "read ACS on the switch ports as root (lspci -vvv | grep ACSCtl: ReqRedir+ redirects) and the IOMMU mode (the report's IOMMU"
                    + " line); turn ACS redirect off on bare metal (setpci -s <port> ECAP_ACS+0x6.w=0000)",
            Source.document("NCCL User Guide, Troubleshooting, PCI Access Control Services (ACS): redirected peer traffic goes to the CPU"
                    + " root complex"),
            Source.reasoned("direct no faster than " + VIA_HOST + " times the staged copy: a direct copy crosses each GPU's link once and"
                    + " the switch, a staged one both links and host memory, so direct at the staged rate says the switch is not used;"
                    + " how much faster a healthy switch is, is not known to hostside (no switch box measured yet)"));

    /** A GPU getting less than this share of the best GPU's figure under all-at-once load is uneven. */
    static final double UNEVEN = 0.8;
    /** All GPUs at once below this share of the sum of each alone: the host is the limit. */
    static final double SHARED = 0.8;

    public static final Rule HOST_UNEVEN = Rule.of("M1-HOST-SHARE-UNEVEN", "GPUs that get much less of the host than the best one while all copy at once",
            EnumSet.of(WARN, UNKNOWN),
            "every rank's input copy at the start of a step, or a checkpoint offload, waits for the slowest GPU, so the whole job runs"
                    + " at its pace; the GPUs named share a PCIe switch's uplink, a host bridge or a NUMA node's memory with others",
            "spread the GPUs over root ports (a slot map from the board's manual), or stagger the ranks' host copies; check each GPU's"
                    + " link under load (nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current --format=csv)",
            Source.source("NVIDIA/nvbandwidth testcases host_to_all_memcpy_ce and all_to_host_memcpy_ce: every GPU copies to or from the"
                    + " host at once, each GPU's figure reported"),
            Source.measurement("docs/measurements/2026-12-02-h200-gpu.md: pinned copies on the H200 VM 55.3-55.5 GB/s run to run, under 1% apart"),
            Source.reasoned(Math.round(100 * UNEVEN) + "% of the best GPU's figure: far beyond the run-to-run spread of pinned copies,"
                    + " and a fifth less per step is worth a slot change"));

    public static final Rule HOST_SHARED = Rule.of("M1-HOST-SHARED", "all GPUs copying at once against the sum of each alone",
            EnumSet.of(WARN, UNKNOWN),
            "the host (shared PCIe switches, root complexes or memory bandwidth) is the limit: data loading or offload for all ranks"
                    + " together gets what the finding says, not the sum of the GPUs' links",
            "stagger the ranks' host copies (prefetch on a side stream at different points of the step) or keep data on the GPUs; spread"
                    + " the GPUs over root ports and NUMA nodes where the board allows",
            Source.source("NVIDIA/nvbandwidth testcases host_to_all_memcpy_ce and all_to_host_memcpy_ce"),
            Source.reasoned(Math.round(100 * SHARED) + "% of the sum alone: less than that is the host's limit, not noise"));

    /** Module 1's rules between GPUs, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(PCIE_PATH, NVLINK_DOWN, NVLINK_REFUSED, PEER_NONE, ACS, NVLINK_AT_PCIE, NVLINK_DEGRADED, VIA_HOST_RULE, HOST_UNEVEN,
                HOST_SHARED);
    }

    /**
     * NVLink's rate per link and direction, GB/s, by version: 20 for 1.0, 25 for 2.x and 4.0, 50
     * for 5.0; 3.0 depends on the chip: 25 on A100/A800, 14.0625 on GA102 cards (RTX 3090, RTX
     * A6000, A40 and kin), otherwise not known. {@code model} is the GPU's name as the driver says it.
     */
    static Optional<Double> perLinkGBs(List<String> versions, String model) {
        if (versions.size() != 1) return Optional.empty(); // none known, or a mix: no single rate to expect
        String m = model == null ? "" : model.toUpperCase(java.util.Locale.ROOT);
        return switch (versions.getFirst().charAt(0)) {
            case '1' -> Optional.of(20.0);
            case '2', '4' -> Optional.of(25.0);
            case '3' -> m.contains("A100") || m.contains("A800") ? Optional.of(25.0)
                    : m.matches(".*(RTX 3090|RTX A6000|RTX A5500|RTX A5000|RTX A4500|\\bA40\\b).*") ? Optional.of(14.0625) : Optional.empty();
            case '5' -> Optional.of(50.0);
            default -> Optional.empty();
        };
    }
}
