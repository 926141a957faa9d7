package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.CpuSet;
import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.report.ReportBuilder;
import hostside.report.ReportMarkdown;

/**
 * hwloc's rules (topology-linux.c and the core's insertion and cpuset filtering) that real
 * captures need, each on a small sysfs tree built here.
 */
class TopologyRulesTest {
    private static final String CPU = "/sys/devices/system/cpu/";
    private static final String NODE = "/sys/devices/system/node/";

    @TempDir
    Path root;

    private TopologyRulesTest put(String path, String text) throws IOException {
        Path p = root.resolve(path.substring(1));
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return this;
    }

    /** A mask of the kernel's spelling (one 32-bit word) for a CPU list. */
    private static String mask(String list) {
        long bits = 0;
        for (int c : CpuSet.parseList(list).stream().toArray()) bits |= 1L << c;
        return String.format("%08x\n", bits);
    }

    /** CPU cpu with its core, package and node masks (the new file names), and its lists saying the same. */
    private void cpu(int cpu, String core, String pkg) throws IOException {
        String t = CPU + "cpu" + cpu + "/topology/";
        put(t + "core_cpus", mask(core)).put(t + "core_cpus_list", core + "\n");
        put(t + "thread_siblings", mask(core)).put(t + "thread_siblings_list", core + "\n");
        put(t + "package_cpus", mask(pkg)).put(t + "package_cpus_list", pkg + "\n");
        put(t + "core_siblings", mask(pkg)).put(t + "core_siblings_list", pkg + "\n");
        put(t + "core_id", cpu + "\n").put(t + "physical_package_id", "0\n");
    }

    private void cache(int cpu, int index, int level, String type, String shared, String size) throws IOException {
        String c = CPU + "cpu" + cpu + "/cache/index" + index + "/";
        put(c + "level", level + "\n").put(c + "type", type + "\n").put(c + "shared_cpu_map", mask(shared))
                .put(c + "shared_cpu_list", shared + "\n");
        if (size != null) put(c + "size", size);
    }

    private void node(int id, String cpus, long kib) throws IOException {
        put(NODE + "node" + id + "/cpumap", mask(cpus)).put(NODE + "node" + id + "/cpulist", cpus + "\n");
        put(NODE + "node" + id + "/meminfo", "Node " + id + " MemTotal:       " + kib + " kB\n");
    }

    private Topology read(List<String> unknowns) {
        return new TopologyReader(FsRoot.open(root.toString()), unknowns).read();
    }

    private Topology read() {
        return read(new ArrayList<>());
    }

    private static List<Long> l3(Topology t) {
        return t.caches().stream().filter(c -> c.level() == 3).map(Topology.Cache::sizeBytes).toList();
    }

    @Test
    void valuesFollowedByNulOrStrayBytesAreRead() throws IOException {
        // A capture whose every file carries NUL padding, or bytes after the value.
        put(CPU + "online", "0-3\n\u0000\u0000\u0000");
        for (int cpu = 0; cpu < 4; cpu++) {
            String t = CPU + "cpu" + cpu + "/topology/";
            String core = cpu < 2 ? "00000003" : "0000000c";
            put(t + "core_cpus", core + "\n\u0000\u0000").put(t + "package_cpus", "0000000f\u0000\u0001\u0002");
            put(t + "core_id", (cpu / 2) + "\n\u0000");
            String c = CPU + "cpu" + cpu + "/cache/index3/";
            put(c + "level", "3\u0000\u0000").put(c + "type", "Unified\n\u0000").put(c + "shared_cpu_map", "0000000f\n\u0000\u0000")
                    .put(c + "size", "32768K\n\u0000\u00ff");
        }
        put(NODE + "node0/cpumap", "0000000f\n\u0000\u0000").put(NODE + "node0/meminfo", "Node 0 MemTotal: 1024 kB\n\u0000");
        List<String> unknowns = new ArrayList<>();
        Topology t = read(unknowns);
        assertThat(t.threads()).isEqualTo(4);
        assertThat(t.cores()).isEqualTo(2);
        assertThat(t.packages()).isEqualTo(1);
        assertThat(l3(t)).containsExactly(32L << 20);
        assertThat(t.numaNodes()).singleElement().satisfies(n -> {
            assertThat(n.cpus()).isEqualTo(CpuSet.parseList("0-3"));
            assertThat(n.memTotalBytes()).isEqualTo(1L << 20);
        });
        assertThat(unknowns).isEmpty();
    }

