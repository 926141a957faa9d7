package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PciClassTest {
    @Test
    void parsesTheClassFile() {
        assertThat(PciClass.parse("0x030200")).isEqualTo(0x030200);
        assertThat(PciClass.parse("030200\n")).isEqualTo(0x030200);
        assertThat(PciClass.parse("garbage")).isEqualTo(-1);
        assertThat(PciClass.parse("0x1000000")).isEqualTo(-1);
        assertThat(PciClass.parse(null)).isEqualTo(-1);
    }

    @Test
    void onlyAcceleratorsAreGpus() {
        assertThat(PciClass.kind(0x030200, 0x10de, false)).isEqualTo(PciKind.GPU);     // NVIDIA 3D controller (H100, H200)
        assertThat(PciClass.kind(0x030000, 0x10de, false)).isEqualTo(PciKind.GPU);     // NVIDIA VGA (RTX 4090)
        assertThat(PciClass.kind(0x038000, 0x1002, false)).isEqualTo(PciKind.GPU);     // AMD Instinct
        assertThat(PciClass.kind(0x030000, 0x1a03, false)).isEqualTo(PciKind.OTHER);   // ASPEED BMC VGA
        assertThat(PciClass.kind(0x030000, 0x8086, false)).isEqualTo(PciKind.OTHER);   // Intel integrated graphics
        assertThat(PciClass.kind(0x030000, -1, true)).isEqualTo(PciKind.GPU);          // no vendor file, NVIDIA driver says GPU
    }

    @Test
    void nicsDrivesAndBridges() {
        assertThat(PciClass.kind(0x020000, 0x15b3, false)).isEqualTo(PciKind.NIC);     // ConnectX Ethernet
        assertThat(PciClass.kind(0x020700, 0x15b3, false)).isEqualTo(PciKind.NIC);     // ConnectX InfiniBand
        assertThat(PciClass.kind(0x010802, 0x144d, false)).isEqualTo(PciKind.NVME);
        assertThat(PciClass.kind(0x010601, 0x8086, false)).isEqualTo(PciKind.OTHER);   // SATA AHCI
        assertThat(PciClass.kind(0x060400, 0x10b5, false)).isEqualTo(PciKind.BRIDGE);  // PLX switch port
        assertThat(PciClass.describe(0x020700)).isEqualTo("InfiniBand controller");
        assertThat(PciClass.describe(0x010802)).isEqualTo("NVMe drive");
        assertThat(PciClass.describe(-1)).isEqualTo("unknown class");
    }
}
