package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.fs.FsRoot;
import hostside.machine.Host;

/** This machine, whatever it is: only what holds on every Linux box is checked. */
class LiveIoTest {
    @Test
    void thisMachine() {
        IoFacts f = IoFactsReader.read(FsRoot.live(), Host.read(FsRoot.live()), IoFactsReader.defaultDataDirs());
        assertThat(f.dataDirs()).isNotEmpty();
        IoFacts.DataDir tmp = f.dataDirs().stream().filter(d -> d.path().equals("/tmp")).findFirst().orElseThrow();
        assertThat(tmp.exists()).isTrue();
        assertThat(tmp.filesystem()).as("/tmp lies on some mount").isNotNull();
        assertThat(tmp.realPath()).startsWith(tmp.filesystem().mountPoint());
        assertThat(tmp.filesystem().storage()).isNotEqualTo(FsKind.PSEUDO);
        for (IoFacts.DataDir d : f.dataDirs()) {
            for (String disk : d.disks()) {
                assertThat(f.blockDevices()).as("the disks under %s are listed", d.path()).anyMatch(b -> b.name().equals(disk));
            }
        }
        for (IoFacts.BlockDevice b : f.blockDevices()) {
            assertThat(FsRoot.live().exists("/sys/class/block/" + b.name()) || FsRoot.live().exists("/sys/block/" + b.name())).isTrue();
            assertThat(b.physical()).isNotEmpty();
        }
        assertThat(f.nics()).extracting(IoFacts.Nic::name).doesNotContain("lo");
        for (IoFacts.Nic n : f.nics()) assertThat(n.speedMbps() == null).isEqualTo(n.speedUnknown() != null);
        assertThat(f.gpuDirect().modulesSource()).isNotBlank();
        String view = IoFactsBlocksTest.text(f);
        assertThat(view).contains("Data paths", "/tmp", "GPUDirect");
        IoVerdicts.of(f, List.of());
    }

    @Test
    void aRelativeFolderIsPlacedFromTheCurrentOne() {
        IoFacts f = IoFactsReader.read(FsRoot.live(), Host.read(FsRoot.live()), List.of(Path.of("target")));
        assertThat(f.dataDirs().getFirst().path()).isEqualTo(Path.of("target").toAbsolutePath().toString());
        assertThat(f.dataDirs().getFirst().filesystem()).isNotNull();
    }
}
