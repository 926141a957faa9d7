package hostside.vm.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.vm.VmDrill;

/** Each case of Module 2 keeps a record of its own, and names the established tool's test where one measures the same. */
class AnchorsTest {
    @Test
    void everyCaseOfThisDrillDeclaresItsOwnRecord() {
        // a record of the case's own, nested in it: never the transitional named values
        for (var t : VmDrill.hostTests()) {
            assertThat(t.detailType()).as(t.key()).isNotNull();
            assertThat(t.detailType().isRecord()).as(t.key()).isTrue();
            assertThat(t.detailType().getEnclosingClass()).as(t.key()).isEqualTo(t.getClass());
        }
        for (var t : ManagedMigration.all()) assertThat(t.detailType()).as(t.key()).isEqualTo(ManagedMigration.MigrationDetail.class);
    }

    @Test
    void fileReadsNameFiosJobForTheirFileSize() {
        assertThat(new FileRead(false, true).fio(1L << 30, 256L << 20)).as("cold: the first 256 MiB of the file, as each sample reads")
                .isEqualTo("fio --rw=read --bs=1M --ioengine=psync --fadvise_hint=0 --iomem=mmap --invalidate=1 --size=1g --io_size=256m");
        assertThat(new FileRead(true, true).fio(64L << 20, 64L << 20)).as("a file no larger than a cold sample: read whole")
                .isEqualTo("fio --rw=read --bs=1M --ioengine=mmap --invalidate=1 --size=64m");
        assertThat(new FileRead(false, false).fio(64L << 20, 64L << 20)).as("warm: read in first, as the case's warm-up does")
                .isEqualTo("fio --rw=read --bs=1M --ioengine=psync --fadvise_hint=0 --iomem=mmap --pre_read=1 --invalidate=0 --size=64m");
        assertThat(new FileRead(true, false).fio(64L << 20, 64L << 20)).isEqualTo("fio --rw=read --bs=1M --ioengine=mmap --invalidate=0 --size=64m");
        assertThat(FileRead.fioSize(3L << 29)).as("1.5 GiB is no whole number of GiB").isEqualTo("1536m");
        assertThat(FileRead.fioSize(1000)).isEqualTo("1000");
        assertThat(new FileRead(false, true).anchor()).as("the anchor depends on the file: it is in the result").isNull();
    }

    @Test
    void theTlbWalkIsLatMemRdsAndTheOthersHaveNoPeer() {
        assertThat(new TlbReach(false).anchor()).isEqualTo("lmbench lat_mem_rd");
        assertThat(new TlbReach(true).anchor()).isEqualTo("lmbench lat_mem_rd");
        // first touch: no established tool times page faults per page; managed migration: nvbandwidth copies, it does not migrate
        assertThat(new AnonTouch(false).anchor()).isNull();
        assertThat(ManagedMigration.all()).allSatisfy(t -> assertThat(t.anchor()).isNull());
    }
}
