package hostside.vm.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import hostside.vm.explain.PageWalk.Field;
import hostside.vm.explain.PageWalk.Layout;
import hostside.vm.explain.PageWalk.Options;
import hostside.vm.explain.PageWalk.PageSize;

class PageWalkTest {
    static final long VA = 0x7f3a12345678L;

    // ---- splitting: indices worked out by hand from the bit ranges

    @Test
    void x86FourLevelIndices() {
        assertThat(PageWalk.split(VA, Layout.X86_64_4LEVEL)).containsExactly(
                new Field("PML4", "47:39", 254), new Field("PDPT", "38:30", 232), new Field("PD", "29:21", 145),
                new Field("PT", "20:12", 325), new Field("offset", "11:0", 0x678));
    }

    @Test
    void x86FiveLevelAddsPml5Above() {
        assertThat(PageWalk.split(0x00ff7f3a12345678L, Layout.X86_64_5LEVEL)).containsExactly(
                new Field("PML5", "56:48", 255), new Field("PML4", "47:39", 254), new Field("PDPT", "38:30", 232),
                new Field("PD", "29:21", 145), new Field("PT", "20:12", 325), new Field("offset", "11:0", 0x678));
    }

    @Test
    void arm4kMatchesX86Bits() {
        assertThat(PageWalk.split(VA, Layout.ARM64_4K)).containsExactly(
                new Field("L0", "47:39", 254), new Field("L1", "38:30", 232), new Field("L2", "29:21", 145),
                new Field("L3", "20:12", 325), new Field("offset", "11:0", 0x678));
    }

    @Test
    void arm64kHasThreeLevelsOf6And13Bits() {
        assertThat(PageWalk.split(VA, Layout.ARM64_64K)).containsExactly(
                new Field("L1", "47:42", 31), new Field("L2", "41:29", 6608), new Field("L3", "28:16", 0x1234),
                new Field("offset", "15:0", 0x5678));
        assertThat(Layout.ARM64_64K.levels()).extracting(PageWalk.Level::bits).containsExactly(6, 13, 13);
    }

    @Test
    void kernelAddressesSplitToo() {
        assertThat(PageWalk.split(0xffff800012345678L, Layout.X86_64_4LEVEL)).extracting(Field::value)
                .containsExactly(256L, 0L, 145L, 325L, 0x678L);
        assertThat(PageWalk.split(0xffff800012345678L, Layout.ARM64_64K)).extracting(Field::value)
                .containsExactly(32L, 0L, 4660L, 0x5678L);
    }

    @Test
    void firstStepShowsTheSplit() {
        Step s = walk(Options.of(VA, Layout.X86_64_4LEVEL)).getFirst();
        assertThat(s.title()).isEqualTo("Split the address into indices");
        assertThat(s.plainState()).containsEntry("kind", "pagewalk").containsEntry("address", "0x00007f3a12345678")
                .containsEntry("layout", "x86-64-4").containsEntry("half", "user");
        List<Map<String, Object>> fields = list(s.plainState().get("fields"));
        assertThat(fields).extracting(f -> f.get("field")).containsExactly("PML4", "PDPT", "PD", "PT", "offset");
        assertThat(fields.get(3)).containsEntry("bits", "20:12").containsEntry("value", 325L).containsEntry("hex", "0x145");
        assertThat(fields.get(4)).containsEntry("hex", "0x678");
    }

    // ---- canonical checks

    @ParameterizedTest
    @MethodSource("nonCanonical")
    void nonCanonicalAddressesStopAtOneStep(Layout layout, long address, String title, String fault) {
        List<Step> steps = walk(new Options(address, layout, PageSize.BASE, false, "none"));
        assertThat(steps).hasSize(1);
        assertThat(steps.getFirst().title()).isEqualTo(title);
        assertThat(steps.getFirst().plainState()).containsEntry("fault", fault).containsEntry("signal", "SIGSEGV");
        assertThat(PageWalk.nonCanonical(address, layout)).isPresent();
    }

