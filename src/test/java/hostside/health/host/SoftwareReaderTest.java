package hostside.health.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.testing.RecordedMachine;

class SoftwareReaderTest {
    static final String OPEN_LINE = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)";

    @Test
    void theDriverItsLibrariesAndNvidiasPackages() {
        SoftwareStack s = SoftwareReader.read(Machines.ibNode());
        assertThat(s.moduleVersion()).isEqualTo("580.159.04");
        assertThat(s.versionLine()).isEqualTo(OPEN_LINE);
        assertThat(s.lineVersion()).isEqualTo("580.159.04");
        assertThat(s.taint()).isEqualTo("O");
        assertThat(s.flavour()).isEqualTo(ModuleFlavour.OPEN);
        // /lib is a link to /usr/lib here: its x86_64-linux-gnu folder is read once
        assertThat(s.nvml()).containsExactly(new LibraryFile("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.159.04", "580.159.04"));
        assertThat(s.cuda()).containsExactly(new LibraryFile("/usr/lib/x86_64-linux-gnu/libcuda.so.580.126.20", "580.126.20"));
        assertThat(s.packages()).extracting(DpkgPackage::name).containsExactly("nvidia-driver-580-open", "libnvidia-compute-580",
                "cuda-drivers-580", "nvidia-fabricmanager", "nvidia-fabricmanager-570", "datacenter-gpu-manager-4-cuda13", "libnccl2");
        assertThat(s.packages().get(4).state()).isEqualTo(DpkgState.CONFIG_FILES);
        DpkgPackage nccl = s.packages().get(6);
        assertThat(nccl).isEqualTo(new DpkgPackage("libnccl2", "2.28.3-1+cuda13.0", "amd64", DpkgState.INSTALLED));
        assertThat(nccl.upstreamVersion()).isEqualTo("2.28.3");
        assertThat(s.packages().get(5).upstreamVersion()).as("epoch 1: dropped").isEqualTo("4.4.1");
        assertThat(s.nccl()).containsExactly(
                new NcclInstall(NcclSource.LIBRARY, "/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", "2.28.3"),
                new NcclInstall(NcclSource.WHEEL, "/usr/local/lib/python3.12/dist-packages/nvidia_nccl_cu12-2.27.3.dist-info", "2.27.3"));
        assertThat(s.unknowns()).containsExactly("/var/lib/dpkg/status: a stanza without Package:");
    }

    @Test
    void theH100sPackagesAsItsProbeListedThem() {
        // shared/fixtures/h100/nvml-probe.txt: "hi libnccl2 2.28.3-1+cuda13.0", libnccl.so.2.28.3, taint O
        SoftwareStack s = SoftwareReader.read(Machines.h100Vm());
        assertThat(s.packages()).containsExactly(new DpkgPackage("libnccl2", "2.28.3-1+cuda13.0", "amd64", DpkgState.INSTALLED));
        assertThat(s.nccl()).extracting(NcclInstall::version).containsExactly("2.28.3");
        assertThat(s.nvml()).isEmpty();
        assertThat(s.cuda()).isEmpty();
        assertThat(s.flavour()).isEqualTo(ModuleFlavour.OPEN);
        assertThat(s.unknowns()).isEmpty();
    }

    @Test
    void withoutSysModuleTheVersionLineGivesTheDriver() {
        // the H200's recording holds /proc/driver/nvidia/version but no /sys/module, and no /usr or /var
        SoftwareStack s = SoftwareReader.read(Machines.h200());
        assertThat(s.moduleVersion()).isNull();
        assertThat(s.driverVersion()).isEqualTo("580.159.04");
        assertThat(s.packages()).as("no package database: unknown, not none").isNull();
        assertThat(s.nccl()).isEmpty();
        assertThat(s.unknowns()).isEmpty();
    }

    /** A machine written in a temp folder, for files no fixture holds. */
    static final class Box extends RecordedMachine<Box> {
        Box(Path root) {
            super(root);
        }
    }

    @Test
    void controlCharactersOfTheFilesAreShownNotKept(@TempDir Path dir) {
        Box b = new Box(dir).put("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.1\u001b]52;c;x\u0007  Release\n")
                .put("/sys/module/nvidia/taint", "O\u001b[2J\n")
                .put("/var/lib/dpkg/status", "Package: nvidia-imex\nStatus: install ok installed\nVersion: 580\u009b1m\n");
        SoftwareStack s = SoftwareReader.read(FsRoot.open(b.root.toString()));
        assertThat(s.versionLine()).doesNotContain("\u001b").contains("\\x1b");
        assertThat(s.lineVersion()).isEqualTo("580.1");
        assertThat(s.taint()).isEqualTo("O\\x1b[2J");
        assertThat(s.packages().getFirst().version()).doesNotContain("\u009b");
        assertThat(s.moduleVersion()).isNull();
        assertThat(s.unknowns()).isEmpty();
    }

    @Test
    void openOrProprietaryByTheLineThenTheTaint() {
        List<String> unknowns = new ArrayList<>();
        assertThat(SoftwareReader.flavour(OPEN_LINE, "O", unknowns)).isEqualTo(ModuleFlavour.OPEN);
        assertThat(SoftwareReader.flavour(OPEN_LINE, null, unknowns)).isEqualTo(ModuleFlavour.OPEN);
        // the proprietary wording of users' public transcripts (unverified here)
        String closed = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  515.76  Mon Sep 12 19:21:56 UTC 2022";
        assertThat(SoftwareReader.flavour(closed, "POE", unknowns)).isEqualTo(ModuleFlavour.PROPRIETARY);
        assertThat(SoftwareReader.lineVersion(closed)).isEqualTo("515.76");
        assertThat(SoftwareReader.flavour(null, "POE", unknowns)).isEqualTo(ModuleFlavour.PROPRIETARY);
        assertThat(SoftwareReader.flavour(null, "OE", unknowns)).as("out-of-tree says nothing of the flavour").isEqualTo(ModuleFlavour.UNKNOWN);
        assertThat(SoftwareReader.flavour(null, null, unknowns)).isEqualTo(ModuleFlavour.UNKNOWN);
        assertThat(unknowns).isEmpty();
        assertThat(SoftwareReader.flavour(OPEN_LINE, "P", unknowns)).isEqualTo(ModuleFlavour.UNKNOWN);
        assertThat(unknowns).singleElement().asString().contains("taint");
        assertThat(SoftwareReader.lineVersion("NVRM version: something else 1.2")).isNull();
        assertThat(SoftwareReader.lineVersion("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.65.06  Release Build")).isEqualTo("580.65.06");
    }

    @Test
    void dpkgStatusGarbageAndStates() {
        List<String> unknowns = new ArrayList<>();
        List<DpkgPackage> p = SoftwareReader.packages("""
                Package: nvidia-imex
                Status: install ok unpacked
                Version: 580.159.04-1

                Package: nvidia-imex-575
                Status: installed
                Version: 575.57.08-1
                Description: a Status of one word
                garbage without a colon
                 continued

                Package: cuda-drivers
                Version: 580.159.04-1
                """, unknowns);
        assertThat(p).extracting(DpkgPackage::state).containsExactly(DpkgState.UNPACKED, DpkgState.UNKNOWN, DpkgState.UNKNOWN);
        assertThat(p.getFirst().architecture()).isNull();
        assertThat(unknowns).isEmpty();
        assertThat(DpkgState.ofStatus("hold ok installed")).isEqualTo(DpkgState.INSTALLED);
        assertThat(DpkgState.ofStatus("deinstall ok config-files")).isEqualTo(DpkgState.CONFIG_FILES);
        assertThat(DpkgState.ofStatus("install reinstreq half-installed")).isEqualTo(DpkgState.HALF_INSTALLED);
        assertThat(SoftwareReader.wanted("libnccl-dev")).isFalse();
        assertThat(SoftwareReader.wanted("nvidia-fabric-manager")).isTrue();
    }

    @Test
    void upstreamVersionsOfDebianVersions() {
        assertThat(DebVersion.upstream("580.159.04-1")).isEqualTo("580.159.04");
        assertThat(DebVersion.upstream("1:580.95.05-0ubuntu1")).isEqualTo("580.95.05");
        assertThat(DebVersion.upstream("580.126.20-0ubuntu0.24.04.1")).isEqualTo("580.126.20");
        assertThat(DebVersion.upstream("2.28.3-1+cuda13.0")).isEqualTo("2.28.3");
        assertThat(DebVersion.upstream("1.2-3-4")).as("the revision follows the last hyphen").isEqualTo("1.2-3");
        assertThat(DebVersion.upstream("580.159.04")).isEqualTo("580.159.04");
        assertThat(DebVersion.upstream("a:1.0-1")).as("an epoch is digits").isEqualTo("a:1.0");
        assertThat(DebVersion.upstream(null)).isNull();
    }

    @Test
    void wheelMetadataVersionIsAHeader() {
        assertThat(SoftwareReader.metadataVersion("Metadata-Version: 2.1\nName: nvidia-nccl-cu13\nVersion: 2.28.3\n")).hasValue("2.28.3");
        assertThat(SoftwareReader.metadataVersion("Name: x\n\nVersion: 1.0\n")).as("after the headers it is the body").isEmpty();
        assertThat(SoftwareReader.metadataVersion("Version:\n")).isEmpty();
    }
}
