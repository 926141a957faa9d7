package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.report.Rulebook;
import hostside.testing.RuleTally;

/**
 * Module 1's rules on facts ({@link TopologyRules}): each severity each rule gives, from records
 * made by hand, and what keeps it quiet. Nothing here is measured, so a busy machine changes none.
 */
class TopologyFindingsTest {
    static final PciLink GEN5_X16 = new PciLink(32.0, 16, 32.0, 16);
    static final Host METAL = new Host("box", "6.8", "x86_64", "bare metal", "580", null, Host.LIVE);
    static final Host VM = new Host("box", "6.8", "x86_64", "VM (kvm)", "580", null, Host.LIVE);
    static final Iommu OFF = new Iommu("off", List.of(), 0, Map.of(), "no IOMMU units and no IOMMU groups in /sys", List.of());

    static PciDevice gpu(String address, Integer numa, PciLink link) {
        return AffinityTest.dev(address, "gpu", "GPU0", null, "pci0000:00", numa, link);
    }

    static PciDevice nic(String address, boolean rdma, PciLink link) {
        return new PciDevice(address, PciKind.parse("nic"), "eth0", "", "", "", "nic", "", 0, CpuSet.parseList("0-15"), link, null,
                "pci0000:00", List.of("eth0"), null, rdma, null);
    }

    /** {@code nodes} nodes of 16 CPUs and 1 GiB each, MemTotal {@code memTotal}, {@code offline} and the cpuset as given. */
    static Topology topology(int nodes, Long memTotal, String offline, String allowed, int threads) {
        Topology t = NvlinkBoxes.nodes(nodes);
        return new Topology(t.packages(), t.cores(), threads, "", t.numaNodes(), List.of(), List.of(),
                new Topology.Whole(t.whole().onlineCpus(), CpuSet.parseList(offline), CpuSet.parseList(allowed), CpuSet.EMPTY,
                        "/sys/fs/cgroup/cpuset.cpus.effective", memTotal, t.whole().nodes()));
    }

    static List<Finding> findings(Host host, Topology t, List<PciDevice> pci, Iommu iommu) {
        return TopologyRules.findings(host, t, pci, iommu);
    }

    static Finding of(List<Finding> f, Rule rule) {
        List<Finding> mine = f.stream().filter(x -> x.id().equals(rule.id())).toList();
        assertThat(mine).as(rule.id()).hasSize(1);
        return mine.getFirst();
    }

    /** The rule stayed quiet among {@code f}: none of its findings other than ok ones (counted for the rulebook's coverage). */
    static void none(List<Finding> f, Rule rule) {
        RuleTally.quiet(f, rule);
    }

    static void is(Finding f, Rule rule, Severity severity) {
        GpuRulesTest.is(f, rule, severity);
    }

    // ---- M1-LINK-BELOW-MAX, M1-LINK-IDLE ----

    @Test
    void aNarrowLinkIsBadAndAFullOneQuiet() {
        Finding f = TopologyRules.link(gpu("0000:01:00.0", 0, new PciLink(32.0, 8, 32.0, 16)), null).orElseThrow();
        is(f, TopologyRules.LINK_BELOW_MAX, Severity.BAD);
        assertThat(f.text()).isEqualTo("GPU0 runs at Gen5 x8 of Gen5 x16: at most 31.5 GB/s per direction instead of 63.0");
        assertThat(TopologyRules.link(gpu("0000:01:00.0", 0, GEN5_X16), null)).isEmpty();
        List<Finding> full = findings(METAL, topology(1, null, "", "", 16), List.of(gpu("0000:01:00.0", 0, GEN5_X16)), OFF);
        none(full, TopologyRules.LINK_BELOW_MAX);
        none(full, TopologyRules.LINK_IDLE);
    }

    @Test
    void aSlowNicIsBadButASlowIdleGpuOnlySuspected() {
        is(TopologyRules.link(nic("0000:02:00.0", true, new PciLink(8.0, 16, 16.0, 16)), null).orElseThrow(), TopologyRules.LINK_BELOW_MAX, Severity.BAD);
        Finding idle = TopologyRules.link(gpu("0000:01:00.0", 0, new PciLink(2.5, 16, 32.0, 16)), null).orElseThrow();
        is(idle, TopologyRules.LINK_IDLE, Severity.WARN);
        assertThat(idle.text()).startsWith("GPU0 link is at Gen1 x16 of Gen5 x16 while idle");
    }

    @Test
    void theReadingUnderLoadSettlesTheIdleLink() {
        is(TopologyRules.underLoad("GPU0", GEN5_X16), TopologyRules.LINK_IDLE, Severity.INFO);
        is(TopologyRules.underLoad("GPU0", new PciLink(16.0, 16, 32.0, 16)), TopologyRules.LINK_BELOW_MAX, Severity.BAD);
    }

