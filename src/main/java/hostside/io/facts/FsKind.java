package hostside.io.facts;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What kind of storage a file system type stands for. A checkpoint on Lustre and one on local
 * NVMe look alike to open(); they load at very different speeds, so the type is named for people.
 */
public final class FsKind {
    /** Block device file systems on a disk of this machine (or what the VM calls a disk). */
    public static final String LOCAL = "local";
    /** Network and distributed file systems, object stores through FUSE. */
    public static final String NETWORK = "network";
    /** A folder the VM host shares with the guest (virtiofs, 9p). */
    public static final String HOST_SHARE = "host-share";
    /** RAM: tmpfs, ramfs. */
    public static final String MEMORY = "memory";
    /** A container's layered root. */
    public static final String OVERLAY = "overlay";
    /** A user-space file system this table does not know: local or remote, it cannot tell. */
    public static final String FUSE = "fuse";
    /** Kernel views that hold no data: proc, sysfs, cgroup... */
    public static final String PSEUDO = "pseudo";
    public static final String UNKNOWN = "unknown";

    /** @param storage one of the constants above; @param what the file system named for people */
    public record Kind(String storage, String what) {}

    private static final Map<String, Kind> TYPES = Map.ofEntries(
            Map.entry("nfs", new Kind(NETWORK, "NFS")),
            Map.entry("nfs4", new Kind(NETWORK, "NFS v4")),
            Map.entry("cifs", new Kind(NETWORK, "SMB/CIFS")),
            Map.entry("smb3", new Kind(NETWORK, "SMB3")),
            Map.entry("smbfs", new Kind(NETWORK, "SMB")),
            Map.entry("lustre", new Kind(NETWORK, "Lustre")),
            Map.entry("gpfs", new Kind(NETWORK, "GPFS (IBM Storage Scale)")),
            Map.entry("beegfs", new Kind(NETWORK, "BeeGFS")),
            Map.entry("fhgfs", new Kind(NETWORK, "BeeGFS (FhGFS, its old name)")),
            Map.entry("ceph", new Kind(NETWORK, "CephFS")),
            Map.entry("glusterfs", new Kind(NETWORK, "GlusterFS")),
            Map.entry("wekafs", new Kind(NETWORK, "WekaFS")),
            Map.entry("pvfs2", new Kind(NETWORK, "OrangeFS")),
            Map.entry("afs", new Kind(NETWORK, "AFS")),
            Map.entry("9p", new Kind(HOST_SHARE, "9p (a folder shared by the VM host)")),
            Map.entry("virtiofs", new Kind(HOST_SHARE, "virtiofs (a folder shared by the VM host)")),
            Map.entry("tmpfs", new Kind(MEMORY, "tmpfs (RAM)")),
            Map.entry("ramfs", new Kind(MEMORY, "ramfs (RAM)")),
            Map.entry("overlay", new Kind(OVERLAY, "overlayfs (container layers)")),
            Map.entry("aufs", new Kind(OVERLAY, "aufs (container layers)")));

    /** FUSE daemons that fetch their data over the network, by the name after "fuse." (or "fuseblk."). */
    private static final Map<String, String> REMOTE_FUSE = Map.ofEntries(
            Map.entry("s3fs", "s3fs (S3 through FUSE)"),
            Map.entry("gcsfuse", "gcsfuse (Cloud Storage through FUSE)"),
            Map.entry("juicefs", "JuiceFS (object storage through FUSE)"),
            Map.entry("mountpoint-s3", "Mountpoint for Amazon S3 (FUSE)"),
            Map.entry("goofys", "goofys (S3 through FUSE)"),
            Map.entry("blobfuse", "BlobFuse (Azure Blob through FUSE)"),
            Map.entry("blobfuse2", "BlobFuse2 (Azure Blob through FUSE)"),
            Map.entry("rclone", "rclone (remote storage through FUSE)"),
            Map.entry("sshfs", "sshfs (SSH through FUSE)"),
            Map.entry("ceph-fuse", "CephFS (FUSE client)"),
            Map.entry("glusterfs", "GlusterFS (FUSE client)"),
            Map.entry("alluxio-fuse", "Alluxio (FUSE)"),
            Map.entry("dfuse", "DAOS (dfuse)"),
            Map.entry("weka", "WekaFS (FUSE)"));

    /** FUSE daemons that hold no data: views of the kernel or the desktop. */
    private static final Set<String> VIEW_FUSE = Set.of("lxcfs", "gvfsd-fuse", "portal");

    private static final Set<String> LOCAL_TYPES = Set.of("ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs",
            "vfat", "exfat", "ntfs", "ntfs3", "iso9660", "squashfs", "erofs", "bcachefs", "jfs", "reiserfs", "udf",
            "hfsplus", "fuseblk", "nilfs2", "ocfs2");

    private static final Set<String> PSEUDO_TYPES = Set.of("proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2",
            "securityfs", "debugfs", "tracefs", "pstore", "bpf", "mqueue", "hugetlbfs", "configfs", "fusectl",
            "binfmt_misc", "autofs", "rpc_pipefs", "nfsd", "efivarfs", "usbfs", "nsfs", "rootfs", "selinuxfs",
            "ipathfs");

    private FsKind() {}

    public static Kind of(String type) {
        if (type == null || type.isBlank()) return new Kind(UNKNOWN, "unknown");
        Kind k = TYPES.get(type);
        if (k != null) return k;
        if (type.startsWith("fuse.") || type.startsWith("fuseblk.")) {
            String daemon = type.substring(type.indexOf('.') + 1);
            if (VIEW_FUSE.contains(daemon)) return new Kind(PSEUDO, daemon + " (FUSE)");
            String remote = REMOTE_FUSE.get(daemon);
            return remote != null ? new Kind(NETWORK, remote) : new Kind(FUSE, daemon + " (FUSE)");
        }
        if (LOCAL_TYPES.contains(type)) return new Kind(LOCAL, type);
        if (PSEUDO_TYPES.contains(type)) return new Kind(PSEUDO, type);
        return new Kind(UNKNOWN, type);
    }

    /** Whether a file with this storage is read across a network or a hypervisor rather than from a disk here. */
    public static boolean remote(String storage) {
        return NETWORK.equals(storage) || HOST_SHARE.equals(storage);
    }

    /** The mount options worth showing: what changes how reads and writes go. */
    static List<String> optionsThatMatter(List<String> options) {
        return options.stream().filter(FsKind::matters).distinct().toList();
    }

    private static boolean matters(String o) {
        return switch (o) {
            case "ro", "noatime", "relatime", "strictatime", "lazytime", "nodiratime", "dax", "sync", "dirsync",
                 "discard", "hard", "soft", "localflock" -> true;
            default -> o.startsWith("dax=") || o.startsWith("vers=") || o.startsWith("rsize=") || o.startsWith("wsize=")
                    || o.startsWith("nconnect=") || o.startsWith("proto=") || o.startsWith("data=");
        };
    }
}
