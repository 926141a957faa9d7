package hostside.cpu.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class InterruptsTest {

    @Test
    void x86WithManyCpusNamedRowsAndShortRows() {
        Interrupts t = Interrupts.parse(Box.interrupts());
        assertThat(t.header()).isTrue();
        assertThat(t.cpus()).hasSize(16).startsWith(0, 1, 2).endsWith(15);
        assertThat(t.unparsed()).isEmpty();

        Interrupts.Row timer = t.byNumber().get(0);
        assertThat(timer.chip()).isEqualTo("IR-IO-APIC");
        assertThat(timer.hwirq()).isEqualTo("2");
        assertThat(timer.trigger()).isEqualTo("edge");
        assertThat(timer.actions()).containsExactly("timer");

        Interrupts.Row gpu = t.byNumber().get(102);
        assertThat(gpu.counts()).hasSize(16);
        assertThat(gpu.total()).isEqualTo(1002);
        assertThat(t.perCpu(gpu)).containsExactly(Map.entry(2, 1002L));
        assertThat(gpu.chip()).isEqualTo("IR-PCI-MSIX-0000:3b:00.0");
        assertThat(gpu.name()).isEqualTo("nvidia");
        assertThat(Interrupts.addresses(gpu)).containsExactly("0000:3b:00.0");

        Interrupts.Row nic = t.byNumber().get(111);
        assertThat(nic.name()).isEqualTo("mlx5_comp1@pci:0000:86:00.0");
        assertThat(Interrupts.addresses(nic)).containsExactly("0000:86:00.0");

        Interrupts.Row loc = t.rows().stream().filter(r -> r.id().equals("LOC")).findFirst().orElseThrow();
        assertThat(loc.number()).isEmpty();
        assertThat(loc.counts()).hasSize(16);
        assertThat(loc.description()).isEqualTo("Local timer interrupts");
        assertThat(loc.actions()).isEmpty();

        Interrupts.Row err = t.rows().stream().filter(r -> r.id().equals("ERR")).findFirst().orElseThrow();
        assertThat(err.counts()).containsExactly(0L);
        assertThat(err.description()).isEmpty();
        assertThat(t.byNumber()).containsKeys(0, 100, 110, 120, 121).hasSize(11);
    }

    @Test
    void aNumberedRowShorterThanTheHeaderCountsForTheFirstCpus() {
        Interrupts t = Interrupts.parse("""
                           CPU0       CPU1       CPU2       CPU3
                  7:          5          3   IR-IO-APIC    7-fasteoi   pinctrl_amd
                  8:          9
                """);
        assertThat(t.byNumber().get(7).counts()).containsExactly(5L, 3L);
        assertThat(t.perCpu(t.byNumber().get(7))).containsExactly(Map.entry(0, 5L), Map.entry(1, 3L));
        assertThat(t.byNumber().get(7).trigger()).isEqualTo("fasteoi");
        assertThat(t.byNumber().get(8).counts()).containsExactly(9L);
        assertThat(t.byNumber().get(8).chip()).isEmpty();
    }

    @Test
    void aCountPast32BitsIsGarbageNotASummand() {
        // issue 36: two counts of 2^62 made a row total past 2^63, wrapped negative
        Interrupts t = Interrupts.parse("""
                           CPU0       CPU1
                  7:          5 4294967295   IR-IO-APIC    7-fasteoi   pinctrl_amd
                  8: 4611686018427387904 4611686018427387904   IR-IO-APIC    8-fasteoi   rtc0
                """);
        assertThat(t.byNumber().get(7).total()).isEqualTo(4294967300L);
        assertThat(t.byNumber()).doesNotContainKey(8);
        assertThat(t.unparsed()).hasSize(1);
    }

    @Test
    void onlineCpusWithGapsNameTheColumns() {
        Interrupts t = Interrupts.parse("""
                           CPU0       CPU2       CPU5
                 30:          1          0          7  PCI-MSIX-0000:00:04.0   1-edge      virtio3-rx
                """);
        assertThat(t.cpus()).containsExactly(0, 2, 5);
        assertThat(t.perCpu(t.byNumber().get(30))).containsExactly(Map.entry(0, 1L), Map.entry(5, 7L));
    }

    @Test
    void armGicRowsAndIpis() {
        Interrupts t = Interrupts.parse("""
                           CPU0       CPU1       CPU2       CPU3
                 11:      12345      23456      34567      45678     GICv3  27 Level     arch_timer
                 14:          0          0          0          0     GICv3  29 Level     arch_timer_virt
                 45:          0         11          0          0   ITS-MSI 524288 Edge      nvme0q0
                 46:          0          0         22          0   ITS-MSI 524289 Edge      nvme0q1
                 60:          3          0          0          0   ITS-PCI-MSIX-0009:01:00.0   0 Edge      nvidia
                IPI0:      1234       2345       3456       4567       Rescheduling interrupts
                IPI1:         1          2          3          4       Function call interrupts
                Err:          0
                """);
        assertThat(t.unparsed()).isEmpty();
        Interrupts.Row timer = t.byNumber().get(11);
        assertThat(timer.chip()).isEqualTo("GICv3");
        assertThat(timer.hwirq()).isEqualTo("27");
        assertThat(timer.trigger()).isEqualTo("Level");
        assertThat(timer.actions()).containsExactly("arch_timer");
        assertThat(timer.total()).isEqualTo(12345 + 23456 + 34567 + 45678);
        assertThat(Interrupts.addresses(timer)).isEmpty();

        Interrupts.Row nvme = t.byNumber().get(46);
        assertThat(nvme.chip()).isEqualTo("ITS-MSI");
        assertThat(nvme.trigger()).isEqualTo("Edge");
        assertThat(nvme.name()).isEqualTo("nvme0q1");
        // bus-wide MSI domain: the hardware number is (bus << 8 | devfn) << 11 | vector
        assertThat(Interrupts.addresses(nvme)).containsExactly("0000:01:00.0");
        assertThat(Interrupts.addresses(t.byNumber().get(60))).containsExactly("0009:01:00.0");

        assertThat(t.rows()).extracting(Interrupts.Row::id).contains("IPI0", "IPI1", "Err");
        assertThat(t.rows().stream().filter(r -> r.id().equals("IPI0")).findFirst().orElseThrow().description())
                .isEqualTo("Rescheduling interrupts");
    }

    @Test
    void olderX86EncodesTheDeviceInTheHardwareNumber() {
        long nic = (0x03L << 19), gpuDomain1 = (1L << 27) | (0x3bL << 19) | (2 << 11) | 5;
        Interrupts t = Interrupts.parse("           CPU0       CPU1\n"
                + " 90:          0        100   IR-PCI-MSI " + nic + "-edge      eth0-TxRx-0\n"
                + " 91:          0        100   IR-PCI-MSI " + gpuDomain1 + "-edge      nvidia\n"
                + " 92:          7          0   IR-IO-APIC   16-fasteoi   ehci_hcd:usb1, uhci_hcd:usb3\n"
                + " 93:          0          1   DMAR-MSI    0-edge      dmar0\n");
        assertThat(Interrupts.addresses(t.byNumber().get(90))).containsExactly("0000:03:00.0");
        assertThat(Interrupts.addresses(t.byNumber().get(91))).containsExactly("0001:3b:00.2");
        assertThat(t.byNumber().get(92).actions()).containsExactly("ehci_hcd:usb1", "uhci_hcd:usb3");
        assertThat(t.byNumber().get(92).name()).isEqualTo("ehci_hcd:usb1, uhci_hcd:usb3");
        assertThat(Interrupts.addresses(t.byNumber().get(92))).isEmpty();
        assertThat(Interrupts.addresses(t.byNumber().get(93))).isEmpty();
    }

    @Test
    void xenStyleRowsWithoutAHardwareNumber() {
        Interrupts t = Interrupts.parse("""
                           CPU0       CPU1
                 64:       1000          0  xen-percpu    -virq      timer0
                 70:          0         50   xen-pirq    -edge      eth0-TxRx-3
                """);
        assertThat(t.byNumber().get(64).trigger()).isEqualTo("virq");
        assertThat(t.byNumber().get(64).actions()).containsExactly("timer0");
        assertThat(t.byNumber().get(70).actions()).containsExactly("eth0-TxRx-3");
    }

    @Test
    void garbageLinesAreKeptAsUnparsedAndTheRestReads() {
        Interrupts t = Interrupts.parse("""
                           CPU0       CPU1
                 24:          1          0  IO-APIC   5-edge      ACPI:Ged
                garbage without a colon
                \u0000\u0001\u0002
                 25: 99999999999999999999999 0 IO-APIC 6-edge x
                 26:
                 $%: 1 2
                 27:          0          3  IO-APIC   4-edge      ttyS0
                """);
        assertThat(t.byNumber()).containsOnlyKeys(24, 27);
        assertThat(t.unparsed()).hasSize(5);
        assertThat(t.perCpu(t.byNumber().get(27))).containsExactly(Map.entry(1, 3L));
    }

    @Test
    void withoutAHeaderTheColumnsAreNumberedFromZero() {
        Interrupts t = Interrupts.parse(" 24:          1          0          4  IO-APIC   5-edge      ACPI:Ged\n");
        assertThat(t.header()).isFalse();
        assertThat(t.cpus()).containsExactly(0, 1, 2);
        assertThat(t.perCpu(t.byNumber().get(24))).containsExactly(Map.entry(0, 1L), Map.entry(2, 4L));
    }

    @Test
    void emptyAndNullTextsAreEmpty() {
        for (String s : new String[] {"", "\n\n", null}) {
            Interrupts t = Interrupts.parse(s);
            assertThat(t.rows()).isEmpty();
            assertThat(t.cpus()).isEmpty();
            assertThat(t.unparsed()).isEmpty();
        }
        assertThat(Interrupts.parse("CPU0 CPU1\n").cpus()).isEqualTo(List.of(0, 1));
    }
}
