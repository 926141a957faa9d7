package hostside.cpu.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.CpuSet;
import hostside.core.Json;
import hostside.machine.PciKind;

/**
 * CpuFacts' CPU sets written to JSON and read back: a set writes as the kernel's list spelling,
 * the known-empty set as "" and an unknown one as null, and each reads back as what was written,
 * so that a report's facts read back equal the facts that wrote it.
 */
class CpuFactsJsonTest {
    @TempDir
    Path root;

    static CpuSet set(String list) {
        return CpuSet.parseList(list);
    }

    static CpuFacts readBack(CpuFacts f) throws Exception {
        return Json.MAPPER.treeToValue(Json.MAPPER.valueToTree(f), CpuFacts.class);
    }

    /** A recorded box with a set of each kind: non-empty, empty and unknown. */
    @Test
    void factsReadFromARecordingReadBackEqual() throws Exception {
        CpuFacts f = Box.healthy(root)
                .put("/proc/cmdline", "ro isolcpus=managed_irq,domain,2-7 nohz_full=2-7 rcu_nocbs=2-7 irqaffinity=0-1\n")
                .put(Box.CPU + "/isolated", "2-7\n").put(Box.CPU + "/nohz_full", "(null)\n")
                .remove("/proc/irq/default_smp_affinity").read();
        assertThat(f.isolation().isolated()).isEqualTo(set("2-7"));
        assertThat(f.isolation().nohzFullEffective()).as("(null): no mask, the empty set").isEqualTo(CpuSet.EMPTY);
        assertThat(f.irqs().defaultAffinity()).as("no such file: unknown").isNull();
        assertThat(readBack(f)).isEqualTo(f);
    }

    @Test
    void nonEmptyEmptyAndNullSetsReadBackAsWritten() throws Exception {
        CpuSet some = set("0-7,16-23"), none = CpuSet.EMPTY;
        CpuFacts.Irq irq = new CpuFacts.Irq(100, "nvidia", "IR-PCI-MSIX-0000:3b:00.0", null, none, set("3"), set("3"), 7, Map.of(3, 7L));
        CpuFacts f = new CpuFacts(null, null,
                new CpuFacts.Isolation(new CpuFacts.CmdlineCpus("isolcpus=2-x", List.of(), null),
                        new CpuFacts.CmdlineCpus("rcu_nocbs", List.of(), none), null, null, none, null, some),
                new CpuFacts.ProcessCpus("42", null, null, set("0-1"), new CpuFacts.Cgroup("v2", "/", null, "", null, null, null, "none")),
                new CpuFacts.Frequency("cpufreq", List.of(new CpuFacts.Share("performance", some, 16)), List.of(), List.of(), null, null, List.of()),
                null,
                new CpuFacts.Irqs(none, null, null, "unknown", List.of(new CpuFacts.DeviceIrqs("GPU0", "0000:3b:00.0", PciKind.GPU, 0,
                        null, List.of("msi_irqs"), List.of(irq), set("3"), none, 7))),
                List.of(new CpuFacts.Feeder("GPU0", "0000:3b:00.0", 0, some, none, some, null,
                        List.of(new CpuFacts.IrqsOnFeeders("eth0", PciKind.NIC, 1, 0, set("5"), 0)))),
                none, null, List.of());

        JsonNode j = Json.MAPPER.valueToTree(f);
        // the spelling the JSON had when these were strings: the list, "" for empty, null for unknown
        assertThat(j.path("isolation").path("housekeeping").isTextual()).isTrue();
        assertThat(j.path("isolation").path("housekeeping").asText()).isEqualTo("0-7,16-23");
        assertThat(j.path("isolation").path("isolated").isTextual()).isTrue();
        assertThat(j.path("isolation").path("isolated").asText()).isEmpty();
        assertThat(j.path("isolation").path("nohzFullEffective").isNull()).isTrue();
        assertThat(j.path("isolation").path("isolcpus").path("cpus").isNull()).isTrue();
        assertThat(j.path("isolation").path("rcuNocbs").path("cpus").asText()).isEmpty();
        assertThat(j.path("process").path("cpusAllowed").isNull()).isTrue();
        assertThat(j.path("process").path("memsAllowed").asText()).isEqualTo("0-1");
        assertThat(j.path("irqs").path("defaultAffinity").isNull()).isTrue();
        assertThat(j.path("irqs").path("cpuColumns").asText()).isEmpty();
        assertThat(j.path("feeders").get(0).path("allowedFeederCpus").isNull()).isTrue();
        assertThat(j.path("onlineCpus").isTextual()).isTrue();
        assertThat(j.path("onlineCpus").asText()).isEmpty();

        CpuFacts back = Json.MAPPER.treeToValue(j, CpuFacts.class);
        assertThat(back).isEqualTo(f);
        // null stays unknown and "" stays the known-empty set, not the other way round
        assertThat(back.isolation().nohzFullEffective()).isNull();
        assertThat(back.isolation().isolated()).isEqualTo(CpuSet.EMPTY);
        assertThat(back.irqs().devices().getFirst().irqs().getFirst().affinity()).isNull();
        assertThat(back.irqs().devices().getFirst().irqs().getFirst().effectiveAffinity()).isEqualTo(CpuSet.EMPTY);
    }
}
