package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.Nic;

/** Garbage, missing files and broken links in /sys and /proc give unknowns, never an exception. */
class GarbageTest {
    @TempDir
    Path tmp;

    private static Nic eth0(IoFacts f) {
        return f.nics().getFirst();
    }

    @Test
    void nicSpeedsThatAreNoSpeed() {
        Rig r = new Rig(tmp);
        String speed = r.real("/sys/class/net/eth0") + "/speed";
        r.put(speed, "-1\n");
        IoFacts f = r.read("/");
        assertThat(eth0(f).speedMbps()).isNull();
        assertThat(eth0(f).speedUnknown()).isEqualTo("the driver reports -1");
        assertThat(f.unknowns()).as("-1 is an answer, not a fault").isEmpty();

        r.put(speed, "fast\n");
        f = r.read("/");
        assertThat(eth0(f).speedUnknown()).isEqualTo("not a number: \"fast\"");
        assertThat(f.unknowns()).singleElement().asString().endsWith("/speed: not a number: \"fast\"");

        r.put(speed, "");
        assertThat(eth0(r.read("/")).speedUnknown()).isEqualTo("empty file");
        r.put(speed, "0\n");
        assertThat(eth0(r.read("/")).speedUnknown()).isEqualTo("the driver reports 0");

        r.remove(speed).dir(speed);
        assertThat(eth0(r.read("/")).speedUnknown()).as("unreadable").isEqualTo("is a folder");
        r.remove(speed);
        assertThat(eth0(r.read("/")).speedUnknown()).isEqualTo("missing");
    }

    @Test
    void nicMtuAndTypeGarbage() {
        Rig r = new Rig(tmp);
        String dir = r.real("/sys/class/net/eth0");
        r.put(dir + "/mtu", "jumbo\n").put(dir + "/type", "99999999999\n").remove(dir + "/operstate");
        IoFacts f = r.read("/");
        assertThat(eth0(f).mtu()).isNull();
        assertThat(eth0(f).type()).isNull();
        assertThat(eth0(f).operstate()).isNull();
        assertThat(f.unknowns()).hasSize(3).anyMatch(u -> u.endsWith("/mtu: not a number: \"jumbo\""))
                .anyMatch(u -> u.endsWith("/type: out of range: \"99999999999\"")).anyMatch(u -> u.endsWith("/operstate: missing"));
    }

    @Test
    void blockQueueGarbage() {
        Rig r = new Rig(tmp);
        String dir = r.real("/sys/block/nvme1n1");
        r.put(dir + "/queue/scheduler", "[none] [bfq]\n").put(dir + "/queue/nr_requests", "-4\n").put(dir + "/size", "\u0000\u0000\n")
                .put(dir + "/queue/rotational", "maybe\n");
        IoFacts f = r.read("/");
        BlockDevice b = f.blockDevices().stream().filter(d -> d.name().equals("nvme1n1")).findFirst().orElseThrow();
        assertThat(b.queue().scheduler()).isNull();
        assertThat(b.queue().schedulers()).isEmpty();
        assertThat(b.queue().nrRequests()).isNull();
        assertThat(b.sizeBytes()).isNull();
        assertThat(b.rotational()).isNull();
        assertThat(b.queue().readAheadKb()).isEqualTo(128);
        assertThat(f.unknowns()).anyMatch(u -> u.endsWith("/queue/scheduler: not a scheduler list: \"[none] [bfq]\""))
                .anyMatch(u -> u.endsWith("/queue/nr_requests: not a number: \"-4\""))
                .anyMatch(u -> u.endsWith("/size: not a number: \"\""));
        assertThat(IoVerdicts.of(f, Rig.gpusOn(0))).isEmpty();
    }

    @Test
    void aDiskWithoutItsQueueFolder() {
        Rig r = new Rig(tmp);
        r.remove(r.real("/sys/block/nvme2n1") + "/queue");
        IoFacts f = r.read("/data");
        BlockDevice b = f.blockDevices().stream().filter(d -> d.name().equals("nvme2n1")).findFirst().orElseThrow();
        assertThat(b.queue()).isEqualTo(new IoFacts.Queue(null, java.util.List.of(), null, null, null, null, null, null, null));
        assertThat(f.unknowns()).anyMatch(u -> u.endsWith("nvme2n1/queue: missing"));
    }

