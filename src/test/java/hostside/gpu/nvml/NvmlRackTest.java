package hostside.gpu.nvml;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static hostside.gpu.nvml.FakeNvml.Variant.FABRIC_V2;
import static hostside.gpu.nvml.NvmlTypes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.gpu.nvml.FabricHealth.Flag;
import hostside.gpu.nvml.FabricHealth.IncorrectConfiguration;
import hostside.gpu.nvml.NvmlGpu.C2c;
import hostside.gpu.nvml.NvmlGpu.C2cLink;
import hostside.gpu.nvml.NvmlGpu.Fabric;

/** The facts `hostside rack` reads from NVML: fabric health, rack position, C2C link, persistence. */
class NvmlRackTest {
    private static final String SERIAL = "1821324000123";

    @AfterEach
    void restoreTheFake() {
        FakeNvml.resetRack(CURRENT);
        FakeNvml.resetRack(FABRIC_V2);
    }

    private static NvmlGpu gpu0() {
        return NvmlReader.read(FakeNvml.library()).gpus().get(0);
    }

    // ---- the health mask, from raw ints ----

    @Test
    void eachTwoBitFieldDecodesAtItsOwnShift() {
        int[] shifts = {NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_DEGRADED_BW, NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_RECOVERY,
                NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ROUTE_UNHEALTHY, NVML_GPU_FABRIC_HEALTH_MASK_SHIFT_ACCESS_TIMEOUT_RECOVERY};
        assertThat(shifts).containsExactly(0, 2, 4, 6);
        for (int field = 0; field < shifts.length; field++) {
            for (int value = 0; value < 4; value++) {
                FabricHealth h = FabricHealth.decode(value << shifts[field]);
                List<Flag> flags = List.of(h.degradedBandwidth(), h.routeRecovery(), h.routeUnhealthy(), h.accessTimeoutRecovery());
                Flag expected = switch (value) {
                    case 0 -> Flag.NOT_SUPPORTED;
                    case 1 -> Flag.YES;
                    case 2 -> Flag.NO;
                    default -> Flag.UNDEFINED;
                };
                for (int other = 0; other < flags.size(); other++) {
                    assertThat(flags.get(other)).as("field %d set to %d, field %d read", field, value, other)
                            .isEqualTo(other == field ? expected : Flag.NOT_SUPPORTED);
                }
                assertThat(h.incorrectConfiguration()).isEqualTo(IncorrectConfiguration.NOT_SUPPORTED);
                assertThat(h.anyProblem()).isEqualTo(value == 1);
            }
        }
    }

    @Test
    void theConfigurationFieldIsFourBitsAtShiftEight() {
        List<IncorrectConfiguration> named = List.of(IncorrectConfiguration.NOT_SUPPORTED, IncorrectConfiguration.NONE,
                IncorrectConfiguration.INCORRECT_SYSGUID, IncorrectConfiguration.INCORRECT_CHASSIS_SN, IncorrectConfiguration.NO_PARTITION,
                IncorrectConfiguration.INSUFFICIENT_NVLINKS, IncorrectConfiguration.INCOMPATIBLE_GPU_FW,
                IncorrectConfiguration.INVALID_LOCATION);
        for (int value = 0; value < 16; value++) {
            // the two-bit fields below all read FALSE, so only the configuration can make a problem
            FabricHealth h = FabricHealth.decode(value << 8 | 0b10101010);
            IncorrectConfiguration expected = value < named.size() ? named.get(value) : IncorrectConfiguration.UNDEFINED;
            assertThat(h.incorrectConfiguration()).as("value %d", value).isEqualTo(expected);
            assertThat(h.degradedBandwidth()).isEqualTo(Flag.NO);
            assertThat(h.accessTimeoutRecovery()).isEqualTo(Flag.NO);
            assertThat(h.anyProblem()).as("value %d", value).isEqualTo(value >= 2 && value <= 7);
        }
        // bit 12 and up belong to no field
        assertThat(FabricHealth.decode(0xfffff000)).isEqualTo(FabricHealth.decode(0));
        assertThat(FabricHealth.decode(0x80000000 | 1 << 8).incorrectConfiguration()).isEqualTo(IncorrectConfiguration.NONE);
    }

