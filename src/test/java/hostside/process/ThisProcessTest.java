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

    ThisProcess read(String status, String limits, List<String> unknowns) throws Exception {
        Path self = root.resolve("proc/self");
        Files.createDirectories(self);
        Files.createDirectories(root.resolve("sys"));
        if (status != null) Files.writeString(self.resolve("status"), status);
        if (limits != null) Files.writeString(self.resolve("limits"), limits);
        FsRoot fs = FsRoot.open(root.toString());
        return ThisProcess.read(fs, new FactReads(fs, unknowns), unknowns);
    }

    static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units
            Max locked memory         8388608              8388608              bytes
            Max open files            1048576              1048576              files
            """;

    @Test
    void aContainerWithoutIpcLock() throws Exception {
        List<String> unknowns = new ArrayList<>();
        ThisProcess p = read("Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t00000000a80425fb\nCpus_allowed_list:\t0-3,8\nMems_allowed_list:\t0\n",
                LIMITS, unknowns);
        assertThat(p.uid()).isEqualTo(1000);
        assertThat(p.capability(ThisProcess.CAP_IPC_LOCK)).isFalse();
        assertThat(p.capability(ThisProcess.CAP_SYS_NICE)).as("Docker's default set leaves it out").isFalse();
        assertThat(p.capability(5)).as("CAP_KILL is in it").isTrue();
        assertThat(p.cpusAllowed()).isEqualTo(CpuSet.parseList("0-3,8"));
        assertThat(p.memsAllowed()).isEqualTo(CpuSet.of(0));
        assertThat(p.limit(Limits.MEMLOCK, null, unknowns).soft()).isEqualTo(8388608L);
        assertThat(unknowns).isEmpty();
    }

    @Test
    void missingAndGarbledLinesAreSaidNotThrown() throws Exception {
        List<String> unknowns = new ArrayList<>();
        ThisProcess p = read("Name:\tjava\nCapEff:\tnot-hex\nCpus_allowed_list:\t0-x\n", null, unknowns);
        assertThat(p.capEff()).isNull();
        assertThat(p.capability(ThisProcess.CAP_IPC_LOCK)).isNull();
        assertThat(p.uid()).isNull();
        assertThat(p.cpusAllowed()).isNull();
        assertThat(p.limits()).isNull();
        assertThat(unknowns).anyMatch(u -> u.contains("no Uid line")).anyMatch(u -> u.contains("Mems_allowed_list"))
                .anyMatch(u -> u.contains("/proc/self/limits")).anyMatch(u -> u.contains("CapEff")).anyMatch(u -> u.contains("Cpus_allowed_list"));
    }

    @Test
    void thisJvm() {
        List<String> unknowns = new ArrayList<>();
        FsRoot fs = FsRoot.live();
        ThisProcess p = ThisProcess.read(fs, new FactReads(fs, unknowns), unknowns);
        assertThat(p.pid()).isEqualTo((int) ProcessHandle.current().pid());
        assertThat(p.cpusAllowed().size()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(p.limits().get(Limits.NOFILE)).isPresent();
    }
}
