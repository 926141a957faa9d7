package hostside.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.CpuSet;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;

/** This process's limits, capabilities and allowed CPUs, read once: from a recording, a garbled one, and this JVM. */
class ThisProcessTest {
    @TempDir
    Path root;

    final List<String> unknowns = new ArrayList<>();
    FactReads reads;

    ThisProcess read(String status, String limits) throws Exception {
        Path self = root.resolve("proc/self");
        Files.createDirectories(self);
        Files.createDirectories(root.resolve("sys"));
        if (status != null) Files.writeString(self.resolve("status"), status);
        if (limits != null) Files.writeString(self.resolve("limits"), limits);
        FsRoot fs = FsRoot.open(root.toString());
        reads = new FactReads(fs, unknowns);
        return ThisProcess.read(fs);
    }

    static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units
            Max locked memory         8388608              8388608              bytes
            Max open files            1048576              1048576              files
            """;

    @Test
    void aContainerWithoutIpcLock() throws Exception {
        ThisProcess p = read("Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t00000000a80425fb\nCpus_allowed_list:\t0-3,8\nMems_allowed_list:\t0\n",
                LIMITS);
        assertThat(p.uid(reads, unknowns)).isEqualTo(1000);
        assertThat(p.capability(ThisProcess.CAP_IPC_LOCK, reads, unknowns)).isFalse();
        assertThat(p.capability(ThisProcess.CAP_SYS_NICE, reads, unknowns)).as("Docker's default set leaves it out").isFalse();
        assertThat(p.capability(5, reads, unknowns)).as("CAP_KILL is in it").isTrue();
        assertThat(p.cpusAllowed(reads, unknowns)).isEqualTo(CpuSet.parseList("0-3,8"));
        assertThat(p.memsAllowed(reads, unknowns)).isEqualTo(CpuSet.of(0));
        assertThat(p.limit(Limits.MEMLOCK, reads, unknowns).soft()).isEqualTo(8388608L);
        assertThat(unknowns).isEmpty();
    }

    @Test
    void onlyWhatADrillAsksForIsSaidMissingAndOnce() throws Exception {
        ThisProcess p = read("Name:\tjava\nCapEff:\tnot-hex\nCpus_allowed_list:\t0-x\n", null);
        assertThat(unknowns).as("nothing asked, nothing said").isEmpty();
        for (int i = 0; i < 2; i++) {
            assertThat(p.capability(ThisProcess.CAP_IPC_LOCK, reads, unknowns)).isNull();
            assertThat(p.uid(reads, unknowns)).isNull();
            assertThat(p.cpusAllowed(reads, unknowns)).isNull();
            assertThat(p.limit(Limits.MEMLOCK, reads, unknowns)).isNull();
        }
        assertThat(unknowns).containsExactly("/proc/self/status: CapEff is not a capability mask: \"not-hex\"", "/proc/self/status: no Uid line",
                "/proc/self/status: Cpus_allowed_list is not a list: \"0-x\"", "/proc/self/limits: missing");
        assertThat(p.memsAllowed(reads, unknowns)).isNull();
        assertThat(unknowns).last().isEqualTo("/proc/self/status: no Mems_allowed_list line");
    }

    @Test
    void thisJvm() {
        FsRoot fs = FsRoot.live();
        reads = new FactReads(fs, unknowns);
        ThisProcess p = ThisProcess.read(fs);
        assertThat(p.pid()).isEqualTo((int) ProcessHandle.current().pid());
        assertThat(p.cpusAllowed(reads, unknowns).size()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(p.limits().get(Limits.NOFILE)).isPresent();
        assertThat(unknowns).isEmpty();
    }
}
