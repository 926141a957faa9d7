package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KernelCmdlineTest {
    @Test
    void picksTheItemsThatMatterAndStopsAtInitArguments() {
        var items = KernelCmdline.parse("BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_iommu=on iommu=pt isolcpus=2-7 quiet -- iommu=off");
        assertThat(items).extracting(KernelCmdline.Item::text).containsExactly("intel_iommu=on", "iommu=pt", "isolcpus=2-7");
        assertThat(items).extracting(KernelCmdline.Item::topic).containsExactly("iommu", "iommu", "cpu");
    }
}
