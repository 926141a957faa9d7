package hostside.gpu.nvml;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static hostside.gpu.nvml.FakeNvml.Variant.OLD;
import static org.assertj.core.api.Assertions.assertThat;
import static hostside.gpu.nvml.NvmlGpu.Fabric.State.COMPLETED;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.gpu.nvml.NvmlGpu.Fabric.HealthSummary;

/** Every fact of the fake's two GPUs, through the reader, as the rest of hostside sees them. */
class NvmlReaderTest {
    /** fake_nvml.c's FAKE_HEALTHY_MASK: the four two-bit fields FALSE (2), the configuration NONE (1) at bit 8. */
    static final long HEALTHY_MASK = 2 | 2 << 2 | 2 << 4 | 2 << 6 | 1 << 8;
    private static final String MISSING_MAX_GEN =
            "pcieGpuMaxGen: not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetGpuMaxPcieLinkGeneration)";

    @Test
    void readsTheSystemVersions() {
        NvmlFacts f = NvmlReader.read(FakeNvml.library());
        assertThat(f.ran()).isTrue();
        assertThat(f.notRun()).isNull();
        assertThat(f.library()).isEqualTo(FakeNvml.library());
        assertThat(f.driverVersion()).isEqualTo("580.95.05");
        assertThat(f.nvmlVersion()).isEqualTo("13.580.95.05");
        assertThat(f.cudaDriverVersion()).isEqualTo("13.0");
        assertThat(f.unknowns()).isEmpty();
        assertThat(f.gpus()).hasSize(2);
        assertThat(f.headline()).isEqualTo("NVML 13.580.95.05, driver 580.95.05, CUDA 13.0: 2 GPUs");
    }

    @Test
    void readsEveryFieldOfGpu0() {
        NvmlGpu g = NvmlReader.read(FakeNvml.library()).gpus().get(0);
        assertThat(g.index()).isEqualTo(0);
        assertThat(g.name()).isEqualTo("NVIDIA H200");
        assertThat(g.uuid()).isEqualTo("GPU-4a1bd2f4-9e3c-5a17-8f0e-2b6c7d8e9f01");
        assertThat(g.pciBusId()).isEqualTo("0000:00:06.0");
        assertThat(List.of(g.pcieGen(), g.pcieWidth(), g.pcieMaxGen(), g.pcieMaxWidth())).containsExactly(5, 16, 5, 16);
        assertThat(g.pcieGpuMaxGen()).isNull();
        assertThat(g.numaNode()).isEqualTo(1);
        assertThat(g.cpuAffinity()).isEqualTo(CpuSet.range(0, 15));
        assertThat(g.persistenceMode()).isTrue();
        assertThat(List.of(g.smClockMhz(), g.smClockMaxMhz(), g.memClockMhz(), g.memClockMaxMhz()))
                .containsExactly(1980, 1980, 3201, 3201);
        assertThat(g.eccEnabled()).isTrue();
        assertThat(g.eccPendingEnabled()).isTrue();
        assertThat(g.memoryTotalBytes()).isEqualTo(150754820096L);
        // version 6 is nvml.h's NVML_NVLINK_VERSION_4_0; an inactive link is not asked for either
        assertThat(g.nvLinks()).containsExactly(
                new NvmlGpu.NvLink(0, true, "0001:0a:00.0", "GPU", 6, "4.0"),
                new NvmlGpu.NvLink(1, false, null, null, null, null));
        assertThat(g.fabric()).isEqualTo(new NvmlGpu.Fabric(COMPLETED, null, "10111213-1415-1617-1819-1a1b1c1d1e1f", 7L, HealthSummary.HEALTHY,
                0, HEALTHY_MASK, FabricHealth.decode((int) HEALTHY_MASK)));
        assertThat(g.fabric().healthDetail().anyProblem()).isFalse();
        assertThat(g.persistenceMode()).isTrue();
        assertThat(g.platform()).isEqualTo(NvmlGpu.Platform.NOT_SUPPORTED);
        assertThat(g.c2c()).isEqualTo(new NvmlGpu.C2c(NvmlGpu.C2c.Mode.DISABLED, null, null));
        assertThat(g.addressingMode()).isEqualTo("none");
        assertThat(g.migEnabled()).isFalse();
        assertThat(g.migPendingEnabled()).isFalse();
        assertThat(g.clocks()).isEqualTo(new NvmlGpu.ClockPolicy(1980, 1980, 3201, 3201, 700000, 700000, 0L));
        // the one symbol the fake lacks, and nothing else
        assertThat(g.unknowns()).containsExactly(MISSING_MAX_GEN);
        assertThat(g.line()).isEqualTo("GPU0 NVIDIA H200 0000:00:06.0: PCIe Gen5 x16 (max Gen5 x16), 140.4 GiB, "
                + "SM 1980/1980 MHz, memory 3201/3201 MHz, ECC on, persistence on, MIG off, NVLink 1/2 active, "
                + "fabric completed, addressing none, NUMA 1, CPUs 0-15 [1 unknown]");
    }

