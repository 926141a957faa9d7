package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** Truncated and garbage files under /sys and /proc give "unknown (why)", never an exception. */
class GarbageTest {
    @TempDir
    Path root;

    void put(String path, String text) throws IOException {
        Path p = root.resolve(path.substring(1));
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void garbageBecomesUnknowns() throws IOException {
        put("/sys/devices/system/cpu/online", "0-");                       // truncated
        put("/sys/devices/system/cpu/cpu0/topology/physical_package_id", "zero");
        put("/sys/devices/system/cpu/cpu0/topology/core_cpus_list", "\u0000\u0001garbage");
        put("/sys/devices/system/cpu/cpu0/cache/index0/level", "");
        put("/sys/devices/system/cpu/cpu0/cache/index0/size", "lots");
        put("/sys/devices/system/cpu/cpu1/topology/core_cpus_list", "1");
        put("/sys/devices/system/node/node0/cpumap", "3");
        put("/sys/devices/system/node/node0/meminfo", "Node 0 MemTotal: \n");
        put("/sys/devices/system/node/node0/distance", "10 x");
        put("/sys/devices/pci0000:00/0000:00:06.0/class", "not a class");
        put("/sys/devices/pci0000:00/0000:00:06.0/numa_node", "minus one");
        put("/sys/devices/pci0000:00/0000:00:06.0/current_link_speed", "fast");
        put("/sys/devices/pci0000:00/0000:00:06.0/local_cpulist", "0-zz");
        Files.createDirectories(root.resolve("sys/bus/pci/devices"));
        Files.createSymbolicLink(root.resolve("sys/bus/pci/devices/0000:00:06.0"), Path.of("../../../devices/pci0000:00/0000:00:06.0"));
        put("/proc/cpuinfo", "processor : x\n\u0000\u0000");
        put("/proc/meminfo", "MemTotal: many kB");
        put("/proc/driver/nvidia/gpus/0000:00:06.0/numa_status", "Node: ?\n");

        MachineFacts f = MachineReader.read(FsRoot.open(root.toString()));
        assertThat(f.topology().threads()).isEqualTo(2); // online is garbage: the cpu dirs are used
        assertThat(f.topology().numaNodes().getFirst().memTotalBytes()).isNull();
        assertThat(f.unknowns()).anySatisfy(u -> assertThat(u).contains("online").contains("not a CPU list"));
        assertThat(f.unknowns()).anySatisfy(u -> assertThat(u).contains("memory of NUMA node 0"));
        assertThat(f.unknowns()).anySatisfy(u -> assertThat(u).contains("class").contains("not a class code"));
        assertThat(f.unknowns()).anySatisfy(u -> assertThat(u).contains("numa_status"));
        assertThat(f.pci()).singleElement().satisfies(d -> {
            assertThat(d.numaNode()).isNull();
            assertThat(d.link().speedGTs()).isNull();
            assertThat(d.localCpus().isEmpty()).isTrue();
        });
    }

    @Test
    void anEmptyMachineStillReads() throws IOException {
        Files.createDirectories(root.resolve("proc"));
        MachineFacts f = MachineReader.read(FsRoot.open(root.toString()));
        assertThat(f.topology().threads()).isZero();
        assertThat(f.pci()).isEmpty();
        assertThat(f.schema()).isEqualTo("hostside/2");
    }
}