    @Test
    void brokenAndLoopingLinks() {
        Rig r = new Rig(tmp);
        r.link("/sys/block/sdz", "../devices/nowhere/sdz").link("/sys/dev/block/259:2", "../../dev/block/259:2")
                .link("/sys/class/net/eth9", "../../devices/gone/eth9").link("/sys/class/infiniband/mlx5_9", "../../devices/gone/mlx5_9")
                .link(r.real("/sys/block/md0") + "/slaves/md0", r.real("/sys/block/md0"));
        IoFacts f = r.read("/", "/data");
        assertThat(f.dataDirs().get(0).blockDevice()).as("a device link that loops: fall back to the source").isEqualTo("nvme0n1p2");
        assertThat(f.dataDirs().get(1).disks()).as("md0 listed as its own slave is not followed forever")
                .containsExactly("nvme1n1", "nvme2n1");
        assertThat(f.nics()).extracting(Nic::name).contains("eth0");
        assertThat(f.rdmaDevices()).extracting(IoFacts.RdmaDevice::name).contains("mlx5_9");
    }

    @Test
    void mountTablesWithGarbageLinesOrNone() {
        Rig r = new Rig(tmp).put("/proc/self/mountinfo", "garbage\n\n 1 2 3\n20 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n");
        assertThat(r.read("/x").dataDirs().getFirst().blockDevice()).isEqualTo("nvme0n1p2");
        r.remove("/proc/self/mountinfo");
        IoFacts f = r.read("/x");
        assertThat(f.dataDirs().getFirst().filesystem()).isNull();
        assertThat(f.dataDirs().getFirst().disks()).isEmpty();
        assertThat(f.unknowns()).contains("/proc/self/mountinfo, /proc/self/mounts, /proc/mounts: no mount table");
        assertThat(IoFactsBlocksTest.text(f)).contains("unknown (no mount table)");
    }

    @Test
    void rdmaPortsWithGarbage() {
        Rig r = new Rig(tmp);
        String port = r.real("/sys/class/infiniband/mlx5_0") + "/ports/1";
        r.put(port + "/rate", "very fast\n").remove(port + "/state").dir(r.real("/sys/class/infiniband/mlx5_0") + "/ports/notaport");
        IoFacts f = r.read("/");
        IoFacts.RdmaPort p = f.rdmaDevices().getFirst().ports().getFirst();
        assertThat(f.rdmaDevices().getFirst().ports()).hasSize(1);
        assertThat(p.state()).isNull();
        assertThat(p.rate()).isEqualTo("very fast");
        assertThat(p.rateGbps()).isNull();
        assertThat(f.unknowns()).anyMatch(u -> u.endsWith("/ports/1/state: missing"));
        assertThat(IoVerdicts.of(f, Rig.gpusOn(0))).as("a port state unknown is no finding").isEmpty();
    }

    @Test
    void cufileJsonThatIsNotJson() {
        Rig r = new Rig(tmp).put("/etc/cufile.json", "{ \"properties\": { \"allow_compat_mode\": tru\n");
        IoFacts f = r.read("/");
        assertThat(f.gpuDirect().cufile().present()).isTrue();
        assertThat(f.gpuDirect().cufile().error()).startsWith("not JSON at line 1: ");
        assertThat(f.gpuDirect().cufile().allowCompatMode()).isNull();
        assertThat(f.unknowns()).anyMatch(u -> u.startsWith("/etc/cufile.json: not JSON"));
        r.put("/etc/cufile.json", "[1, 2]");
        assertThat(r.read("/").gpuDirect().cufile().error()).isEqualTo("not a JSON object");
        r.remove("/etc/cufile.json").dir("/etc/cufile.json");
        assertThat(r.read("/").gpuDirect().cufile().error()).isEqualTo("is a folder");
    }
}
