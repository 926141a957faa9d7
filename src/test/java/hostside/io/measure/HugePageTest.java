package hostside.io.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which transparent huge page O_DIRECT buffers are made of, from THP's two files. */
class HugePageTest {
    @Test
    void theChosenPolicyMustGiveHugePagesToAMappingThatAsks() {
        assertThat(HugePage.of("always [madvise] never\n", "2097152\n")).contains(new HugePage(2L << 20));
        assertThat(HugePage.of("[always] madvise never", "2097152")).contains(new HugePage(2L << 20));
        assertThat(HugePage.of("always madvise [never]", "2097152")).as("never: MADV_HUGEPAGE does nothing").isEmpty();
        assertThat(HugePage.of("always madvise never", "2097152")).as("no choice marked").isEmpty();
    }

    @Test
    void aPageTooLargeForABufferOrUnreadableIsNone() {
        assertThat(HugePage.of("[always] madvise never", "536870912")).as("arm64 with 64 KiB pages: 512 MiB for a 1 MiB buffer").isEmpty();
        assertThat(HugePage.of("[always] madvise never", "33554432")).as("arm64 with 16 KiB pages: 32 MiB").isEmpty();
        assertThat(HugePage.of("[always] madvise never", "4194304")).isPresent();
        assertThat(HugePage.of("[always] madvise never", "3000000")).as("not a power of two").isEmpty();
        assertThat(HugePage.of("[always] madvise never", "x")).isEmpty();
    }

    @Test
    void aRegionTakesWholePages() {
        HugePage h = new HugePage(2L << 20);
        assertThat(h.pagesFor(1L << 20)).isEqualTo(1);
        assertThat(h.pagesFor(2L << 20)).isEqualTo(1);
        assertThat(h.pagesFor((32L << 20) + 4095)).isEqualTo(17);
    }
}
