package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import hostside.libc.Libc;
import hostside.libc.LibcException;

/** Reading one mapping's fields out of /proc/self/smaps, on a recorded text and on this process. */
class SmapsTest {
    /** Five mappings as a 6.x kernel writes them, with the fields cut to a few. */
    static final String SMAPS = """
            55d4c0a00000-55d4c0a21000 rw-p 00000000 00:00 0                          [heap]
            Size:                132 kB
            Rss:                  64 kB
            AnonHugePages:         0 kB
            VmFlags: rd wr mr mw me ac sd
            7f3a00000000-7f3a40000000 rw-p 00000000 00:00 0
            Size:            1048576 kB
            Rss:             1048576 kB
            AnonHugePages:   1040384 kB
            THPeligible:    1
            VmFlags: rd wr mr mw me ac sd hg
            7f3a40000000-7f3a40200000 rw-p 00000000 00:00 0                          [anon:hostside-test region]
            Size:               2048 kB
            AnonHugePages:      2048 kB
            7f3b00000000-7f3b00010000 r--p 00000000 fd:01 1234567                    /data/run-1/ckpt:epoch-3 (copy)-7f3a40000000.bin
            Size:                 64 kB
            Rss:                  64 kB
            VmFlags: rd mr mw me sd
            7f3c00000000-7f3c00004000 rw-p 00000000 00:00 0
            Size:                 16 kB
            AnonHugePages:        12 kB
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
            Size:                  4 kB
            AnonHugePages:         0 kB
            """;

    @Test
    void moreKibThan2To63BytesIsNoValueNotAWrappedOne() {
        String smaps = "7f3a00000000-7f3a40000000 rw-p 00000000 00:00 0\nAnonHugePages: 9007199254740992 kB\n";
        assertThat(Smaps.field(smaps, 0x7f3a00000000L, "AnonHugePages")).isEmpty();
    }

    @Test
    void findsTheFieldOfTheMappingHoldingTheAddressInBytes() {
        assertThat(Smaps.field(SMAPS, 0x7f3a00000000L, "AnonHugePages")).hasValue(1040384L * 1024);
        assertThat(Smaps.field(SMAPS, 0x7f3a3fffffffL, "AnonHugePages")).as("last byte of the range").hasValue(1040384L * 1024);
        assertThat(Smaps.field(SMAPS, 0x7f3a12345678L, "Size")).hasValue(1L << 30);
        assertThat(Smaps.field(SMAPS, 0x7f3a40000000L, "AnonHugePages")).as("the end is exclusive: the next mapping")
                .hasValue(2048L * 1024);
        assertThat(Smaps.field(SMAPS, 0x55d4c0a10000L, "Rss")).hasValue(64L * 1024);
        assertThat(Smaps.field(SMAPS, 0x7f3c00001000L, "AnonHugePages")).hasValue(12L * 1024);
    }

    @Test
    void aHeaderWhosePathHasColonsAndDashesIsStillAHeader() {
        // the file mapping has no AnonHugePages line: the field is absent, not the next mapping's
        assertThat(Smaps.field(SMAPS, 0x7f3b00008000L, "AnonHugePages")).isEmpty();
        assertThat(Smaps.field(SMAPS, 0x7f3b00008000L, "Rss")).hasValue(64L * 1024);
        // its path names an address; the address in it is no mapping of its own
        assertThat(Smaps.field(SMAPS, 0x7f3b00010000L, "Size")).isEmpty();
    }

    @Test
    void addressesNoMappingHoldsHaveNoField() {
        assertThat(Smaps.field(SMAPS, 0x1000L, "AnonHugePages")).isEmpty();
        assertThat(Smaps.field(SMAPS, 0x7f3a40200000L, "AnonHugePages")).as("just past [anon:...]").isEmpty();
        assertThat(Smaps.field(SMAPS, 0x7f3d00000000L, "AnonHugePages")).isEmpty();
        assertThat(Smaps.field("", 0x7f3a00000000L, "AnonHugePages")).isEmpty();
    }

    @Test
    void unsignedAddressesAboveTheSignBitAreFound() {
        assertThat(Smaps.field(SMAPS, 0xffffffffff600800L, "Size")).hasValue(4096L);
    }

    @Test
    void aFieldWithoutUnitIsTakenAsIsAndAMissingKeyIsEmpty() {
        assertThat(Smaps.field(SMAPS, 0x7f3a00000000L, "THPeligible")).hasValue(1L);
        assertThat(Smaps.field(SMAPS, 0x7f3a00000000L, "Swap")).isEmpty();
        // a key is a whole name: "Size" is not "KernelPageSize" nor "Rss" a prefix of "RssAnon"
        String s = "7f0000000000-7f0000001000 rw-p 00000000 00:00 0\nKernelPageSize:        4 kB\nRssAnon: 8 kB\nSize: 4 kB\n";
        assertThat(Smaps.field(s, 0x7f0000000000L, "Size")).hasValue(4096L);
        assertThat(Smaps.field(s, 0x7f0000000000L, "Rss")).isEmpty();
    }

    @Test
    void thisProcessesOwnMappingIsFoundLive() {
        long page = Libc.pageSize();
        MemorySegment m = Libc.mmap(64 * page, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        try {
            try {
                Libc.madvise(m, Libc.MADV_NOHUGEPAGE);
            } catch (LibcException e) {
                if (e.errno() != 22) throw e;
            }
            for (long off = 0; off < m.byteSize(); off += page) m.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
            OptionalLong huge = Smaps.anonHugeBytes(FsRoot.live(), m.address() + 5 * page);
            assertThat(huge).as("AnonHugePages of a region that asked for no huge pages").hasValue(0L);
            String smaps = FsRoot.live().text("/proc/self/smaps").orElseThrow();
            // the kernel may merge the region with a neighbour: its size is at least ours
            assertThat(Smaps.field(smaps, m.address(), "Size").orElseThrow()).isGreaterThanOrEqualTo(64 * page);
            assertThat(Smaps.field(smaps, m.address() + 63 * page, "Rss").orElseThrow()).isGreaterThanOrEqualTo(64 * page);
        } finally {
            Libc.munmap(m);
        }
    }
}
