package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import hostside.core.CpuSet;
import hostside.gpu.nvml.NvmlGpu;

/**
 * Multi-GPU machines as sysfs and NVML describe them: the PCIe tree (PciDevice, as PciReader
 * builds it) and each GPU's NVLinks (NvmlGpu.NvLink, as NvmlReader builds them), written down
 * from published nvidia-smi output, so that GpuMatrix can be checked without the hardware.
 * NVML's bus ids are given in NVML's own spelling ("00000000:1B:00.0") where the real reader
 * would have normalised them, so the join is tested against both.
 */
final class NvlinkBoxes {
    private NvlinkBoxes() {}

    /** nvmlNvlinkVersion_t values: 6 is NVLink 4.0 (Hopper), 5 is 3.1 (what A100 and RTX 3090 report). */
    static final int HOPPER = 6, AMPERE = 5;

    static PciDevice gpu(String address, String name, String upstream, String hostBridge, int numa) {
        return new PciDevice(address, PciKind.GPU, name, "0x030200", "0x10de", "", "NVIDIA 3D controller", "nvidia", numa,
                CpuSet.parseList(numa % 2 == 0 ? "0-15" : "16-31"), null, upstream, hostBridge, List.of(), null, false, null);
    }

    static PciDevice bridge(String address, String upstream, String hostBridge, int numa) {
        return new PciDevice(address, PciKind.BRIDGE, "", "0x060400", "0x10b5", "", "PCI bridge", "pcieport", numa,
                CpuSet.parseList(numa % 2 == 0 ? "0-15" : "16-31"), null, upstream, hostBridge, List.of(), null, false, null);
    }

    static Topology nodes(int n) {
        List<Topology.NumaNode> nodes = IntStream.range(0, n)
                .mapToObj(i -> new Topology.NumaNode(i, CpuSet.parseList(i * 16 + "-" + (i * 16 + 15)), 1L << 30, false, null, List.of())).toList();
        return new Topology(n, 16 * n, 16 * n, "", nodes, List.of(), List.of(),
                new Topology.Whole(CpuSet.parseList("0-" + (16 * n - 1)), CpuSet.EMPTY, CpuSet.EMPTY, CpuSet.EMPTY, "", null,
                        CpuSet.parseList("0-" + (n - 1))));
    }

    static NvmlGpu nvml(int index, String busId, List<NvmlGpu.NvLink> links) {
        return nvml(index, busId, links, null);
    }

    static NvmlGpu nvml(int index, String busId, List<NvmlGpu.NvLink> links, String clusterUuid) {
        NvmlGpu.Fabric fabric = clusterUuid == null ? new NvmlGpu.Fabric(NvmlGpu.Fabric.State.NOT_SUPPORTED, null, null, null, null)
                : new NvmlGpu.Fabric(NvmlGpu.Fabric.State.COMPLETED, null, clusterUuid, 0L,
                        NvmlGpu.Fabric.HealthSummary.HEALTHY);
        return new NvmlGpu(index, "NVIDIA H100 80GB HBM3", "GPU-" + index, busId, 5, 16, 5, 16, 5, null, CpuSet.range(0, 15), true,
                1980, 1980, 2619, 2619, true, true, 85520809984L, links, fabric, "none", false, false, null, List.of());
    }

    static NvmlGpu.NvLink active(int link, String remote, String type, int versionCode) {
        String version = switch (versionCode) {
            case 5 -> "3.1";
            case 6 -> "4.0";
            default -> null;
        };
        return new NvmlGpu.NvLink(link, true, remote, type, versionCode, version);
    }

    static NvmlGpu.NvLink down(int link) {
        return new NvmlGpu.NvLink(link, false, null, null, null, null);
    }

    // ---- an 8-GPU HGX H100 / DGX H100: GPUs 0-3 on socket 0, 4-7 on socket 1, each behind its own
    // PCIe switch under its own root port; 18 NVLinks each, to four NVSwitches. nvidia-smi topo -m
    // shows NV18 between every pair (NVIDIA/nccl#1264, IBM/pytorch-communication-benchmarks#1).