    // ---- the fabric through the fake ----

    @Test
    void aDegradedFabricIsReadWithEveryHealthField() {
        // bandwidth degraded, route recovery in progress, route healthy, access timeout recovery in progress, insufficient NVLinks
        int mask = 1 | 1 << 2 | 2 << 4 | 1 << 6 | NVML_GPU_FABRIC_HEALTH_MASK_INCORRECT_CONFIGURATION_INSUFFICIENT_NVLINKS << 8;
        FakeNvml.setFabric(CURRENT, 0, NVML_GPU_FABRIC_STATE_COMPLETED, NVML_SUCCESS, mask, NVML_GPU_FABRIC_HEALTH_SUMMARY_LIMITED_CAPACITY);
        Fabric f = gpu0().fabric();
        assertThat(f.state()).isEqualTo(Fabric.State.COMPLETED);
        assertThat(f.health()).isEqualTo(Fabric.HealthSummary.LIMITED_CAPACITY);
        assertThat(f.healthMask()).isEqualTo(mask);
        assertThat(f.healthDetail()).isEqualTo(new FabricHealth(Flag.YES, Flag.YES, Flag.NO, Flag.YES,
                IncorrectConfiguration.INSUFFICIENT_NVLINKS));
        assertThat(f.healthDetail().anyProblem()).isTrue();
    }

    @Test
    void aRegistrationStillInProgressHasNoStatusNorCluster() {
        FakeNvml.setFabric(CURRENT, 0, NVML_GPU_FABRIC_STATE_IN_PROGRESS, NVML_SUCCESS, 0, NVML_GPU_FABRIC_HEALTH_SUMMARY_UNHEALTHY);
        Fabric f = gpu0().fabric();
        assertThat(f.state()).isEqualTo(Fabric.State.IN_PROGRESS);
        assertThat(List.of(f.state().word(), f.health().word())).containsExactly("in progress", "unhealthy");
        assertThat(f.status()).isNull();
        assertThat(f.clusterUuid()).isNull();
        assertThat(f.cliqueId()).isNull();
    }

    @Test
    void aCompletedRegistrationThatFailedKeepsItsStatusAndWords() {
        FakeNvml.setFabric(CURRENT, 0, NVML_GPU_FABRIC_STATE_COMPLETED, NVML_ERROR_NOT_READY, 0, NVML_GPU_FABRIC_HEALTH_SUMMARY_UNHEALTHY);
        Fabric f = gpu0().fabric();
        assertThat(f.status()).isEqualTo(NVML_ERROR_NOT_READY);
        assertThat(f.error()).endsWith("(" + NVML_ERROR_NOT_READY + ")");
    }

    @Test
    void aStateNewerThanTheHeaderIsUndefinedAndSaidSo() {
        FakeNvml.setFabric(CURRENT, 0, 9, NVML_SUCCESS, 0, 7);
        NvmlGpu g = gpu0();
        assertThat(g.fabric().state()).isEqualTo(Fabric.State.UNDEFINED);
        assertThat(g.fabric().health()).isEqualTo(Fabric.HealthSummary.UNDEFINED);
        assertThat(g.unknowns()).contains("fabric.state: 9 is newer than this nvml.h's NVML_GPU_FABRIC_STATE_*",
                "fabric.health: 7 is newer than this nvml.h's NVML_GPU_FABRIC_HEALTH_SUMMARY_*");
    }

    // ---- platform ----