    /** Four CPUs in two thread_siblings pairs, each thread with its own core_id. */
    private void computeUnits(String vendor, String family, boolean ownCoreIds) throws IOException {
        StringBuilder cpuinfo = new StringBuilder();
        for (int cpu = 0; cpu < 4; cpu++) {
            cpu(cpu, cpu < 2 ? "0-1" : "2-3", "0-3");
            put(CPU + "cpu" + cpu + "/topology/core_id", (ownCoreIds ? cpu : cpu / 2) + "\n");
            cpuinfo.append("processor\t: ").append(cpu).append("\nvendor_id\t: ").append(vendor)
                    .append("\ncpu family\t: ").append(family).append("\nmodel name\t: test\n\n");
        }
        put("/proc/cpuinfo", cpuinfo.toString());
        put(CPU + "online", "0-3\n");
    }

    @Test
    void amdComputeUnitThreadsWithTheirOwnCoreIdAreCores() throws IOException {
        computeUnits("AuthenticAMD", "21", true);
        assertThat(read().cores()).isEqualTo(4);
    }

    @Test
    void computeUnitsSplitOnlyOnAmdFamilies21And22WithDifferentCoreIds() throws IOException {
        computeUnits("AuthenticAMD", "21", false);
        assertThat(read().cores()).as("same core_id: hyper-threads").isEqualTo(2);
        computeUnits("GenuineIntel", "6", true);
        assertThat(read().cores()).as("not an AMD compute unit").isEqualTo(2);
        computeUnits("AuthenticAMD", "23", true);
        assertThat(read().cores()).as("Zen").isEqualTo(2);
    }

    @Test
    void aCacheWithoutASizeFileStillExists() throws IOException {
        put(CPU + "online", "0-1\n");
        for (int cpu = 0; cpu < 2; cpu++) {
            cpu(cpu, String.valueOf(cpu), "0-1");
            cache(cpu, 0, 1, "Data", String.valueOf(cpu), "32K\n");
            cache(cpu, 3, 3, "Unified", "0-1", null);
        }
        Topology t = read();
        assertThat(l3(t)).hasSize(1).containsNull();
        assertThat(t.caches()).filteredOn(c -> c.level() == 1).extracting(Topology.Cache::sizeBytes).containsExactly(32768L, 32768L);

        MachineFacts f = MachineReader.read(FsRoot.open(root.toString()));
        MachineRun run = new MachineRun(f, GpuDrill.GpuSection.notRun("recorded machine", null));
        assertThat(run.json().path("topology").path("caches").findValues("sizeBytes"))
                .anySatisfy(v -> assertThat(v.isNull()).isTrue());
        assertThat(MachineDocumentTest.text(run)).containsPattern("L3 +unknown +1 ");
        // the report's Markdown, from the report's JSON read back
        var report = Json.MAPPER.valueToTree(ReportBuilder.build(run, java.time.ZonedDateTime.parse("2026-12-03T12:00:00Z")));
        assertThat(ReportMarkdown.render((com.fasterxml.jackson.databind.JsonNode) report)).containsPattern("\\| L3 \\| unknown \\|");
    }

    @Test
    void aNodeWhoseCpusOverlapAnEarlierNodeIsIgnoredWithItsMemory() throws IOException {
        put(CPU + "online", "0-7\n");
        for (int cpu = 0; cpu < 8; cpu++) cpu(cpu, String.valueOf(cpu), "0-7");
        node(0, "0-3", 1024);
        node(1, "3-5", 2048); // claims CPU 3 of node 0: a buggy BIOS
        node(2, "6-7", 4096);
        List<String> unknowns = new ArrayList<>();
        Topology t = read(unknowns);
        assertThat(t.numaNodes()).extracting(Topology.NumaNode::id).containsExactly(0, 2);
        assertThat(t.numaNodes()).extracting(Topology.NumaNode::memTotalBytes).containsExactly(1L << 20, 4L << 20);
        assertThat(unknowns).anySatisfy(u -> assertThat(u).contains("NUMA node 1").contains("overlap"));
    }