    static final String[] HGX_BUS = {"1b", "43", "52", "61", "9d", "c3", "d1", "df"};
    /** The four NVSwitches as nvidia-smi nvlink -R names them on an HGX H100 (NVIDIA/nccl#1182). */
    static final String[] NVSWITCHES = {"00000000:05:00.0", "00000000:06:00.0", "00000000:07:00.0", "00000000:08:00.0"};

    static List<PciDevice> hgxPci() {
        List<PciDevice> pci = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            int numa = g < 4 ? 0 : 1;
            String hb = numa == 0 ? "pci0000:00" : "pci0000:80";
            String root = String.format("0000:%02x:01.0", (numa == 0 ? 0x10 : 0x90) + g);
            String up = String.format("0000:%02x:00.0", Integer.parseInt(HGX_BUS[g], 16) - 1);
            pci.add(bridge(root, null, hb, numa));
            pci.add(bridge(up, root, hb, numa));
            pci.add(gpu("0000:" + HGX_BUS[g] + ":00.0", "GPU" + g, up, hb, numa));
        }
        return pci;
    }

    /** Every GPU's links to the four switches; {@code down} links of GPU {@code who} inactive. */
    static List<NvmlGpu> hgxNvml(int who, int downLinks, boolean typed) {
        List<NvmlGpu> gpus = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            List<NvmlGpu.NvLink> links = new ArrayList<>();
            for (int l = 0; l < 18; l++) {
                links.add(g == who && l >= 18 - downLinks ? down(l)
                        : active(l, NVSWITCHES[l % 4], typed ? "NVSwitch" : null, HOPPER));
            }
            gpus.add(nvml(g, "00000000:" + HGX_BUS[g].toUpperCase() + ":00.0", links, "c0ffee00-0000-0000-0000-000000000001"));
        }
        return gpus;
    }

    // ---- a 4-GPU HGX H100: no switches, 6 NVLinks from each GPU to each other, each GPU on a NUMA
    // node of its own; nvidia-smi topo -m shows NV6 between every pair (NVIDIA/nccl#1617).

    static final String[] MESH_BUS = {"19", "3b", "4c", "5d"};

    static List<PciDevice> meshPci() {
        List<PciDevice> pci = new ArrayList<>();
        for (int g = 0; g < 4; g++) {
            String hb = "pci0000:" + MESH_BUS[g].charAt(0) + "0";
            pci.add(gpu("0000:" + MESH_BUS[g] + ":00.0", "GPU" + g, null, hb, g));
        }
        return pci;
    }

    static List<NvmlGpu> meshNvml() {
        List<NvmlGpu> gpus = new ArrayList<>();
        for (int g = 0; g < 4; g++) {
            List<NvmlGpu.NvLink> links = new ArrayList<>();
            int l = 0;
            for (int peer = 0; peer < 4; peer++) {
                if (peer == g) continue;
                for (int k = 0; k < 6; k++) links.add(active(l++, "0000:" + MESH_BUS[peer] + ":00.0", "GPU", HOPPER));
            }
            gpus.add(nvml(g, "0000:" + MESH_BUS[g] + ":00.0", links));
        }
        return gpus;
    }

    // ---- four PCIe A100s in two NVLink-bridged pairs: GPU0 and GPU1 on socket 0 (two root ports of
    // one host bridge), GPU2 and GPU3 on socket 1; three bridges per pair, 12 links (A100 PCIe with
    // NVLink bridge: 600 GB/s, 50 GB/s per link). NVML calls the links version 5 (open-mpi/hwloc#658).

    static List<PciDevice> bridgedPairsPci() {
        return List.of(
                bridge("0000:00:01.0", null, "pci0000:00", 0), gpu("0000:01:00.0", "GPU0", "0000:00:01.0", "pci0000:00", 0),
                bridge("0000:00:03.0", null, "pci0000:00", 0), gpu("0000:02:00.0", "GPU1", "0000:00:03.0", "pci0000:00", 0),
                bridge("0000:80:01.0", null, "pci0000:80", 1), gpu("0000:81:00.0", "GPU2", "0000:80:01.0", "pci0000:80", 1),
                bridge("0000:80:03.0", null, "pci0000:80", 1), gpu("0000:82:00.0", "GPU3", "0000:80:03.0", "pci0000:80", 1));
    }

    static List<NvmlGpu> bridgedPairsNvml() {
        String[] bus = {"0000:01:00.0", "0000:02:00.0", "0000:81:00.0", "0000:82:00.0"};
        List<NvmlGpu> gpus = new ArrayList<>();
        for (int g = 0; g < 4; g++) {
            String peer = bus[g ^ 1];
            List<NvmlGpu.NvLink> links = IntStream.range(0, 12).mapToObj(l -> active(l, peer, "GPU", AMPERE)).toList();
            gpus.add(nvml(g, bus[g], links));
        }
        return gpus;
    }

    // ---- two PCIe RTX 3090s with an NVLink bridge: 4 links per GPU, version 5 ("3.1"), the cards
    // on two root ports of one host bridge (Syllo/nvtop#469 describes the pair: NV4).

    static List<PciDevice> twoBridgedPci() {
        return List.of(
                bridge("0000:00:01.0", null, "pci0000:00", 0), gpu("0000:01:00.0", "GPU0", "0000:00:01.0", "pci0000:00", 0),
                bridge("0000:00:03.1", null, "pci0000:00", 0), gpu("0000:2d:00.0", "GPU1", "0000:00:03.1", "pci0000:00", 0));
    }

    static List<NvmlGpu> twoBridgedNvml() {
        return List.of(
                nvml(0, "00000000:01:00.0", IntStream.range(0, 4).mapToObj(l -> active(l, "00000000:2D:00.0", "GPU", AMPERE)).toList()),
                nvml(1, "00000000:2D:00.0", IntStream.range(0, 4).mapToObj(l -> active(l, "00000000:01:00.0", "GPU", AMPERE)).toList()));
    }

    // ---- PCIe only, every level: root port 00:01.0 -> switch (01:00.0 up; 02:08.0, 02:10.0,
    // 02:18.0 down) -> GPU0, GPU1; 02:18.0 -> a second switch (05:00.0 up, 06:00.0 down) -> GPU2;
    // root port 00:02.0 -> GPU3; host bridge pci0000:40 (node 0) -> GPU4; pci0000:80 (node 1) -> GPU5.

    static List<PciDevice> pcieOnlyPci() {
        String hb = "pci0000:00";
        return List.of(
                bridge("0000:00:01.0", null, hb, 0),
                bridge("0000:01:00.0", "0000:00:01.0", hb, 0),
                bridge("0000:02:08.0", "0000:01:00.0", hb, 0),
                bridge("0000:02:10.0", "0000:01:00.0", hb, 0),
                bridge("0000:02:18.0", "0000:01:00.0", hb, 0),
                gpu("0000:03:00.0", "GPU0", "0000:02:08.0", hb, 0),
                gpu("0000:04:00.0", "GPU1", "0000:02:10.0", hb, 0),
                bridge("0000:05:00.0", "0000:02:18.0", hb, 0),
                bridge("0000:06:00.0", "0000:05:00.0", hb, 0),
                gpu("0000:07:00.0", "GPU2", "0000:06:00.0", hb, 0),
                bridge("0000:00:02.0", null, hb, 0),
                gpu("0000:08:00.0", "GPU3", "0000:00:02.0", hb, 0),
                gpu("0000:41:00.0", "GPU4", null, "pci0000:40", 0),
                gpu("0000:81:00.0", "GPU5", null, "pci0000:80", 1));
    }

    /** NVML on those GPUs: every one answers, none has an NVLink. */
    static List<NvmlGpu> pcieOnlyNvml() {
        List<NvmlGpu> gpus = new ArrayList<>();
        List<PciDevice> g = pcieOnlyPci().stream().filter(PciDevice::isGpu).toList();
        for (int i = 0; i < g.size(); i++) gpus.add(nvml(i, g.get(i).address(), List.of()));
        return gpus;
    }
}
