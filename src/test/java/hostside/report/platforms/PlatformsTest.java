package hostside.report.platforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;

/**
 * The reference platforms as data: every figure tagged and sourced or said not to be known, a link
 * quoted per superchip never shown as one GPU's, B200 and B300 told from their neighbours, and a
 * floor only where a copy was measured.
 */
class PlatformsTest {
    static Platforms.Platform platform(String id) {
        return Platforms.get().platforms().stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
    }

    static List<Platforms.Tagged> figures(Platforms.Platform p) {
        return List.of(p.coresPerGpu(), p.hostLinkPerGpu(), p.hostToDevice(), p.gpuToGpu(), p.nicGbpsPerGpu(), p.gpuMemoryGb());
    }

    @Test
    void theFileLoadsAndEveryFigureHasATagAndASourceOrIsSaidNotToBeKnown() {
        assertThat(Platforms.get().platforms()).hasSizeGreaterThanOrEqualTo(10);
        for (Platforms.Platform p : Platforms.get().platforms()) {
            for (Platforms.Tagged t : figures(p)) {
                assertThat(t).as(p.id()).isNotNull();
                assertThat(t.tag()).as(p.id()).isIn("S", "M", "T", "?");
                assertThat(t.source()).as(p.id()).isNotBlank();
                assertThat(t.known()).as(p.id() + ": only ? has no value").isEqualTo(!t.tag().equals("?"));
                // not known reads as such: never 0, never blank
                assertThat(t.shown()).as(p.id()).isNotBlank().doesNotStartWith("0 ");
                if (!t.known()) assertThat(t.shown()).isEqualTo("not known (?)");
            }
        }
    }

    @Test
    void aFigureWithoutATagOrASourceOrWithAValueItsTagDeniesIsRefused() {
        assertThatThrownBy(() -> new Platforms.Tagged(55.0, "X", "src")).hasMessageContaining("S, M, T or ?");
        assertThatThrownBy(() -> new Platforms.Tagged(null, "S", "src")).hasMessageContaining("only ? has no value");
        assertThatThrownBy(() -> new Platforms.Tagged(450.0, "?", "src")).hasMessageContaining("only ? has no value");
        assertThatThrownBy(() -> new Platforms.Tagged(0.0, "M", "src")).hasMessageContaining("positive");
        assertThatThrownBy(() -> new Platforms.Tagged(55.0, "M", " ")).hasMessageContaining("names its source");
        // a file with such a figure does not load
        String bad = """
                {"about": "", "platforms": [{"id": "x", "name": "X", "link": "pcie", "linkDetail": "", "coherent": false, "gpus": [], "gpuNames": [], "domain": 1,
                 "hostToDevice": {"value": 900, "tag": "?", "source": "per superchip"}}]}""";
        assertThatThrownBy(() -> Json.MAPPER.readValue(bad, Platforms.class)).hasStackTraceContaining("only ? has no value");
        // a figure the file leaves out is not known, with a source saying so, not a blank
        Platforms sparse = readUnchecked("""
                {"about": "", "platforms": [{"id": "x", "name": "X", "link": "pcie", "linkDetail": "", "coherent": false, "gpus": [], "gpuNames": [], "domain": 1}]}""");
        assertThat(sparse.platforms().getFirst().hostToDevice().known()).isFalse();
        assertThat(sparse.platforms().getFirst().hostToDevice().withSource("GB/s")).isEqualTo("not known (?: no source found)");
    }

