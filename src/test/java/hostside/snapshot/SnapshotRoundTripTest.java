package hostside.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.fs.FsRoot;
import hostside.fs.Recorder;
import hostside.io.IoDrill;
import hostside.machine.Host;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;

/** A snapshot holds exactly what hostside read: read back, it gives the same facts. */
class SnapshotRoundTripTest {
    @TempDir
    Path tmp;

    static MachineFacts sourceless(MachineFacts f) {
        Host h = f.host();
        return new MachineFacts(f.schema(), new Host(h.name(), h.kernel(), h.architecture(), h.virtualization(), h.nvidiaDriver(), h.openKernelModules(), "-"),
                f.topology(), f.pci(), f.affinity(), f.iommu(), f.kernelCmdline(), f.findings(), f.unknowns());
    }

    MachineFacts roundTrip(FsRoot fs) throws IOException {
        Recorder r = fs.record();
        MachineFacts before = Snapshot.readEverything(fs);
        Path out = tmp.resolve("box.tar.gz");
        r.writeTarGz(out, "box");
        MachineFacts after = MachineReader.read(FsRoot.open(out.toString()));
        assertThat(sourceless(after)).isEqualTo(sourceless(before));
        return before;
    }

    @Test
    void thisMachine() throws IOException {
        MachineFacts live = roundTrip(FsRoot.live());
        assertThat(live.topology().threads()).isPositive();
        assertThat(live.host().source()).isEqualTo("live");
    }

    @Test
    void thisMachinesStorageAndNetworkFactsToo() throws IOException {
        FsRoot live = FsRoot.live();
        Recorder r = live.record();
        Snapshot.readEverything(live);
        Path out = tmp.resolve("io.tar.gz");
        r.writeTarGz(out, "box");
        var options = new IoDrill.Options(null, null, null, null);
        FsRoot now = FsRoot.live(), back = FsRoot.open(out.toString());
        var before = IoDrill.facts(now, Host.read(now), options);
        var after = IoDrill.facts(back, Host.read(back), options);
        assertThat(after.blockDevices()).isEqualTo(before.blockDevices());
        assertThat(after.nics()).isEqualTo(before.nics());
        assertThat(after.gpuDirect()).as("/sys/module answers the same: a folder checked is a folder recorded").isEqualTo(before.gpuDirect());
        assertThat(after.dataDirs().stream().map(d -> d.filesystem()).toList()).isEqualTo(before.dataDirs().stream().map(d -> d.filesystem()).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h200/sysfs.tar.gz", "hwloc/nvidiagpunumanodes.tar.bz2", "hwloc/32em64t-2n8c+dax+nvme+mic+dimms.tar.bz2",
            "hwloc/16amd64-8n2c-cpusets.tar.bz2", "hwloc/20em64t-hybrid-1p6c2t+2ca4co1t.tar.bz2"})
    void recordedMachines(String fixture) throws IOException {
        roundTrip(FsRoot.open(Fixtures.testdata().resolve(fixture).toString()));
    }
}
