package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** The host's facts from the NVIDIA driver's version line and the kernel's release, each read once. */
class HostTest {
    @TempDir
    Path root;

    static final String OPEN = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U22-I3-AF03-09-1)\n";
    static final String PROPRIETARY = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue Sep 23 09:51:35 UTC 2025\n";

    Host read(String version) throws IOException {
        Files.createDirectories(root.resolve("proc/sys/kernel"));
        Files.writeString(root.resolve("proc/sys/kernel/osrelease"), "6.8.0-49-generic\n");
        if (version != null) {
            Files.createDirectories(root.resolve("proc/driver/nvidia"));
            Files.writeString(root.resolve("proc/driver/nvidia/version"), version);
        }
        return Host.read(FsRoot.open(root.toString()));
    }

    @Test
    void theDriversVersionLineSaysWhichKernelModulesAreLoaded() throws IOException {
        Host open = read(OPEN);
        assertThat(open.nvidiaDriver()).isEqualTo("580.95.05");
        assertThat(open.openKernelModules()).isTrue();
        assertThat(open.kernel()).isEqualTo("6.8.0-49-generic");
        Host proprietary = read(PROPRIETARY);
        assertThat(proprietary.nvidiaDriver()).isEqualTo("580.95.05");
        assertThat(proprietary.openKernelModules()).isFalse();
    }

    @Test
    void withoutTheDriverNeitherIsKnown() throws IOException {
        Host none = read(null);
        assertThat(none.nvidiaDriver()).isEmpty();
        assertThat(none.openKernelModules()).isNull();
    }
}