    static Stream<Arguments> nonCanonical() {
        String gp = "Non-canonical address: #GP, not a page fault";
        String arm = "Address outside both TTBR ranges: no walk";
        return Stream.of(
                Arguments.of(Layout.X86_64_4LEVEL, 0x0000800000000000L, gp, "#GP (general protection)"),
                Arguments.of(Layout.X86_64_4LEVEL, 0x0001ffff12345678L, gp, "#GP (general protection)"),
                Arguments.of(Layout.X86_64_4LEVEL, 0xfff0000012345678L, gp, "#GP (general protection)"),
                // Canonical for 57 bits but not for 48: a 5-level address on a 4-level machine.
                Arguments.of(Layout.X86_64_4LEVEL, 0x00ff7f3a12345678L, gp, "#GP (general protection)"),
                Arguments.of(Layout.X86_64_5LEVEL, 0x0100000000000000L, gp, "#GP (general protection)"),
                Arguments.of(Layout.ARM64_4K, 0x0001000012345678L, arm, "translation fault, no table read"),
                Arguments.of(Layout.ARM64_64K, 0xff7f000012345678L, arm, "translation fault, no table read"));
    }

    @Test
    void nonCanonicalNarrationSaysGpNotPageFault() {
        Step s = walk(Options.of(0x0000800000000000L, Layout.X86_64_4LEVEL)).getFirst();
        assertThat(s.narration()).contains("#GP").contains("not a page fault").contains("bit 47");
        assertThat(s.plainState()).containsEntry("check", "bits 63:48 = 0x0000 but bit 47 = 1");
        Step five = walk(Options.of(0x0100000000000000L, Layout.X86_64_5LEVEL)).getFirst();
        assertThat(five.narration()).contains("bit 56");
    }

    @Test
    void canonicalAddressesOfBothHalvesPass() {
        for (Layout l : Layout.values()) {
            assertThat(PageWalk.nonCanonical(VA, l)).as(l.key()).isEmpty();
            assertThat(PageWalk.nonCanonical(0xffff800012345678L, l)).as(l.key()).isEmpty();
        }
        assertThat(PageWalk.nonCanonical(0xff00000012345678L, Layout.X86_64_5LEVEL)).isEmpty();
    }

    @Test
    void armUserPointerTagIsIgnored() {
        long tagged = 0x2a007f3a12345678L;
        assertThat(PageWalk.nonCanonical(tagged, Layout.ARM64_4K)).isEmpty();
        assertThat(PageWalk.nonCanonical(tagged, Layout.X86_64_4LEVEL)).isPresent();
        List<Step> steps = walk(Options.of(tagged, Layout.ARM64_4K));
        assertThat(steps.getFirst().narration()).contains("TTBR0_EL1").contains("0x2a is a pointer tag");
        // The tag names no different page: the same frame as the untagged pointer.
        assertThat(steps.getLast().plainState().get("physical")).isEqualTo(walk(Options.of(VA, Layout.ARM64_4K)).getLast().plainState().get("physical"));
    }

    // ---- the TLB

    @Test
    void tlbHitEndsAfterTwoSteps() {
        List<Step> steps = walk(new Options(VA, Layout.X86_64_4LEVEL, PageSize.BASE, true, "none"));
        assertThat(steps).extracting(Step::title).containsExactly("Split the address into indices", "TLB lookup: hit, translation done");
        Map<String, Object> s = steps.get(1).plainState();
        assertThat(s).containsEntry("tlb", "hit").containsEntry("tableReads", 0).containsEntry("offset", "0x678");
        // The same translation a full walk finds.
        assertThat(s.get("physical")).isEqualTo(walk(Options.of(VA, Layout.X86_64_4LEVEL)).getLast().plainState().get("physical"));
        assertThat(steps.get(1).narration()).contains("one cycle");
    }

    @Test
    void tlbMissWalks() {
        Step s = walk(Options.of(VA, Layout.X86_64_4LEVEL)).get(1);
        assertThat(s.title()).isEqualTo("TLB lookup: miss, walk the tables");
        assertThat(s.plainState()).containsEntry("tlb", "miss").containsEntry("virtualPage", "0x00007f3a12345000")
                .containsEntry("tableReadsAtMost", 4);
    }

    // ---- the walk itself