    @Test
    void aBlackwellTrayGivesItsPositionAndOnlyAHashOfTheChassis() throws Exception {
        FakeNvml.setPlatform(CURRENT, 0, NVML_SUCCESS, SERIAL, 12, 5, 1, 2, 3);
        FakeNvml.setPlatform(CURRENT, 1, NVML_SUCCESS, SERIAL, 13, 6, 0, 2, 0);
        NvmlFacts facts = NvmlReader.read(FakeNvml.library());
        NvmlGpu.Platform p = facts.gpus().get(0).platform();
        String hash = NvmlRackReader.chassisSerialHash(SERIAL.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(p).isEqualTo(new NvmlGpu.Platform(true, 2, hash, 12, 5, 1, 2, 3));
        assertThat(hash).hasSize(16).matches("[0-9a-f]+").doesNotContain(SERIAL);
        // same chassis, same hash: that is what groups GPUs into a failure domain
        assertThat(facts.gpus().get(1).platform().chassisSerialHash()).isEqualTo(hash);
        assertThat(facts.gpus().get(0).line()).contains("chassis " + hash + " slot 12 tray 5");

        String json = Json.MAPPER.writeValueAsString(facts);
        assertThat(json).contains(hash).doesNotContain(SERIAL).doesNotContain(SERIAL.substring(0, 8));
        assertThat(facts.toString()).doesNotContain(SERIAL);
    }

    @Test
    void anotherChassisHashesDifferentlyAndAnEmptySerialNamesNone() {
        byte[] a = new byte[16], b = new byte[16];
        System.arraycopy(SERIAL.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, a, 0, SERIAL.length());
        System.arraycopy("1821324000124".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, b, 0, 13);
        assertThat(NvmlRackReader.chassisSerialHash(a)).isNotEqualTo(NvmlRackReader.chassisSerialHash(b));
        // the zero padding after the serial is not part of it
        assertThat(NvmlRackReader.chassisSerialHash(a)).isEqualTo(NvmlRackReader.chassisSerialHash(SERIAL.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertThat(NvmlRackReader.chassisSerialHash(new byte[16])).isNull();
    }

    @Test
    void notSupportedBeforeBlackwellIsAnAnswerNotAnError() {
        NvmlGpu g = gpu0();
        assertThat(g.platform().supported()).isFalse();
        assertThat(g.platform()).isEqualTo(NvmlGpu.Platform.NOT_SUPPORTED);
        assertThat(g.unknowns()).noneMatch(u -> u.startsWith("platform"));
        assertThat(g.line()).doesNotContain("chassis");
    }

    @Test
    void aDriverThatRefusesV2IsAskedWithV1() {
        FakeNvml.setPlatform(FABRIC_V2, 0, NVML_SUCCESS, SERIAL, 4, 2, 0, 1, 7);
        NvmlGpu g = NvmlReader.read(FakeNvml.library(FABRIC_V2)).gpus().get(0);
        assertThat(g.platform()).isEqualTo(new NvmlGpu.Platform(true, 1,
                NvmlRackReader.chassisSerialHash(SERIAL.getBytes(java.nio.charset.StandardCharsets.US_ASCII)), 4, 2, 0, 1, 7));
    }

    // ---- C2C ----

    @Test
    void anEnabledC2cLinkIsCountedAndEachLinkRead() {
        // a Grace Hopper-like answer: two links, link 1 down
        FakeNvml.setC2c(CURRENT, 0, NVML_SUCCESS, true, 2, 0b01, 450000, NVML_SUCCESS);
        NvmlGpu g = gpu0();
        assertThat(g.c2c()).isEqualTo(new C2c(C2c.Mode.ENABLED, 2, List.of(new C2cLink(0, true, 450000L), new C2cLink(1, false, null))));
        assertThat(g.c2c().activeLinks()).isEqualTo(1);
        assertThat(g.unknowns()).noneMatch(u -> u.startsWith("c2c"));
        assertThat(g.line()).contains("C2C 1/2 active");
    }

    @Test
    void aDisabledC2cLinkIsNotCounted() {
        FakeNvml.setC2c(CURRENT, 0, NVML_SUCCESS, false, 2, 0b11, 450000, NVML_SUCCESS);
        assertThat(gpu0().c2c()).isEqualTo(new C2c(C2c.Mode.DISABLED, null, null));
    }

    @Test
    void c2cNotSupportedIsAnAnswer() {
        FakeNvml.setC2c(CURRENT, 0, NVML_ERROR_NOT_SUPPORTED, false, 0, 0, 0, NVML_SUCCESS);
        NvmlGpu g = gpu0();
        assertThat(g.c2c().mode()).isEqualTo(C2c.Mode.NOT_SUPPORTED);
        assertThat(g.unknowns()).noneMatch(u -> u.startsWith("c2c"));
    }

    @Test
    void aFieldNvmlWillNotGiveIsUnknownWithItsName() {
        FakeNvml.setC2c(CURRENT, 0, NVML_SUCCESS, true, 1, 1, 450000, NVML_ERROR_NOT_SUPPORTED);
        NvmlGpu g = gpu0();
        assertThat(g.c2c()).isEqualTo(new C2c(C2c.Mode.ENABLED, null, null));
        assertThat(g.unknowns()).contains(
                "c2c.linkCount: NVML_FI_DEV_C2C_LINK_COUNT: nvmlDeviceGetFieldValues: Not Supported (3)");
    }

    @Test
    void fieldValuesAreReadByTheirType() {
        FakeNvml.setC2c(CURRENT, 0, NVML_SUCCESS, true, 3, 0b111, 40000, NVML_SUCCESS);
        try (Nvml nvml = ((NvmlResult.Known<Nvml>) Nvml.open(FakeNvml.library())).value()) {
            var dev = nvml.device(0).orNull();
            var r = NvmlRackReader.fieldValues(nvml, dev, new int[][] {{NVML_FI_DEV_C2C_LINK_COUNT, 0},
                    {NVML_FI_DEV_C2C_LINK_GET_MAX_BW, 2}, {NVML_FI_DEV_C2C_LINK_GET_STATUS, 3}, {1, 0}});
            assertThat(r.get(0)).isEqualTo(NvmlResult.of(3L));
            assertThat(r.get(1)).isEqualTo(NvmlResult.of(40000L));
            assertThat(r.get(2).isKnown()).as("link 3 of 3").isFalse();
            assertThat(r.get(3).why()).startsWith("field 1: nvmlDeviceGetFieldValues: Not Supported");
        }
    }

    // ---- persistence ----

    @Test
    void persistenceOnOffAndRefused() {
        FakeNvml.setPersistence(CURRENT, 0, NVML_SUCCESS, false);
        assertThat(gpu0().persistenceMode()).isFalse();
        FakeNvml.setPersistence(CURRENT, 0, NVML_SUCCESS, true);
        assertThat(gpu0().persistenceMode()).isTrue();
        FakeNvml.setPersistence(CURRENT, 0, NVML_ERROR_NOT_SUPPORTED, true);
        NvmlGpu g = gpu0();
        assertThat(g.persistenceMode()).isNull();
        assertThat(g.unknowns()).contains("persistenceMode: nvmlDeviceGetPersistenceMode: Not Supported (3)");
    }

    // ---- reports ----

    @Test
    void theRackFactsSurviveAReportsRoundTrip() throws Exception {
        FakeNvml.setPlatform(CURRENT, 0, NVML_SUCCESS, SERIAL, 12, 5, 1, 2, 3);
        FakeNvml.setC2c(CURRENT, 0, NVML_SUCCESS, true, 1, 1, 450000, NVML_SUCCESS);
        NvmlFacts facts = NvmlReader.read(FakeNvml.library());
        NvmlFacts back = Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(facts), NvmlFacts.class);
        assertThat(back).isEqualTo(facts);
        // a report from before these fields still reads, the new ones null
        String old = "{\"index\":0,\"fabric\":{\"state\":\"completed\",\"error\":null,\"clusterUuid\":null,\"cliqueId\":7,"
                + "\"health\":\"healthy\"},\"unknowns\":[]}";
        NvmlGpu g = Json.MAPPER.readValue(old, NvmlGpu.class);
        assertThat(g.fabric()).isEqualTo(new Fabric(Fabric.State.COMPLETED, null, null, 7L, Fabric.HealthSummary.HEALTHY));
        assertThat(g.platform()).isNull();
        assertThat(g.c2c()).isNull();
    }
}