    // ---- M1-GPU-NODE-UNKNOWN ----

    @Test
    void aGpuWithoutANodeWarnsOnlyWhereThereAreSeveralNodes() {
        List<PciDevice> pci = List.of(gpu("0000:01:00.0", null, GEN5_X16));
        Finding two = of(findings(VM, topology(2, null, "", "", 32), pci, OFF), TopologyRules.GPU_NODE_UNKNOWN);
        is(two, TopologyRules.GPU_NODE_UNKNOWN, Severity.WARN);
        assertThat(two.text()).contains("as VMs often do").contains("on a machine of 2 nodes");
        is(of(findings(METAL, topology(1, null, "", "", 16), pci, OFF), TopologyRules.GPU_NODE_UNKNOWN), TopologyRules.GPU_NODE_UNKNOWN, Severity.INFO);
        none(findings(METAL, topology(2, null, "", "", 32), List.of(gpu("0000:01:00.0", 0, GEN5_X16)), OFF), TopologyRules.GPU_NODE_UNKNOWN);
    }

    // ---- M1-GPU-MEMORY-NODES ----

    @Test
    void nodesOfGpuMemoryAreSaid() {
        Topology t = topology(1, null, "", "", 16);
        List<Topology.NumaNode> nodes = new java.util.ArrayList<>(t.numaNodes());
        nodes.add(new Topology.NumaNode(1, CpuSet.EMPTY, 96L << 30, true, "0000:01:00.0", List.of()));
        Topology withGpu = new Topology(t.packages(), t.cores(), t.threads(), "", nodes, List.of(), List.of(), t.whole());
        Finding f = of(findings(METAL, withGpu, List.of(), OFF), TopologyRules.GPU_MEMORY_NODES);
        is(f, TopologyRules.GPU_MEMORY_NODES, Severity.INFO);
        assertThat(f.text()).startsWith("1 NUMA node(s) (1) hold GPU memory and no CPUs");
        none(findings(METAL, t, List.of(), OFF), TopologyRules.GPU_MEMORY_NODES);
    }

    // ---- M1-NODE-MEMORY ----

    @Test
    void nodesShortOfMemTotalWarnBeyondFivePercent() {
        // two nodes of 1 GiB: 2 GiB in the node view
        Finding f = of(findings(VM, topology(2, 4L << 30, "", "", 32), List.of(), OFF), TopologyRules.NODE_MEMORY);
        is(f, TopologyRules.NODE_MEMORY, Severity.WARN);
        assertThat(f.text()).startsWith("the NUMA nodes add up to 2 GiB but /proc/meminfo has 4 GiB, 50% apart (memory the VM added outside the node view)");
        none(findings(METAL, topology(2, (2L << 30) + (50L << 20), "", "", 32), List.of(), OFF), TopologyRules.NODE_MEMORY);
    }

    @Test
    void nodesJustInsideTheSlackOfMemTotalAreQuiet() {
        // two nodes of 1 GiB against a MemTotal a hair under 2 GiB / (1 - slack): apart by just less than the slack's share of MemTotal
        long nodes = 2L << 30;
        long under = (long) Math.floor(nodes / (1 - TopologyRules.NODE_MEMORY_SLACK)) - (1L << 10);
        none(findings(METAL, topology(2, under, "", "", 32), List.of(), OFF), TopologyRules.NODE_MEMORY);
        // and the same just past it, either side of the node view, warns
        long over = (long) Math.ceil(nodes / (1 - TopologyRules.NODE_MEMORY_SLACK)) + (1L << 10);
        is(of(findings(METAL, topology(2, over, "", "", 32), List.of(), OFF), TopologyRules.NODE_MEMORY), TopologyRules.NODE_MEMORY, Severity.WARN);
        long shortOf = (long) Math.floor(nodes / (1 + TopologyRules.NODE_MEMORY_SLACK)) - (1L << 10);
        is(of(findings(METAL, topology(2, shortOf, "", "", 32), List.of(), OFF), TopologyRules.NODE_MEMORY), TopologyRules.NODE_MEMORY, Severity.WARN);
        long inside = (long) Math.ceil(nodes / (1 + TopologyRules.NODE_MEMORY_SLACK)) + (1L << 10);
        none(findings(METAL, topology(2, inside, "", "", 32), List.of(), OFF), TopologyRules.NODE_MEMORY);
    }

    // ---- M1-CPUSET, M1-CPU-OFFLINE ----