    /** Two packages of 4 CPUs, each with one L3 and one node; cgroup v2 allows CPUs 0-3 and both nodes. */
    private void twoSocketsUnderACpuset(String mems) throws IOException {
        put(CPU + "online", "0-7\n");
        for (int cpu = 0; cpu < 8; cpu++) {
            String pkg = cpu < 4 ? "0-3" : "4-7";
            cpu(cpu, String.valueOf(cpu), pkg);
            cache(cpu, 0, 1, "Data", String.valueOf(cpu), "32K\n");
            cache(cpu, 3, 3, "Unified", pkg, "8192K\n");
        }
        node(0, "0-3", 1024);
        node(1, "4-7", 1024);
        put("/proc/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n").put("/proc/self/cgroup", "0::/job\n");
        put("/sys/fs/cgroup/job/cpuset.cpus.effective", "0-3\n").put("/sys/fs/cgroup/job/cpuset.mems.effective", mems + "\n");
    }

    @Test
    void underACpusetAPackageStaysForItsAllowedNodeButItsCachesGo() throws IOException {
        twoSocketsUnderACpuset("0-1");
        Topology t = read();
        assertThat(t.threads()).isEqualTo(4);
        assertThat(t.cores()).isEqualTo(4);
        assertThat(t.packages()).as("package 1 holds allowed node 1").isEqualTo(2);
        assertThat(t.caches()).as("package 1's L3 and L1s hold no allowed CPU").extracting(c -> c.cpus().toList())
                .containsOnly("0", "1", "2", "3", "0-3");
        assertThat(l3(t)).hasSize(1);
        assertThat(t.numaNodes()).extracting(Topology.NumaNode::id).containsExactly(0, 1);
    }

    @Test
    void underACpusetAPackageWithoutAllowedCpuOrNodeGoes() throws IOException {
        twoSocketsUnderACpuset("0");
        Topology t = read();
        assertThat(t.packages()).isEqualTo(1);
        assertThat(l3(t)).hasSize(1);
        assertThat(t.numaNodes()).extracting(Topology.NumaNode::id).containsExactly(0);
    }

    @Test
    void underACpusetAnL3ThatAloneHoldsAnAllowedNodeStays() throws IOException {
        // Cluster-on-die: two L3 (and nodes) per package; the cpuset allows CPUs 0-1 and all nodes.
        put(CPU + "online", "0-3\n");
        for (int cpu = 0; cpu < 4; cpu++) {
            cpu(cpu, String.valueOf(cpu), "0-3");
            cache(cpu, 3, 3, "Unified", cpu < 2 ? "0-1" : "2-3", "8192K\n");
        }
        node(0, "0-1", 1024);
        node(1, "2-3", 1024);
        put("/proc/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n").put("/proc/self/cgroup", "0::/job\n");
        put("/sys/fs/cgroup/job/cpuset.cpus.effective", "0-1\n").put("/sys/fs/cgroup/job/cpuset.mems.effective", "0-1\n");
        Topology t = read();
        assertThat(t.packages()).isEqualTo(1);
        assertThat(l3(t)).as("the second L3 holds node 1").hasSize(2);
        assertThat(t.cores()).isEqualTo(2);
    }

    @Test
    void whereMasksAndListsDisagreeTheMasksWin() throws IOException {
        put(CPU + "online", "0-3\n");
        for (int cpu = 0; cpu < 4; cpu++) {
            cpu(cpu, String.valueOf(cpu), cpu < 2 ? "0-1" : "2-3");
            String t = CPU + "cpu" + cpu + "/topology/";
            // the lists say one package and one core pair; the masks say two packages of single cores
            put(t + "package_cpus_list", "0-3\n").put(t + "core_siblings_list", "0-3\n");
            put(t + "core_cpus_list", cpu < 2 ? "0-1\n" : "2-3\n").put(t + "thread_siblings_list", cpu < 2 ? "0-1\n" : "2-3\n");
            cache(cpu, 3, 3, "Unified", cpu < 2 ? "0-1" : "2-3", "4096K\n");
            put(CPU + "cpu" + cpu + "/cache/index3/shared_cpu_list", "0-3\n");
        }
        put(NODE + "node0/cpumap", mask("0-3")).put(NODE + "node0/cpulist", "0-1\n");
        Topology t = read();
        assertThat(t.packages()).isEqualTo(2);
        assertThat(t.cores()).isEqualTo(4);
        assertThat(t.caches()).extracting(c -> c.cpus().toList()).containsExactly("0-1", "2-3");
        assertThat(t.numaNodes()).singleElement().satisfies(n -> assertThat(n.cpus()).isEqualTo(CpuSet.parseList("0-3")));
    }

