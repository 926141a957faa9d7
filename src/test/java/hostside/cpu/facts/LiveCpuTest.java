package hostside.cpu.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Json;
import hostside.fs.FsRoot;

/** This machine: reading never throws and finds this JVM's own allowed CPUs. */
class LiveCpuTest {
    @Test
    void readsThisProcess() throws Exception {
        CpuFacts[] f = new CpuFacts[1];
        assertThatCode(() -> f[0] = CpuFactsReader.read(FsRoot.live())).doesNotThrowAnyException();
        String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow().split(":", 2)[1].strip();
        assertThat(f[0].process().cpusAllowed()).isEqualTo(CpuSet.parseList(allowed));
        assertThat(f[0].process().cpusAllowedCount()).isEqualTo(CpuSet.parseList(allowed).size()).isPositive();
        assertThat(f[0].process().pid()).isEqualTo(String.valueOf(ProcessHandle.current().pid()));
        assertThat(f[0].onlineCpus().isEmpty()).isFalse();
        assertThat(f[0].kernel().release()).isEqualTo(Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        assertThat(f[0].irqs().irqbalance()).isNotNull(); // live: decided from /proc/*/comm
        assertThatCode(() -> CpuVerdicts.of(f[0])).doesNotThrowAnyException();
        assertThatCode(() -> Json.write(f[0])).doesNotThrowAnyException();
    }
}
