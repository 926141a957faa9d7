package hostside.io.facts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a block device is, from its name and where it sits in sysfs: the verdicts branch on it
 * (an NVMe drive's link and scheduler, a virtio disk's host-side media), so it is a value, not a
 * word compared in several places. JSON: the lower-case name ("nvme", "dm"), as before.
 */
public enum BlockKind {
    /** device-mapper: LVM, dm-crypt, multipath */
    DM,
    /** software RAID */
    MD,
    LOOP, ZRAM, RAM,
    /** network block device */
    NBD,
    /** Ceph RADOS block device */
    RBD,
    NVME, VIRTIO,
    /** a Xen guest's disk */
    XEN,
    MMC,
    /** persistent memory */
    PMEM,
    /** SATA, SAS, USB and iSCSI disks: the SCSI layer */
    SCSI,
    OTHER;

    @JsonValue
    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @JsonCreator
    public static BlockKind parse(String s) {
        for (BlockKind k : values()) if (k.toString().equals(s)) return k;
        throw new IllegalArgumentException("\"" + s + "\" is not a block device kind hostside knows");
    }
}
