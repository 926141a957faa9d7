package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Page one's "what to fix here", from every module's findings and the rack checklist, on recorded machines. */
class ToFixTest {
    @TempDir
    Path tmp;

    String pageOne(String machine) throws Exception {
        RackReports.write(tmp, machine);
        String md = Files.readString(tmp.resolve(machine + ".md"));
        return md.substring(md.indexOf("## What to fix here"), md.indexOf("## Headline numbers"));
    }

    @Test
    void aGraceBoxWithADistributionsDefaultsIsToldWhatToChange() throws Exception {
        String fix = pageOne("gh200-cdmm");
        assertThat(fix).contains("**warn** (Module 5, cpu\\_governor, M5-CPU-GOVERNOR)").contains("Fix: **cpupower frequency-set -g performance**")
                .contains("**warn** (Module 5, pci\\_power, M5-PCI-POWER)")
                // init_on_alloc=0 is a benchmark setting the Grace guide says may affect security: info, not a thing to fix
                .doesNotContain("init\\_on\\_alloc");
        assertThat(fix.indexOf("Module 2")).as("in the modules' order within a severity").isLessThan(fix.indexOf("Module 5"));
    }

    @Test
    void whatAModuleFoundIsSaidOnceNotAgainByTheRack() throws Exception {
        String fix = pageOne("hgx-h100");
        assertThat(fix).contains("(Module 2, NUMA balancing, M2-NUMA-BALANCING)").contains("Fix: **sysctl kernel.numa\\_balancing=0")
                .doesNotContain("numa\\_balancing)");
    }

    @Test
    void aHealthyBoxHasNothingToFix() throws Exception {
        assertThat(pageOne("gh200-numa")).contains("Nothing bad or doubtful was found");
    }
}