    @ParameterizedTest
    @EnumSource(Layout.class)
    void fullWalkHasOneStepPerLevel(Layout layout) {
        List<Step> steps = walk(Options.of(VA, layout));
        int n = layout.levels().size();
        assertThat(steps).hasSize(3 + n + 1);
        assertThat(steps).extracting(Step::number).containsExactlyElementsOf(Stream.iterate(1, i -> i + 1).limit(3 + n + 1).toList());
        assertThat(steps.get(2).plainState()).containsEntry("register", layout.arch() == PageWalk.Arch.X86 ? "CR3" : "TTBR0_EL1");
        for (int i = 0; i < n; i++) {
            Map<String, Object> s = steps.get(3 + i).plainState();
            PageWalk.Level l = layout.levels().get(i);
            assertThat(s).containsEntry("level", l.name()).containsEntry("index", l.index(VA)).containsEntry("present", true);
            // entry address = table base + index x 8
            assertThat(hex(s.get("entryAddress"))).isEqualTo(hex(s.get("tableBase")) + l.index(VA) * 8);
            // each entry points at the table the next step reads from
            if (i < n - 1) assertThat(s.get("nextTable")).isEqualTo(steps.get(4 + i).plainState().get("tableBase"));
        }
        assertThat(steps.get(3).plainState().get("tableBase")).isEqualTo(steps.get(2).plainState().get("tableBase"));
        Map<String, Object> last = steps.getLast().plainState();
        long frame = hex(last.get("frame"));
        assertThat(frame % layout.basePageBytes()).isZero();
        assertThat(hex(last.get("physical"))).isEqualTo(frame + (VA & (layout.basePageBytes() - 1)));
        assertThat(steps.getLast().title()).isEqualTo("Physical address and TLB fill");
        assertThat(last).containsEntry("tlb", "filled");
    }

    @Test
    void x86EntriesDecodeTheirFlags() {
        List<Step> steps = walk(Options.of(VA, Layout.X86_64_4LEVEL));
        Map<String, Object> pml4 = steps.get(3).plainState();
        assertThat(hex(pml4.get("entry")) & 0xfff).isEqualTo(0x067);  // Linux's _PAGE_TABLE
        assertThat(pml4.get("flags")).isEqualTo("P=1 RW=1 US=1 A=1 NX=0");
        assertThat(steps.get(4).plainState().get("flags")).isEqualTo("P=1 RW=1 US=1 PS=0 A=1 NX=0");
        Map<String, Object> pt = steps.get(6).plainState();
        assertThat(pt.get("flags")).isEqualTo("P=1 RW=1 US=1 A=1 D=1 NX=1");
        assertThat(hex(pt.get("entry")) & 0x000ffffffffff000L).isEqualTo(hex(pt.get("frame")));
    }

    @Test
    void kernelAddressesUseTheUpperHalf() {
        List<Step> x86 = walk(Options.of(0xffff800012345678L, Layout.X86_64_4LEVEL));
        assertThat(x86.getFirst().plainState()).containsEntry("half", "kernel");
        assertThat(x86.get(6).plainState().get("flags")).isEqualTo("P=1 RW=1 US=0 A=1 D=1 G=1 NX=1");
        // One CR3 table for both halves on x86.
        assertThat(x86.get(2).plainState().get("tableBase")).isEqualTo(walk(Options.of(VA, Layout.X86_64_4LEVEL)).get(2).plainState().get("tableBase"));
        List<Step> arm = walk(Options.of(0xffff800012345678L, Layout.ARM64_4K));
        assertThat(arm.get(2).plainState()).containsEntry("register", "TTBR1_EL1");
        assertThat(arm.get(2).plainState().get("tableBase")).isNotEqualTo(walk(Options.of(VA, Layout.ARM64_4K)).get(2).plainState().get("tableBase"));
        assertThat(arm.get(6).plainState().get("flags")).isEqualTo("valid=1 page AF=1 AP=00 (read-write, kernel only) nG=0 UXN=1");
    }

    @Test
    void armEntriesDecodeTheirFlags() {
        List<Step> steps = walk(Options.of(VA, Layout.ARM64_4K));
        assertThat(steps.get(3).plainState().get("flags")).isEqualTo("valid=1 table");
        assertThat(hex(steps.get(3).plainState().get("entry")) & 3).isEqualTo(3);
        assertThat(steps.get(6).plainState().get("flags")).isEqualTo("valid=1 page AF=1 AP=01 (read-write, user) nG=1 UXN=1");
    }