    @Test
    void aNarrowCpusetIsSaidAndOfflineCpusWarn() {
        List<Finding> f = findings(METAL, topology(1, null, "16-17", "0-3", 4), List.of(), OFF);
        Finding cpuset = of(f, TopologyRules.CPUSET);
        is(cpuset, TopologyRules.CPUSET, Severity.INFO);
        assertThat(cpuset.text()).startsWith("this process may use 4 of 16 online CPUs (/sys/fs/cgroup/cpuset.cpus.effective)");
        Finding offline = of(f, TopologyRules.CPU_OFFLINE);
        is(offline, TopologyRules.CPU_OFFLINE, Severity.WARN);
        assertThat(offline.text()).startsWith("CPUs 16-17 (2) are offline");
        List<Finding> whole = findings(METAL, topology(1, null, "", "0-15", 16), List.of(), OFF);
        none(whole, TopologyRules.CPUSET);
        none(whole, TopologyRules.CPU_OFFLINE);
    }

    // ---- M1-IOMMU ----

    @Test
    void aTranslatingIommuIsSaidAndPassthroughIsNot() {
        Iommu dma = new Iommu("translating", List.of("dmar0"), 40, Map.of("DMA-FQ", 40), "40 of 40 IOMMU groups translate DMA (DMA-FQ)", List.of());
        is(of(findings(METAL, topology(1, null, "", "", 16), List.of(), dma), TopologyRules.IOMMU), TopologyRules.IOMMU, Severity.INFO);
        Iommu pt = new Iommu("passthrough", List.of("dmar0"), 40, Map.of("identity", 40), "40 of 40 IOMMU groups use identity domains", List.of("iommu=pt"));
        none(findings(METAL, topology(1, null, "", "", 16), List.of(), pt), TopologyRules.IOMMU);
    }

    // ---- M1-NIC-DISTANCE ----

    @Test
    void theNearestNicIsOkWithinTheSwitchAndAWarningThroughTheCpu() {
        PciDevice g = gpu("0000:01:00.0", 0, GEN5_X16), rdma = nic("0000:02:00.0", true, GEN5_X16);
        is(TopologyRules.nic(g, rdma, "PIX"), TopologyRules.NIC_DISTANCE, Severity.OK);
        is(TopologyRules.nic(g, rdma, "PXB"), TopologyRules.NIC_DISTANCE, Severity.OK);
        for (String far : List.of("PHB", "NODE", "SYS")) {
            Finding f = TopologyRules.nic(g, rdma, far);
            is(f, TopologyRules.NIC_DISTANCE, Severity.WARN);
            assertThat(f.text()).contains("(" + far + ")");
        }
        // no RDMA device: NCCL goes through host memory wherever the NIC sits, so its distance is no warning
        Finding tcp = TopologyRules.nic(g, nic("0000:02:00.0", false, GEN5_X16), "SYS");
        is(tcp, TopologyRules.NIC_DISTANCE, Severity.INFO);
        assertThat(tcp.text()).contains("has no RDMA device");
        is(TopologyRules.nic(g, null, "?"), TopologyRules.NIC_DISTANCE, Severity.INFO);
        is(TopologyRules.nic(g, rdma, "?"), TopologyRules.NIC_DISTANCE, Severity.UNKNOWN);
    }

    @Test
    void aSuperchipsGpuReachesANicOnItsOwnGraceThroughC2c() {
        // GH200's GPU (10de:2342) and a ConnectX on another root port of the same Grace: NCCL's P2C path, within GPUDirect RDMA's reach
        PciDevice gh200 = new PciDevice("0009:01:00.0", PciKind.parse("gpu"), "GPU0", "", "0x10de", "0x2342", "gpu", "nvidia", 0, CpuSet.parseList("0-71"),
                GEN5_X16, null, "pci0009:00", List.of(), null, false, null);
        assertThat(gh200.superchipGpu()).isTrue();
        PciDevice rdma = nic("0002:01:00.0", true, GEN5_X16);
        for (String near : List.of("PHB", "NODE")) {
            Finding f = TopologyRules.nic(gh200, rdma, near);
            is(f, TopologyRules.NIC_DISTANCE, Severity.INFO);
            assertThat(f.text()).contains("NVLink-C2C").contains("NCCL_NET_GDR_C2C").contains("(" + near + ")");
        }
        // a NIC on the other Grace of a tray is across the CPUs' link: no C2C path to it
        is(TopologyRules.nic(gh200, rdma, "SYS"), TopologyRules.NIC_DISTANCE, Severity.WARN);
        // an H100 on PCIe (10de:2330) is no superchip
        PciDevice h100 = new PciDevice("0000:01:00.0", PciKind.parse("gpu"), "GPU0", "", "0x10de", "0x2330", "gpu", "nvidia", 0, CpuSet.parseList("0-15"),
                GEN5_X16, null, "pci0000:00", List.of(), null, false, null);
        assertThat(h100.superchipGpu()).isFalse();
        is(TopologyRules.nic(h100, rdma, "NODE"), TopologyRules.NIC_DISTANCE, Severity.WARN);
    }

    @Test
    void everyRuleIsInTheRulebook() {
        assertThat(Rulebook.all()).containsAll(TopologyRules.all()).containsAll(PeerRules.all());
    }
}
