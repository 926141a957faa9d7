package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The small parsers and classifiers: schedulers, file system types, mount options, InfiniBand rates, sysfs paths. */
class ParsersTest {
    @Test
    void schedulerInBracketsAmongThoseOffered() {
        assertThat(Scheduler.parse("none [mq-deadline] kyber bfq \n"))
                .isEqualTo(new Scheduler("mq-deadline", List.of("none", "mq-deadline", "kyber", "bfq")));
        assertThat(Scheduler.parse("noop anticipatory deadline [cfq] "))
                .isEqualTo(new Scheduler("cfq", List.of("noop", "anticipatory", "deadline", "cfq")));
        assertThat(Scheduler.parse("none")).as("device-mapper: no choice, no brackets").isEqualTo(new Scheduler("none", List.of("none")));
    }

    @Test
    void schedulerGarbageIsNoScheduler() {
        assertThat(Scheduler.parse("")).isNull();
        assertThat(Scheduler.parse(null)).isNull();
        assertThat(Scheduler.parse("[none] [bfq]")).isNull();
        assertThat(Scheduler.parse("none bfq")).as("two names, none selected").isNull();
        assertThat(Scheduler.parse("[]")).isNull();
        assertThat(Scheduler.parse("\u0000\u0001 [x]")).isNull();
    }

    @Test
    void fileSystemTypesNamed() {
        assertThat(FsKind.of("nfs4")).isEqualTo(new FsKind.Kind(FsKind.NETWORK, "NFS v4"));
        assertThat(FsKind.of("lustre").storage()).isEqualTo(FsKind.NETWORK);
        assertThat(FsKind.of("gpfs").what()).isEqualTo("GPFS (IBM Storage Scale)");
        assertThat(FsKind.of("beegfs").what()).isEqualTo("BeeGFS");
        assertThat(FsKind.of("fhgfs").what()).startsWith("BeeGFS");
        assertThat(FsKind.of("ceph").what()).isEqualTo("CephFS");
        assertThat(FsKind.of("cifs").what()).isEqualTo("SMB/CIFS");
        assertThat(FsKind.of("smb3").storage()).isEqualTo(FsKind.NETWORK);
        assertThat(FsKind.of("fuse.s3fs")).isEqualTo(new FsKind.Kind(FsKind.NETWORK, "s3fs (S3 through FUSE)"));
        assertThat(FsKind.of("fuse.gcsfuse").what()).startsWith("gcsfuse");
        assertThat(FsKind.of("fuse.juicefs").what()).startsWith("JuiceFS");
        assertThat(FsKind.of("fuse.mountpoint-s3").storage()).isEqualTo(FsKind.NETWORK);
        assertThat(FsKind.of("9p").storage()).isEqualTo(FsKind.HOST_SHARE);
        assertThat(FsKind.of("virtiofs").storage()).isEqualTo(FsKind.HOST_SHARE);
        assertThat(FsKind.of("tmpfs").storage()).isEqualTo(FsKind.MEMORY);
        assertThat(FsKind.of("overlay").storage()).isEqualTo(FsKind.OVERLAY);
        assertThat(FsKind.of("ext4")).isEqualTo(new FsKind.Kind(FsKind.LOCAL, "ext4"));
        assertThat(FsKind.of("xfs").storage()).isEqualTo(FsKind.LOCAL);
        assertThat(FsKind.of("fuse.lxcfs").storage()).as("a view of /proc, no data").isEqualTo(FsKind.PSEUDO);
        assertThat(FsKind.of("fuse.mystery")).isEqualTo(new FsKind.Kind(FsKind.FUSE, "mystery (FUSE)"));
        assertThat(FsKind.of("cgroup2").storage()).isEqualTo(FsKind.PSEUDO);
        assertThat(FsKind.of("zonefs")).isEqualTo(new FsKind.Kind(FsKind.UNKNOWN, "zonefs"));
        assertThat(FsKind.of("")).isEqualTo(new FsKind.Kind(FsKind.UNKNOWN, "unknown"));
    }

    @Test
    void remoteMeansNetworkOrHostShare() {
        assertThat(FsKind.remote(FsKind.NETWORK)).isTrue();
        assertThat(FsKind.remote(FsKind.HOST_SHARE)).isTrue();
        assertThat(FsKind.remote(FsKind.LOCAL)).isFalse();
        assertThat(FsKind.remote(FsKind.FUSE)).isFalse();
    }

    @Test
    void onlyTheMountOptionsThatChangeIo() {
        assertThat(FsKind.optionsThatMatter(List.of("rw", "nosuid", "relatime", "relatime", "dax=always", "discard", "errors=remount-ro",
                "rsize=1048576", "nconnect=16", "ro", "seclabel"))).containsExactly("relatime", "dax=always", "discard", "rsize=1048576",
                "nconnect=16", "ro");
    }

    @Test
    void infinibandRates() {
        assertThat(RdmaReader.gbps("400 Gb/sec (4X NDR)")).isEqualTo(400.0);
        assertThat(RdmaReader.gbps("2.5 Gb/sec (1X SDR)")).isEqualTo(2.5);
        assertThat(RdmaReader.gbps("56 Gb/sec (4X FDR)")).isEqualTo(56.0);
        assertThat(RdmaReader.gbps("fast")).isNull();
        assertThat(RdmaReader.gbps("400 Mb/sec")).isNull();
        assertThat(RdmaReader.gbps("-5 Gb/sec")).isNull();
    }

    @Test
    void pciAddressIsTheLastFunctionOnThePath() {
        assertThat(SysPaths.pciAddress("/sys/devices/pci0000:17/0000:17:00.0/0000:18:00.0/nvme/nvme0/nvme0n1")).isEqualTo("0000:18:00.0");
        assertThat(SysPaths.pciAddress("/sys/devices/pci10000:00/10000:00:04.0/virtio1/block/vda")).isEqualTo("10000:00:04.0");
        assertThat(SysPaths.pciAddress("/sys/devices/virtual/block/dm-0")).isNull();
        assertThat(SysPaths.afterColon("4: ACTIVE")).isEqualTo("ACTIVE");
        assertThat(SysPaths.afterColon("ACTIVE")).isEqualTo("ACTIVE");
    }

    @Test
    void linkSpeedsInGbPerSecond() {
        assertThat(IoVerdicts.gbps(400000)).isEqualTo("400 Gb/s");
        assertThat(IoVerdicts.gbps(2500)).isEqualTo("2500 Mb/s");
    }
}