    @Test
    void aMaskLeavingOutTheCpuThatWouldCreateAnObjectMeansNoSuchObject() throws IOException {
        // cpu2's package mask says 0-3 (cutting across packages 0-1 and 2-3): package 2-3 has no first CPU.
        put(CPU + "online", "0-3\n");
        for (int cpu = 0; cpu < 4; cpu++) cpu(cpu, String.valueOf(cpu), cpu < 2 ? "0-1" : "2-3");
        put(CPU + "cpu2/topology/package_cpus", mask("0-3"));
        assertThat(read().packages()).isEqualTo(1);
    }

    @Test
    void onlineCpusWithoutATopologyFolderAreNotCounted() throws IOException {
        put(CPU + "online", "0-3\n");
        for (int cpu = 0; cpu < 3; cpu++) cpu(cpu, String.valueOf(cpu), "0-3");
        Files.createDirectories(root.resolve("sys/devices/system/cpu/cpu3"));
        List<String> unknowns = new ArrayList<>();
        Topology t = read(unknowns);
        assertThat(t.threads()).isEqualTo(3);
        assertThat(t.cores()).isEqualTo(3);
        assertThat(unknowns).anySatisfy(u -> assertThat(u).contains("CPUs 3").contains("no topology folder"));
    }

    @Test
    void theNodeOnlineListDecidesWhichNodesExist() throws IOException {
        put(CPU + "online", "0-1\n");
        for (int cpu = 0; cpu < 2; cpu++) cpu(cpu, String.valueOf(cpu), "0-1");
        node(0, "0-1", 1024);
        node(1, "", 1024); // offline: its folder is left in the capture, the kernel's list leaves it out
        put(NODE + "online", "0\n");
        assertThat(read().numaNodes()).extracting(Topology.NumaNode::id).containsExactly(0);
    }

    @Test
    void withoutAMountTableTheStandardCgroupMountPointIsUsed() throws IOException {
        put(CPU + "online", "0-3\n");
        for (int cpu = 0; cpu < 4; cpu++) cpu(cpu, String.valueOf(cpu), "0-3");
        put("/proc/self/cgroup", "0::/job\n");
        put("/sys/fs/cgroup/cpuset.cpus.effective", "0-3\n").put("/sys/fs/cgroup/job/cpuset.cpus.effective", "1-2\n");
        Topology t = read();
        assertThat(t.threads()).isEqualTo(2);
        assertThat(t.whole().allowedCpus()).isEqualTo(CpuSet.parseList("1-2"));
    }

    @Test
    void aCaptureHoldingTheListsOnlyIsReadFromTheLists() throws IOException {
        put(CPU + "online", "0-3\n");
        for (int cpu = 0; cpu < 4; cpu++) {
            String t = CPU + "cpu" + cpu + "/topology/";
            put(t + "core_cpus_list", (cpu < 2 ? "0-1" : "2-3") + "\n").put(t + "package_cpus_list", "0-3\n");
            put(CPU + "cpu" + cpu + "/cache/index3/level", "3\n").put(CPU + "cpu" + cpu + "/cache/index3/shared_cpu_list", "0-3\n")
                    .put(CPU + "cpu" + cpu + "/cache/index3/size", "1024K\n");
        }
        Topology t = read();
        assertThat(t.packages()).isEqualTo(1);
        assertThat(t.cores()).isEqualTo(2);
        assertThat(l3(t)).containsExactly(1L << 20);
    }

    @Test
    void anObjectCuttingAcrossAnEarlierOneIsDropped() throws IOException {
        // cpu1's L3 says CPUs 1-2, across packages 0-1 and 2-3: hwloc drops it ("intersection without inclusion")
        put(CPU + "online", "0-3\n");
        for (int cpu = 0; cpu < 4; cpu++) {
            cpu(cpu, String.valueOf(cpu), cpu < 2 ? "0-1" : "2-3");
            cache(cpu, 3, 3, "Unified", cpu == 1 ? "1-2" : cpu < 2 ? "0-1" : "2-3", "4096K\n");
        }
        List<String> unknowns = new ArrayList<>();
        Topology t = read(unknowns);
        assertThat(t.packages()).isEqualTo(2);
        assertThat(t.caches()).extracting(c -> c.cpus().toList()).containsExactly("0-1", "2-3");
        assertThat(unknowns).anySatisfy(u -> assertThat(u).contains("L3 cache of cpu1").contains("cuts across a package"));
    }
}
