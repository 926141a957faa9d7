package hostside.health;

import hostside.machine.PciDevice;
import hostside.machine.PciKind;
import hostside.machine.PciLink;

/**
 * A GPU's or NIC's PCIe link as sysfs gives it, and for a GPU whose link sat below its maximum at
 * rest, the same link read again while host-to-device copies kept it busy: an idle GPU lowers its
 * link on purpose (nvidia-smi: the current generation and width "may be reduced when the GPU is not
 * in use"), so only a reading under load says whether it trained down.
 *
 * @param address   the PCI function, "0000:3b:00.0"
 * @param label     its name as the machine drill gives it
 * @param kind      GPU or NIC
 * @param idle      the link as read at rest; null when sysfs has no link files (a virtual function, a VM's bridge)
 * @param underLoad the link read during copies; null when not read (see {@code notLoaded})
 * @param notLoaded why the link was not read under load, where it was below its maximum at rest and
 *                  a GPU; null otherwise
 */
public record DeviceLink(String address, String label, PciKind kind, PciLink idle, PciLink underLoad, String notLoaded) {
    static DeviceLink of(PciDevice d) {
        return new DeviceLink(d.address(), d.label(), d.kind(), d.link(), null, null);
    }

    /** Whether the link at rest runs below its maximum speed or width. */
    public boolean belowMaxAtRest() {
        return idle != null && (idle.belowMaxSpeed() || idle.belowMaxWidth());
    }

    DeviceLink withLoad(PciLink link) {
        return new DeviceLink(address, label, kind, idle, link, null);
    }

    DeviceLink withoutLoad(String why) {
        return new DeviceLink(address, label, kind, idle, null, why);
    }
}