    @Test
    void sameInputSameWalkAndNeighboursShareTables() {
        assertThat(walk(Options.of(VA, Layout.X86_64_4LEVEL))).isEqualTo(walk(Options.of(VA, Layout.X86_64_4LEVEL)));
        List<Step> a = walk(Options.of(VA, Layout.X86_64_4LEVEL));
        List<Step> samePage = walk(Options.of(VA + 8, Layout.X86_64_4LEVEL));
        List<Step> nextPage = walk(Options.of(VA + 4096, Layout.X86_64_4LEVEL));
        assertThat(samePage.getLast().plainState().get("frame")).isEqualTo(a.getLast().plainState().get("frame"));
        // Same 2 MiB region: same PT, different frame.
        assertThat(nextPage.get(6).plainState().get("tableBase")).isEqualTo(a.get(6).plainState().get("tableBase"));
        assertThat(nextPage.getLast().plainState().get("frame")).isNotEqualTo(a.getLast().plainState().get("frame"));
    }

    // ---- huge pages end the walk early

    @ParameterizedTest
    @MethodSource("hugePages")
    void hugePageLeafEndsTheWalk(Layout layout, PageSize page, String leaf, int offsetBits, String reach) {
        List<Step> steps = walk(new Options(VA, layout, page, false, "none"));
        int leafIndex = layout.levels().stream().map(PageWalk.Level::name).toList().indexOf(leaf);
        assertThat(steps).hasSize(3 + leafIndex + 1 + 1);
        Step end = steps.get(3 + leafIndex);
        assertThat(end.title()).endsWith("page, walk ends early").startsWith(leaf);
        assertThat(end.plainState()).containsEntry("offsetBits", (long) offsetBits).containsEntry("pageSizeBytes", page.bytes(layout));
        assertThat(end.narration()).contains("low " + offsetBits + " bits");
        long frame = hex(end.plainState().get("frame"));
        assertThat(frame % page.bytes(layout)).isZero();
        Step last = steps.getLast();
        assertThat(hex(last.plainState().get("physical"))).isEqualTo(frame + (VA & (page.bytes(layout) - 1)));
        assertThat(last.narration()).contains(reach);
        assertThat(last.plainState()).containsEntry("tlbReachBytes", PageWalk.TLB_ENTRIES * page.bytes(layout));
    }

    static Stream<Arguments> hugePages() {
        return Stream.of(
                Arguments.of(Layout.X86_64_4LEVEL, PageSize.SIZE_2M, "PD", 21, "2048 entries (a typical count) x 2 MiB = 4 GiB of reach instead of 2048 x 4 KiB = 8 MiB"),
                Arguments.of(Layout.X86_64_4LEVEL, PageSize.SIZE_1G, "PDPT", 30, "2048 entries (a typical count) x 1 GiB = 2 TiB"),
                Arguments.of(Layout.X86_64_5LEVEL, PageSize.SIZE_2M, "PD", 21, "4 GiB"),
                Arguments.of(Layout.ARM64_4K, PageSize.SIZE_2M, "L2", 21, "4 GiB"),
                Arguments.of(Layout.ARM64_4K, PageSize.SIZE_1G, "L1", 30, "2 TiB"),
                Arguments.of(Layout.ARM64_64K, PageSize.SIZE_512M, "L2", 29, "2048 entries (a typical count) x 512 MiB = 1 TiB of reach instead of 2048 x 64 KiB = 128 MiB"));
    }

    @Test
    void hugeLeafFlagsShowTheSizeBit() {
        assertThat(walk(new Options(VA, Layout.X86_64_4LEVEL, PageSize.SIZE_2M, false, "none")).get(5).plainState().get("flags"))
                .isEqualTo("P=1 RW=1 US=1 PS=1 A=1 D=1 NX=1");
        assertThat(walk(new Options(VA, Layout.ARM64_64K, PageSize.SIZE_512M, false, "none")).get(4).plainState().get("flags"))
                .isEqualTo("valid=1 block AF=1 AP=01 (read-write, user) nG=1 UXN=1");
    }

    // ---- faults