    private static Platforms readUnchecked(String json) {
        try {
            return Json.MAPPER.readValue(json, Platforms.class);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * GB200, GB300 and Vera Rubin quote NVLink-C2C per superchip of one CPU and two GPUs: one GPU's share is not
     * published, so no per-GPU host-link figure may stand as a spec (the table once showed 450 and 900 per direction
     * as one GPU's). GH200 has one GPU per Grace: its figure is the GPU's.
     */
    @Test
    void aLinkQuotedPerSuperchipGivesNoPerGpuSpec() {
        List<Platforms.Platform> superchips = Platforms.get().platforms().stream().filter(p -> p.linkDetail().contains("per superchip")).toList();
        assertThat(superchips).extracting(Platforms.Platform::id).containsExactlyInAnyOrder("gb200-nvl72", "gb300-nvl72", "vr-nvl72");
        for (Platforms.Platform p : superchips) {
            assertThat(p.hostLinkPerGpu().tag()).as(p.id() + ": one GPU's share of a superchip's link").isNotEqualTo("S");
            assertThat(p.hostLinkPerGpu().known()).as(p.id()).isFalse();
            assertThat(p.hostToDevice().tag()).as(p.id() + ": a per-GPU copy").isNotEqualTo("S");
        }
        // a copy is measured or not known, never a spec: a link's rate is no copy's speed
        for (Platforms.Platform p : Platforms.get().platforms()) assertThat(p.hostToDevice().tag()).as(p.id()).isNotEqualTo("S");
        Platforms.Platform gh = platform("gh200");
        assertThat(gh.linkDetail()).contains("one GPU per Grace");
        assertThat(gh.hostLinkPerGpu().value()).isEqualTo(450);
        assertThat(gh.hostLinkPerGpu().tag()).isEqualTo("S");
        // GH200's copy is one user's report: a third-party figure, not a measurement to build on
        assertThat(gh.hostToDevice().tag()).isEqualTo("T");
        assertThat(gh.hostToDevice().source()).contains("nvbandwidth#23");
    }

    @Test
    void b200AndB300MatchByIdAndNameAndNotTheirNeighbours() {
        Platforms.Platform b200 = platform("hgx-b200"), b300 = platform("hgx-b300");
        // pci.ids: 2901 GB100 [B200], 3182 GB110 [B300 SXM6 AC]
        assertThat(Placement.matches(b200, "0x2901")).isTrue();
        assertThat(Placement.matches(b200, "NVIDIA B200")).isTrue();
        assertThat(Placement.matches(b300, "0x3182")).isTrue();
        assertThat(Placement.matches(b300, "NVIDIA B300 SXM6 AC")).isTrue();
        for (String other : List.of("NVIDIA GB200", "NVIDIA GB300", "NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA GH200 480GB", "0x2941", "0x31c2")) {
            assertThat(Placement.matches(b200, other)).as("B200 against " + other).isFalse();
            assertThat(Placement.matches(b300, other)).as("B300 against " + other).isFalse();
        }
        for (String id : List.of("hgx-h100", "hgx-h200", "gh200", "gb200-nvl72", "gb300-nvl72")) {
            assertThat(Placement.matches(platform(id), "NVIDIA B200")).as(id).isFalse();
            assertThat(Placement.matches(platform(id), "NVIDIA B300 SXM6 AC")).as(id).isFalse();
        }
        // an 8-GPU box of each lands in its class by the GPU, not by the nearest figures
        Placement p200 = Placement.of(new Placement.Axes("pcie", "NVIDIA B200", 8, 8, 14.0, 55.0, 700.0, 400.0));
        assertThat(p200.closest().id()).isEqualTo("hgx-b200");
        assertThat(p200.because()).isEqualTo("a PCIe host link, the same GPU, the same NVLink domain (8 GPUs)");
        Placement p300 = Placement.of(new Placement.Axes("pcie", "NVIDIA B300 SXM6 AC", 8, 8, 24.0, 55.0, 700.0, 800.0));
        assertThat(p300.closest().id()).isEqualTo("hgx-b300");
    }

    @Test
    void aClassWhoseCopyIsNotKnownSaysSoAndSetsNoFloor() {
        Placement p = Placement.of(new Placement.Axes("pcie", "NVIDIA B200", 8, 8, 14.0, 55.0, 700.0, 400.0));
        assertThat(p.differs()).anySatisfy(d -> assertThat(d).startsWith("host to device 55 GB/s here; the class's is not known (?: no copy measured on a B200"));
        assertThat(p.hostToDeviceFloor()).as("no measured copy, no floor").isNull();
        // the H200 class's copy was measured (M): 0.75 of it
        assertThat(Placement.floor(platform("hgx-h200"))).isCloseTo(41.4, org.assertj.core.data.Offset.offset(1e-9));
        // a spec or one third-party report is never a floor
        assertThat(Placement.floor(platform("gh200"))).isNull();
        assertThat(Placement.floor(platform("vr-nvl72"))).isNull();
        // an unknown figure is left out of the distance: a copy of 55 or of 5 GB/s is as near to a class that knows none
        assertThat(Placement.distance(new Placement.Axes("pcie", "NVIDIA B200", 8, 8, 14.0, 5.0, 700.0, 400.0), platform("hgx-b200")))
                .isEqualTo(Placement.distance(new Placement.Axes("pcie", "NVIDIA B200", 8, 8, 14.0, 55.0, 700.0, 400.0), platform("hgx-b200")))
                .isGreaterThan(0);
    }

    @Test
    void theFiguresThisIssueCorrected() {
        // RTX 4090: nvbandwidth on Linux (nvbandwidth#15), not clpeak's OpenCL on Windows
        assertThat(platform("rtx4090").hostToDevice().value()).isEqualTo(26.2);
        assertThat(platform("rtx4090").hostToDevice().source()).contains("nvbandwidth#15");
        // DGX Spark: two PCIe Gen5 x4 links behind the 2x200GbE ports, 200 Gb/s class in all
        assertThat(platform("dgx-spark").nicGbpsPerGpu().value()).isEqualTo(200);
        // Vera Rubin: C2C quoted per superchip, no per-GPU 900
        assertThat(platform("vr-nvl72").hostToDevice().known()).isFalse();
        // the new platforms' sourced figures
        assertThat(platform("hgx-b200").gpuToGpu().value()).isEqualTo(900);
        assertThat(platform("hgx-b200").gpuMemoryGb().value()).isEqualTo(180);
        assertThat(platform("hgx-b300").nicGbpsPerGpu().value()).isEqualTo(800);
        assertThat(platform("hgx-b300").gpuMemoryGb().value()).isEqualTo(288);
    }
}
