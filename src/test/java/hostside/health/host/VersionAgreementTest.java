package hostside.health.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class VersionAgreementTest {

    private static VersionCheck of(List<VersionCheck> checks, VersionCheck.Check c) {
        return checks.stream().filter(x -> x.check() == c).findFirst().orElseThrow();
    }

    @Test
    void aStaleLibcudaAndTwoNcclsDiffer() {
        List<VersionCheck> checks = VersionAgreement.check(SoftwareReader.read(Machines.ibNode()));
        assertThat(checks).extracting(VersionCheck::check).containsExactly(VersionCheck.Check.values());
        assertThat(of(checks, VersionCheck.Check.NVML_LIBRARY).agreement()).isEqualTo(Agreement.AGREE);
        VersionCheck cuda = of(checks, VersionCheck.Check.CUDA_LIBRARY);
        assertThat(cuda.agreement()).isEqualTo(Agreement.DIFFER);
        assertThat(cuda.expected()).isEqualTo("580.159.04");
        assertThat(cuda.found()).extracting(VersionSource::version).containsExactly("580.159.04", "580.126.20");
        VersionCheck fm = of(checks, VersionCheck.Check.FABRIC_MANAGER);
        assertThat(fm.agreement()).as("the removed -570 package is not compared").isEqualTo(Agreement.AGREE);
        assertThat(fm.found()).extracting(VersionSource::where).containsExactly("/sys/module/nvidia/version", "nvidia-fabricmanager");
        VersionCheck nccl = of(checks, VersionCheck.Check.NCCL);
        assertThat(nccl.agreement()).isEqualTo(Agreement.DIFFER);
        assertThat(nccl.found()).extracting(VersionSource::version).containsExactly("2.28.3", "2.27.3", "2.28.3");
    }

    @Test
    void theH100HasOneNcclAndNothingElseToCompare() {
        List<VersionCheck> checks = VersionAgreement.check(SoftwareReader.read(Machines.h100Vm()));
        assertThat(checks).extracting(VersionCheck::agreement)
                .containsExactly(Agreement.NOT_APPLICABLE, Agreement.NOT_APPLICABLE, Agreement.NOT_APPLICABLE, Agreement.AGREE);
    }

    @Test
    void unknownWhereAVersionIsMissing() {
        SoftwareStack noModule = new SoftwareStack(null, null, null, null, ModuleFlavour.UNKNOWN,
                List.of(new LibraryFile("/usr/lib64/libnvidia-ml.so.580.159.04", "580.159.04")),
                List.of(new LibraryFile("/usr/lib64/libcuda.so.1", null)), null,
                List.of(new NcclInstall(NcclSource.WHEEL, "/x/nvidia_nccl_cu13-2.28.3.dist-info", null)), List.of());
        List<VersionCheck> checks = VersionAgreement.check(noModule);
        assertThat(checks).extracting(VersionCheck::agreement)
                .containsExactly(Agreement.UNKNOWN, Agreement.UNKNOWN, Agreement.UNKNOWN, Agreement.UNKNOWN);
        assertThat(of(checks, VersionCheck.Check.NVML_LIBRARY).expected()).isNull();

        // a library without a version in its name beside one that differs: the difference is known
        VersionCheck mixed = VersionAgreement.againstModule(VersionCheck.Check.NVML_LIBRARY, new VersionSource("m", "580.159.04"),
                List.of(new VersionSource("a", null), new VersionSource("b", "575.57.08")));
        assertThat(mixed.agreement()).isEqualTo(Agreement.DIFFER);
    }
}