    @ParameterizedTest
    @MethodSource("everyLevel")
    void faultAtEachLevel(Layout layout, PageWalk.Level level) {
        List<Step> steps = walk(new Options(VA, layout, PageSize.BASE, false, level.name()));
        int i = layout.levels().indexOf(level);
        Step fault = steps.get(3 + i);
        assertThat(fault.title()).startsWith(level.name()).endsWith("not present, page fault");
        assertThat(fault.plainState()).containsEntry("present", false).containsEntry("entry", "0x0000000000000000");
        assertThat(fault.narration()).contains(layout.arch() == PageWalk.Arch.X86 ? "#PF" : "translation fault at level " + level.number());
        Step handler = steps.get(4 + i);
        boolean last = i == layout.levels().size() - 1;
        assertThat(handler.title()).isEqualTo(last ? "The kernel handles the fault: a missing page" : "The kernel handles the fault: a missing table");
        if (last) assertThat(handler.narration()).contains("minor fault").contains("major fault").contains("copy-on-write").contains("SIGSEGV");
        else assertThat(handler.narration()).contains("page-table page").contains("SIGSEGV");
        Step retry = steps.get(5 + i);
        assertThat(retry.title()).isEqualTo("Retry: the access runs again");
        assertThat(list(retry.plainState().get("walk"))).hasSize(layout.levels().size()).allSatisfy(r -> assertThat((String) r.get("flags")).doesNotContain("=0 ("));
        assertThat(steps.getLast().title()).isEqualTo("Physical address and TLB fill");
        assertThat(steps).hasSize(3 + i + 4);
        // After the fault the access ends where a fault-free walk ends.
        assertThat(steps.getLast().state()).isEqualTo(walk(Options.of(VA, layout)).getLast().state());
    }

    static Stream<Arguments> everyLevel() {
        return Stream.of(Layout.values()).flatMap(l -> l.levels().stream().map(level -> Arguments.of(l, level)));
    }

    @Test
    void faultAtTheHugeLeafAllocatesAHugePage() {
        List<Step> steps = walk(new Options(VA, Layout.X86_64_4LEVEL, PageSize.SIZE_2M, false, "pmd"));
        assertThat(steps.get(5).title()).isEqualTo("PD (pmd): index 145 -> not present, page fault");
        assertThat(steps.get(6).narration()).contains("zeroed 2 MiB page").contains("transparent huge page");
    }

    @Test
    void faultLevelByNameNumberOrLinuxName() {
        assertThat(new Options(VA, Layout.X86_64_4LEVEL, null, false, "pt").faultAt()).isEqualTo("PT");
        assertThat(new Options(VA, Layout.X86_64_4LEVEL, null, false, "4").faultAt()).isEqualTo("PML4");
        assertThat(new Options(VA, Layout.X86_64_5LEVEL, null, false, "p4d").faultAt()).isEqualTo("PML4");
        assertThat(new Options(VA, Layout.ARM64_4K, null, false, "0").faultAt()).isEqualTo("L0");
        assertThat(new Options(VA, Layout.ARM64_64K, null, false, "pmd").faultAt()).isEqualTo("L2");
        assertThat(new Options(VA, Layout.ARM64_64K, null, false, " None ").faultAt()).isEqualTo("none");
        assertThat(new Options(VA, Layout.ARM64_64K, null, false, null).fault()).isEmpty();
    }

    // ---- bad options: one line, naming the value and what is allowed

