package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.GarbageException;

/** /proc/diskstats in its 14-, 18- and 20-field formats, /proc/net/dev, and garbage in both. */
class DiskAndNetTest {
    /** Linux 6.18 (20 fields), from this project's dev VM. */
    static final String DISKSTATS_20 = """
               7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
             254       0 vda 363595 51501 188978858 259931 93810 182020 67161304 218274 0 145896 553170 251433 83 65096224 61767 963 13197
             253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
            """;
    /** Linux 4.19 (18 fields: discards, no flushes). */
    static final String DISKSTATS_18 = " 259       0 nvme0n1 1000 10 64000 500 2000 20 128000 900 3 1200 1400 7 0 56 2\n";
    /** Linux 3.10 (14 fields), with a partition and a device-mapper name. */
    static final String DISKSTATS_14 = """
               8       0 sda 245 13 8932 1190 102 58 1272 312 0 1080 1502
               8       1 sda1 201 13 7812 1003 100 58 1264 310 0 905 1313
             253       0 dm-0 195 0 7420 1138 158 0 1264 850 0 824 1988
            """;

    @Test
    void twentyFields() {
        DiskStats d = DiskStats.parse(DISKSTATS_20);
        assertThat(d.garbled()).isEmpty();
        assertThat(d.disks()).extracting(DiskStats.Disk::name).containsExactly("loop0", "vda", "zram0");
        DiskStats.Disk vda = d.disks().get(1);
        assertThat(vda.major()).isEqualTo(254);
        assertThat(vda.reads()).isEqualTo(363595);
        assertThat(vda.sectorsRead()).isEqualTo(188978858);
        assertThat(vda.readMs()).isEqualTo(259931);
        assertThat(vda.writes()).isEqualTo(93810);
        assertThat(vda.sectorsWritten()).isEqualTo(67161304);
        assertThat(vda.writeMs()).isEqualTo(218274);
        assertThat(vda.inFlight()).isZero();
        assertThat(vda.ioMs()).isEqualTo(145896);
        assertThat(vda.weightedMs()).isEqualTo(553170);
        assertThat(vda.discards()).isEqualTo(251433L);
        assertThat(vda.discardMs()).as("field 18; 17 is the sectors discarded").isEqualTo(61767L);
        assertThat(vda.flushes()).isEqualTo(963L);
        assertThat(vda.flushMs()).isEqualTo(13197L);
    }

    @Test
    void eighteenFieldsHaveDiscardsButNoFlushes() {
        DiskStats.Disk n = DiskStats.parse(DISKSTATS_18).disks().getFirst();
        assertThat(n.name()).isEqualTo("nvme0n1");
        assertThat(n.inFlight()).isEqualTo(3);
        assertThat(n.discards()).isEqualTo(7L);
        assertThat(n.discardMs()).isEqualTo(2L);
        assertThat(n.flushes()).isNull();
        assertThat(n.flushMs()).isNull();
    }

    @Test
    void fourteenFieldsHaveNeither() {
        DiskStats d = DiskStats.parse(DISKSTATS_14);
        assertThat(d.disks()).extracting(DiskStats.Disk::name).containsExactly("sda", "sda1", "dm-0");
        assertThat(d.disks().getFirst().ioMs()).isEqualTo(1080);
        assertThat(d.disks().getFirst().discards()).isNull();
    }

    @Test
    void oddLinesAreKeptAsideAndOnlyGarbageIsAnError() {
        // 2.6.18's partition lines had 4 counters: not one of the formats, kept aside
        DiskStats d = DiskStats.parse(DISKSTATS_14 + "   8    2 sda2 44 1120 2 8\n 8 3 sda3 x 0 0 0 0 0 0 0 0 0 0\n");
        assertThat(d.disks()).hasSize(3);
        assertThat(d.garbled()).hasSize(2);
        assertThat(DiskStats.parse("").disks()).as("a machine with no block device").isEmpty();
        assertThatThrownBy(() -> DiskStats.parse("lots of disks\n")).isInstanceOf(GarbageException.class).hasMessageStartingWith("not /proc/diskstats");
    }

    static final String NET_DEV = """
            Inter-|   Receive                                                |  Transmit
             face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                lo:    9579      87    0    0    0     0          0         0     9579      87    0    0    0     0       0          0
              eth0: 37104446    1840    2    5    0     0          0         0   150352    1702    1    3    0     0       0          0
            ib0:123456789012  9876543    0    0    0     0          0         0 98765432109 8765432    0    0    0     0       0          0
            """;

    @Test
    void netDev() {
        NetDev n = NetDev.parse(NET_DEV);
        assertThat(n.garbled()).isEmpty();
        assertThat(n.interfaces()).extracting(NetDev.Iface::name).containsExactly("lo", "eth0", "ib0");
        assertThat(n.interfaces().get(1)).isEqualTo(new NetDev.Iface("eth0", 37104446, 1840, 2, 5, 150352, 1702, 1, 3));
        assertThat(n.interfaces().get(2).rxBytes()).as("a byte count run into the colon").isEqualTo(123456789012L);
    }

    @Test
    void netDevGarbage() {
        NetDev n = NetDev.parse(NET_DEV + "  eth1: 1 2 3\n  : 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");
        assertThat(n.interfaces()).hasSize(3);
        assertThat(n.garbled()).hasSize(2);
        assertThatThrownBy(() -> NetDev.parse("eth0 lots\n")).isInstanceOf(GarbageException.class).hasMessageStartingWith("not /proc/net/dev");
        assertThat(NetDev.parse(NET_DEV.lines().limit(2).reduce("", (a, b) -> a + b + "\n")).interfaces()).isEmpty();
    }
}