    @Test
    void readsEveryFieldOfGpu1WhereSeveralCallsSayNo() {
        NvmlGpu g = NvmlReader.read(FakeNvml.library()).gpus().get(1);
        assertThat(g.index()).isEqualTo(1);
        assertThat(g.name()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(g.uuid()).isEqualTo("GPU-00000000-1111-2222-3333-444444444444");
        assertThat(g.pciBusId()).isEqualTo("0001:0a:00.0"); // NVML: "00000001:0A:00.0"
        assertThat(List.of(g.pcieGen(), g.pcieWidth(), g.pcieMaxGen(), g.pcieMaxWidth())).containsExactly(1, 16, 5, 16);
        assertThat(g.numaNode()).isNull();
        assertThat(g.cpuAffinity().toList()).isEqualTo("0,64-79"); // across two unsigned longs
        assertThat(g.persistenceMode()).isNull();
        assertThat(List.of(g.smClockMhz(), g.smClockMaxMhz(), g.memClockMhz(), g.memClockMaxMhz()))
                .containsExactly(345, 1980, 2619, 2619);
        assertThat(g.eccEnabled()).isFalse();
        assertThat(g.eccPendingEnabled()).isTrue();
        assertThat(g.memoryTotalBytes()).isEqualTo(85520809984L);
        assertThat(g.nvLinks()).isEmpty(); // NvLinkState: not supported for link 0, so no NVLink
        // the v3 struct's state and summary both say no fabric; the mask is all NOT_SUPPORTED
        assertThat(g.fabric()).isEqualTo(new NvmlGpu.Fabric(NvmlGpu.Fabric.State.NOT_SUPPORTED, null, null, null,
                HealthSummary.NOT_SUPPORTED, null, 0L, FabricHealth.decode(0)));
        // pre-Blackwell and no C2C: answers, not unknowns
        assertThat(g.platform()).isEqualTo(NvmlGpu.Platform.NOT_SUPPORTED);
        assertThat(g.c2c()).isEqualTo(new NvmlGpu.C2c(NvmlGpu.C2c.Mode.NOT_SUPPORTED, null, null));
        assertThat(g.addressingMode()).isEqualTo("HMM");
        assertThat(g.migEnabled()).isTrue();
        assertThat(g.migPendingEnabled()).isTrue();
        // no applications clocks (as GeForce): one line, and the other settings are still read
        assertThat(g.clocks()).isEqualTo(new NvmlGpu.ClockPolicy(null, null, null, null, 700000, 700000, 0x4L));
        assertThat(g.unknowns()).containsExactly(
                MISSING_MAX_GEN,
                "numaNode: nvmlDeviceGetNumaNodeId: Not Supported (3)",
                "persistenceMode: nvmlDeviceGetPersistenceMode: Insufficient Permissions (4)",
                "applicationsClocks: nvmlDeviceGetApplicationsClock: Not Supported (3)");
        assertThat(g.line()).contains("ECC off (pending on)", "persistence ?", "MIG on", "no NVLink", "NUMA -",
                "CPUs 0,64-79", "[4 unknown]");
    }

    @Test
    void anOlderDriverFallsBackOrSaysUnknownPerField() {
        NvmlFacts f = NvmlReader.read(FakeNvml.library(OLD));
        assertThat(f.ran()).isTrue();
        assertThat(f.cudaDriverVersion()).isNull();
        assertThat(f.unknowns()).containsExactly(
                "cudaDriverVersion: not supported by this driver (libnvidia-ml.so.1 has no nvmlSystemGetCudaDriverVersion_v2)");
        NvmlGpu g = f.gpus().get(0);
        assertThat(g.name()).isEqualTo("NVIDIA H200");
        assertThat(g.numaNode()).isNull();
        assertThat(g.addressingMode()).isNull();
        // the unversioned fabric call: same state, no health summary
        assertThat(g.fabric()).isEqualTo(new NvmlGpu.Fabric(COMPLETED, null, "10111213-1415-1617-1819-1a1b1c1d1e1f", 7L, null, 0, null, null));
        assertThat(g.platform()).isNull();
        assertThat(g.c2c()).isNull();
        // the remote type is missing once for the GPU, not once per link; the version is still read
        assertThat(g.nvLinks().getFirst()).isEqualTo(new NvmlGpu.NvLink(0, true, "0001:0a:00.0", null, 6, "4.0"));
        assertThat(g.unknowns()).containsExactly(
                MISSING_MAX_GEN,
                "numaNode: not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetNumaNodeId)",
                "nvLinks[].remoteType: not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetNvLinkRemoteDeviceType)",
                "addressingMode: not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetAddressingMode)",
                "platform: not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetPlatformInfo)",
                "c2c: not supported by this driver (libnvidia-ml.so.1 has no nvmlDeviceGetC2cModeInfoV)");
        // there NOT_SUPPORTED comes as the call's code, not as a state: the same answer
        NvmlGpu g1 = f.gpus().get(1);
        assertThat(g1.fabric()).isEqualTo(NvmlGpu.Fabric.NOT_SUPPORTED);
        assertThat(g1.unknowns()).noneMatch(u -> u.startsWith("fabric"));
        assertThat(FakeNvml.initCount(OLD)).isZero();
    }

    @Test
    void aFabricCallThatRefusesV3IsAskedWithV2() {
        NvmlGpu g = NvmlReader.read(FakeNvml.library(FakeNvml.Variant.FABRIC_V2)).gpus().get(0);
        // v2 has the mask but no summary
        assertThat(g.fabric()).isEqualTo(new NvmlGpu.Fabric(COMPLETED, null, "10111213-1415-1617-1819-1a1b1c1d1e1f", 7L, null, 0, HEALTHY_MASK,
                FabricHealth.decode((int) HEALTHY_MASK)));
        assertThat(g.unknowns()).containsExactly(MISSING_MAX_GEN);
    }

    @Test
    void noLibraryMeansNotRunWithTheReason() {
        NvmlFacts f = NvmlReader.read("/nonexistent/libnvidia-ml.so.1");
        assertThat(f.ran()).isFalse();
        assertThat(f.notRun()).isEqualTo("no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
        assertThat(f.gpus()).isEmpty();
        assertThat(f.headline()).isEqualTo("NVML not run: no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
        assertThat(f.gpuLines()).isEmpty();
    }

    @Test
    void aDriverThatWillNotInitialiseMeansNotRunWithTheReason() {
        try {
            FakeNvml.setInitResult(CURRENT, NvmlTypes.NVML_ERROR_DRIVER_NOT_LOADED);
            NvmlFacts f = NvmlReader.read(FakeNvml.library());
            assertThat(f.notRun()).isEqualTo("NVIDIA driver not loaded (nvmlInit_v2: Driver Not Loaded (9))");
            assertThat(f.gpus()).isEmpty();
        } finally {
            FakeNvml.setInitResult(CURRENT, NvmlTypes.NVML_SUCCESS);
        }
    }

    @Test
    void noGpuMeansNotRunButTheVersionsStay() {
        try {
            FakeNvml.setDeviceCount(CURRENT, 0);
            NvmlFacts f = NvmlReader.read(FakeNvml.library());
            assertThat(f.notRun()).isEqualTo("no NVIDIA GPU (NVML counts 0)");
            assertThat(f.driverVersion()).isEqualTo("580.95.05");
            assertThat(f.gpus()).isEmpty();
            assertThat(f.headline()).isEqualTo("NVML 13.580.95.05, driver 580.95.05, CUDA 13.0: no NVIDIA GPU (NVML counts 0)");
        } finally {
            FakeNvml.setDeviceCount(CURRENT, 2);
        }
    }

    @Test
    void linksToNvSwitchesAreReadToTheEndNvmlSays() {
        try {
            FakeNvml.setSwitchLinks(CURRENT, 0, 18);
            FakeNvml.setSwitchLinks(CURRENT, 1, 20); // more than this header's NVML_NVLINK_MAX_LINKS
            NvmlFacts f = NvmlReader.read(FakeNvml.library());
            List<NvmlGpu.NvLink> l0 = f.gpus().get(0).nvLinks();
            assertThat(l0).hasSize(18).allMatch(l -> l.active() && "NVSwitch".equals(l.remoteType()) && "4.0".equals(l.version()));
            // the four switches in turn, in sysfs spelling
            assertThat(l0.stream().map(NvmlGpu.NvLink::remotePciBusId).distinct())
                    .containsExactly("0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0");
            assertThat(f.gpus().get(1).nvLinks()).hasSize(20);
            assertThat(f.gpus().get(0).unknowns()).containsExactly(MISSING_MAX_GEN);
        } finally {
            FakeNvml.resetLinks(CURRENT);
        }
        assertThat(NvmlReader.read(FakeNvml.library()).gpus().get(1).nvLinks()).isEmpty();
    }

    @Test
    void aRefusedVersionOrRemoteTypeIsUnknownWithNvmlsReason() {
        try {
            FakeNvml.setLinkDetailResult(CURRENT, NvmlTypes.NVML_ERROR_NO_PERMISSION);
            NvmlGpu g = NvmlReader.read(FakeNvml.library()).gpus().get(0);
            assertThat(g.nvLinks().getFirst()).isEqualTo(new NvmlGpu.NvLink(0, true, "0001:0a:00.0", null, null, null));
            assertThat(g.unknowns()).containsExactly(MISSING_MAX_GEN,
                    "nvLinks[0].remoteType: nvmlDeviceGetNvLinkRemoteDeviceType: Insufficient Permissions (4)",
                    "nvLinks[0].version: nvmlDeviceGetNvLinkVersion: Insufficient Permissions (4)");
            // a code that is not a state of the machine is recorded too, never thrown
            FakeNvml.setLinkDetailResult(CURRENT, NvmlTypes.NVML_ERROR_UNKNOWN);
            g = NvmlReader.read(FakeNvml.library()).gpus().get(0);
            assertThat(g.nvLinks()).hasSize(2);
            assertThat(g.unknowns()).contains("nvLinks[0].version: nvmlDeviceGetNvLinkVersion: Unknown Error (999)");
        } finally {
            FakeNvml.resetLinks(CURRENT);
        }
    }

    @Test
    void versionCodesAreNvmlsEnumNotGenerations() {
        assertThat(NvmlReader.nvlinkVersion(NvmlTypes.NVML_NVLINK_VERSION_4_0)).isEqualTo("4.0"); // Hopper
        assertThat(NvmlReader.nvlinkVersion(4)).isEqualTo("3.0"); // not "4": the enum's fourth value
        assertThat(NvmlReader.nvlinkVersion(5)).isEqualTo("3.1"); // an A100 or RTX 3090 (open-mpi/hwloc#658, Syllo/nvtop#469)
        assertThat(NvmlReader.nvlinkVersion(7)).isEqualTo("5.0");
        assertThat(NvmlReader.nvlinkVersion(0)).isNull();
        assertThat(NvmlReader.nvlinkVersion(8)).isNull();
        assertThat(NvmlReader.remoteType(2)).isEqualTo("NVSwitch");
        assertThat(NvmlReader.remoteType(0xFF)).isEqualTo("unknown");
    }

    @Test
    void theReaderShutsNvmlDown() {
        int before = FakeNvml.initCount(CURRENT);
        NvmlReader.read(FakeNvml.library());
        assertThat(FakeNvml.initCount(CURRENT)).isEqualTo(before);
    }

    @Test
    void readWithoutArgumentsFollowsTheSystemProperty() {
        String old = System.getProperty(Nvml.LIBRARY_PROPERTY);
        try {
            System.setProperty(Nvml.LIBRARY_PROPERTY, FakeNvml.library());
            assertThat(NvmlReader.read().gpus()).hasSize(2);
        } finally {
            if (old == null) System.clearProperty(Nvml.LIBRARY_PROPERTY);
            else System.setProperty(Nvml.LIBRARY_PROPERTY, old);
        }
    }

    @Test
    void p2pStatusForEachOrderedPairInNvidiaSmisWords() {
        NvmlFacts f = NvmlReader.read(FakeNvml.library());
        // the canned answers: everything OK but PCI, which the two PCI domains do not share (TNS)
        assertThat(f.p2p()).extracting(NvmlP2p::from, NvmlP2p::to)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(1, 0));
        NvmlP2p ab = f.p2p().getFirst();
        assertThat(ab.fromBusId()).isEqualTo("0000:00:06.0");
        assertThat(ab.toBusId()).isEqualTo("0001:0a:00.0");
        assertThat(ab.status()).containsExactly(java.util.Map.entry("read", "OK"), java.util.Map.entry("write", "OK"),
                java.util.Map.entry("nvlink", "OK"), java.util.Map.entry("atomics", "OK"), java.util.Map.entry("pci", "TNS"));
        assertThat(ab.unknowns()).isEmpty();
        try {
            FakeNvml.setP2p(CURRENT, 1, 0, NvmlTypes.NVML_P2P_CAPS_INDEX_WRITE, NvmlTypes.NVML_P2P_STATUS_CHIPSET_NOT_SUPPORTED);
            FakeNvml.setP2p(CURRENT, 1, 0, NvmlTypes.NVML_P2P_CAPS_INDEX_READ, NvmlTypes.NVML_P2P_STATUS_DISABLED_BY_REGKEY);
            NvmlP2p ba = NvmlReader.read(FakeNvml.library()).p2p().get(1);
            assertThat(ba.status()).containsEntry("write", "CNS").containsEntry("read", "disabled by regkey");
            FakeNvml.setP2pResult(CURRENT, 3); // NVML_ERROR_NOT_SUPPORTED
            NvmlP2p refused = NvmlReader.read(FakeNvml.library()).p2p().getFirst();
            assertThat(refused.status()).isEmpty();
            assertThat(refused.unknowns()).hasSize(5).first().asString().startsWith("read: ").contains("Not Supported");
        } finally {
            FakeNvml.resetP2p(CURRENT);
        }
        try {
            FakeNvml.setDeviceCount(CURRENT, 1);
            assertThat(NvmlReader.read(FakeNvml.library()).p2p()).as("one GPU: no pair; itself is not asked").isEmpty();
        } finally {
            FakeNvml.setDeviceCount(CURRENT, 2);
        }
    }

    @Test
    void serialisesWithJacksonAsTheRecordComponents() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode json = mapper.readTree(mapper.writeValueAsString(NvmlReader.read(FakeNvml.library())));
        assertThat(names(json)).containsExactly("library", "notRun", "driverVersion", "nvmlVersion",
                "cudaDriverVersion", "gpus", "p2p", "unknowns");
        assertThat(json.get("notRun").isNull()).isTrue();
        JsonNode g0 = json.get("gpus").get(0);
        assertThat(names(g0)).containsExactly("index", "name", "uuid", "pciBusId", "pcieGen", "pcieWidth",
                "pcieMaxGen", "pcieMaxWidth", "pcieGpuMaxGen", "numaNode", "cpuAffinity", "persistenceMode",
                "smClockMhz", "smClockMaxMhz", "memClockMhz", "memClockMaxMhz", "eccEnabled", "eccPendingEnabled",
                "memoryTotalBytes", "nvLinks", "fabric", "addressingMode", "migEnabled", "migPendingEnabled", "clocks",
                "platform", "c2c", "unknowns");
        assertThat(names(g0.get("clocks"))).containsExactly("appSmMhz", "defaultAppSmMhz", "appMemMhz", "defaultAppMemMhz",
                "powerLimitMw", "defaultPowerLimitMw", "eventReasons");
        assertThat(g0.get("pcieGpuMaxGen").isNull()).isTrue();
        assertThat(g0.get("memoryTotalBytes").asLong()).isEqualTo(150754820096L);
        assertThat(g0.get("nvLinks").get(0).get("remotePciBusId").asText()).isEqualTo("0001:0a:00.0");
        // the link keeps its first three keys, as reports written before the version was read have them
        assertThat(names(g0.get("nvLinks").get(0))).containsExactly("link", "active", "remotePciBusId", "remoteType",
                "versionCode", "version");
        assertThat(g0.get("nvLinks").get(0).get("version").asText()).isEqualTo("4.0");
        assertThat(g0.get("fabric").get("state").asText()).isEqualTo("completed");
        assertThat(g0.get("fabric").get("health").asText()).isEqualTo("healthy");
        assertThat(g0.get("fabric").get("healthMask").asLong()).isEqualTo(HEALTHY_MASK);
        assertThat(g0.get("fabric").get("healthDetail").get("incorrectConfiguration").asText()).isEqualTo("none");
        assertThat(g0.get("platform").get("supported").asBoolean()).isFalse();
        assertThat(g0.get("c2c").get("mode").asText()).isEqualTo("disabled");
        assertThat(json.get("gpus").get(1).get("numaNode").isNull()).isTrue();

        JsonNode notRun = mapper.readTree(mapper.writeValueAsString(NvmlReader.read("/nonexistent/libnvidia-ml.so.1")));
        assertThat(notRun.get("notRun").asText()).startsWith("no NVIDIA driver");
        assertThat(notRun.get("gpus")).isEmpty();
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void busIdsTakeTheKernelsSpelling() {
        assertThat(NvmlReader.sysfsBusId("00000000:00:06.0", 0, 0, 6)).isEqualTo("0000:00:06.0");
        assertThat(NvmlReader.sysfsBusId("00000001:0A:00.0", 1, 10, 0)).isEqualTo("0001:0a:00.0");
        assertThat(NvmlReader.sysfsBusId("00010000:C1:00.1", 0x10000, 0xc1, 0)).isEqualTo("10000:c1:00.1");
        assertThat(NvmlReader.sysfsBusId("0000:41:00.0", 0, 0x41, 0)).isEqualTo("0000:41:00.0");
        // not a bus id: built from the numbers
        assertThat(NvmlReader.sysfsBusId("", 0, 0x41, 0x1f)).isEqualTo("0000:41:1f.0");
    }

    @Test
    void cpuMasksOf64BitWordsBecomeCpulists() {
        assertThat(NvmlReader.cpuList(new long[] {0xffffL, 0}).toList()).isEqualTo("0-15");
        assertThat(NvmlReader.cpuList(new long[] {0x1L, 0xffffL}).toList()).isEqualTo("0,64-79");
        assertThat(NvmlReader.cpuList(new long[] {0x8000000000000000L}).toList()).isEqualTo("63");
        assertThat(NvmlReader.cpuList(new long[] {-1L, -1L}).toList()).isEqualTo("0-127");
        assertThat(NvmlReader.cpuList(new long[] {0, 0}).toList()).isEqualTo("");
    }

    @Test
    void fabricUuidsPrintAsUuids() {
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) b[i] = (byte) (0xf0 + i);
        assertThat(NvmlRackReader.uuidText(b)).isEqualTo("f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff");
    }
}