    @Test
    void badOptions() {
        assertBad(() -> PageWalk.parseAddress("0xzz"), "bad address '0xzz': give hex (0x7f3a12345678) or decimal digits");
        assertBad(() -> PageWalk.parseAddress("-5"), "bad address '-5': give hex (0x7f3a12345678) or decimal digits");
        assertBad(() -> PageWalk.parseAddress(""), "bad address '': give hex (0x7f3a12345678) or decimal digits");
        assertBad(() -> PageWalk.parseAddress("0x1ffffffffffffffff"), "address '0x1ffffffffffffffff' does not fit in 64 bits");
        assertBad(() -> Layout.parse("sparc"), "unknown layout 'sparc': choose x86-64-4, x86-64-5, arm64-4k, arm64-64k");
        assertBad(() -> PageSize.parse("4M"), "unknown page size '4M': choose base, 2M, 1G, 512M");
        assertBad(() -> new Options(VA, Layout.X86_64_4LEVEL, PageSize.SIZE_512M, false, null),
                "page size 512M does not exist on x86-64-4: choose base, 2M, 1G");
        assertBad(() -> new Options(VA, Layout.ARM64_64K, PageSize.SIZE_2M, false, null),
                "page size 2M does not exist on arm64-64k: choose base, 512M");
        assertBad(() -> new Options(VA, Layout.X86_64_4LEVEL, PageSize.BASE, false, "L2"),
                "unknown level 'L2' for x86-64-4: choose PML4, PDPT, PD, PT or none");
        assertBad(() -> new Options(VA, Layout.X86_64_4LEVEL, PageSize.SIZE_2M, false, "PT"),
                "--fault-at PT: with 2M pages the walk ends at PD; choose PML4, PDPT, PD or none");
        assertBad(() -> new Options(VA, Layout.X86_64_4LEVEL, PageSize.BASE, true, "PT"),
                "--fault-at PT needs --tlb miss: the TLB only holds translations that are present");
        assertBad(() -> Options.parse(null, null, null, "maybe", null, null), "unknown --tlb 'maybe': choose hit or miss");
    }

    @Test
    void addressesParse() {
        assertThat(PageWalk.parseAddress("0x7f3a12345678")).isEqualTo(VA);
        assertThat(PageWalk.parseAddress(" 0X7F3A_1234_5678 ")).isEqualTo(VA);
        assertThat(PageWalk.parseAddress("139887390250616")).isEqualTo(0x7f3a12345678L);
        assertThat(PageWalk.parseAddress("0xffff800012345678")).isEqualTo(0xffff800012345678L);
        assertThat(PageWalk.parseAddress("18446744073709551615")).isEqualTo(-1L);
    }

    @Test
    void parseUsesDefaults() {
        Options o = Options.parse(null, null, null, null, null, Layout.ARM64_64K);
        assertThat(o).isEqualTo(new Options(VA, Layout.ARM64_64K, PageSize.BASE, false, "none"));
        assertThat(Options.parse("4096", "x86-64-5", "1g", "HIT", "none", Layout.ARM64_64K))
                .isEqualTo(new Options(4096, Layout.X86_64_5LEVEL, PageSize.SIZE_1G, true, "none"));
        assertThat(Options.parse(null, null, null, null, null, null).layout()).isEqualTo(Layout.X86_64_4LEVEL);
    }

    @Test
    void layoutForMachine() {
        assertThat(Layout.forMachine("x86_64", false, 4096)).isEqualTo(Layout.X86_64_4LEVEL);
        assertThat(Layout.forMachine("x86_64", true, 4096)).isEqualTo(Layout.X86_64_5LEVEL);
        assertThat(Layout.forMachine("aarch64", false, 65536)).isEqualTo(Layout.ARM64_64K);
        assertThat(Layout.forMachine("aarch64", false, 4096)).isEqualTo(Layout.ARM64_4K);
        assertThat(Layout.forMachine(null, false, 4096)).isEqualTo(Layout.X86_64_4LEVEL);
    }

    // ---- narration stays short

    @Test
    void everyNarrationIsOneToFourSentences() {
        Stream.of(Layout.values()).flatMap(l -> Stream.concat(
                        Stream.of(Options.of(VA, l), Options.of(0xffff800012345678L, l), Options.of(0x0001000000000000L, l),
                                new Options(VA, l, PageSize.BASE, true, "none")),
                        l.levels().stream().map(level -> new Options(VA, l, PageSize.BASE, false, level.name()))))
                .flatMap(o -> walk(o).stream())
                .forEach(s -> assertThat(Narration.sentences(s.narration())).as(s.title()).isBetween(1, 4));
    }

    static void assertBad(Runnable r, String message) {
        assertThatThrownBy(r::run).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
        assertThat(message).doesNotContain("\n");
    }

    static List<Step> walk(Options o) {
        return PageWalk.steps(o);
    }

    static long hex(Object s) {
        return Long.parseUnsignedLong(((String) s).substring(2), 16);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object o) {
        return (List<Map<String, Object>>) o;
    }
}
