package hostside.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.gpu.nvml.FakeNvml;
import hostside.gpu.nvml.GpuHealth;
import hostside.gpu.nvml.Nvml;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.nvml.NvmlHealth;

/**
 * Writes testdata/health/h100-nvml-health.json: what a snapshot of the H100 VM keeps of NVML's
 * answers, as the fake gives the H100's ({@link FakeNvml#h100Answers}); testdata/health/make-fixtures.py
 * puts it into h100-node.tar.gz beside the VM's sysfs. Run after the fake's H100 numbers change:
 * ./mvnw -q -o test-compile exec:java -Dexec.mainClass=hostside.health.H100NodeFixture -Dexec.classpathScope=test
 * (H100NodeFixtureTest fails until it is).
 */
public final class H100NodeFixture {
    static final Path JSON = Fixtures.testdata().resolve("health/h100-nvml-health.json");
    static final Path NODE = Fixtures.testdata().resolve("health/h100-node.tar.gz");

    private H100NodeFixture() {}

    /**
     * The JSON as a snapshot writes it. The fake's health numbers are the H100's; its own names are
     * not, so the GPU's name, UUID (kept as its stand-in) and the driver's version are the H100's as
     * nvidia-smi printed them (testdata/h100/nvidia-smi-q.txt), the library the one a node loads, and
     * NVML's own version null: the probe shows it only as nvidia-smi prints it ("580.159"), not as
     * nvmlSystemGetNVMLVersion gives it.
     */
    static String answers() {
        NvmlHealth fake = FakeNvml.h100Answers();
        GpuHealth g = fake.gpus().getFirst();
        // and the H100 VM's GPU has no NVLink (nvmlDeviceGetNvLinkState NOT_SUPPORTED) and no fabric ("Fabric State N/A")
        GpuHealth h100 = new GpuHealth(g.index(), "NVIDIA H100 80GB HBM3", "GPU-b8f3780d-7bfe-3e81-6e69-435f0ecb33b7", g.pciBusId(), g.memory(),
                g.state(), g.pcie(), List.of(), new NvmlGpu.Fabric(NvmlGpu.Fabric.State.NOT_SUPPORTED, null, null, null, null), g.unread());
        return Json.write(HealthReader.forRecording(new NvmlHealth(Nvml.DEFAULT_LIBRARY, null, null, "580.159.04", null, "13.0",
                List.of(h100), fake.unread())));
    }

    public static void main(String[] args) throws IOException {
        Files.writeString(JSON, answers());
        System.out.println("wrote " + JSON);
    }
}
