package hostside.vm.facts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.process.Limits;

class LimitsTest {
    static final String TEXT = """
            Limit                     Soft Limit           Hard Limit           Units    \s
            Max cpu time              unlimited            unlimited            seconds  \s
            Max stack size            8388608              unlimited            bytes    \s
            Max processes             515423               515423               processes\s
            Max open files            20000                20000                files    \s
            Max locked memory         8388608              8388608              bytes    \s
            Max nice priority         0                    0                    \s
            Max realtime timeout      unlimited            unlimited            us       \s
            """;

    @Test
    void numbersUnlimitedAndUnits() {
        Limits l = Limits.parse(TEXT);
        assertThat(l.unparsed()).isEmpty();
        assertThat(l.limits()).hasSize(7);
        assertThat(l.get(Limits.MEMLOCK)).contains(new Limits.Limit(8388608L, 8388608L, "bytes", false, false));
        assertThat(l.get(Limits.NOFILE)).contains(new Limits.Limit(20000L, 20000L, "files", false, false));
        assertThat(l.get("Max cpu time")).contains(new Limits.Limit(null, null, "seconds", true, true));
        assertThat(l.get("Max stack size")).contains(new Limits.Limit(8388608L, null, "bytes", false, true));
        assertThat(l.get("Max nice priority")).contains(new Limits.Limit(0L, 0L, "", false, false));
        assertThat(l.get("Max realtime timeout").orElseThrow().unit()).as("a limit's unit is the kernel's word, not a figure's Unit").isEqualTo("us");
        assertThat(l.get(Limits.MEMLOCK).orElseThrow().softOrMax()).isEqualTo(8388608L);
        assertThat(l.get("Max cpu time").orElseThrow().softOrMax()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aMissingLineIsAbsent() {
        Limits l = Limits.parse("Limit  Soft Limit  Hard Limit  Units\nMax cpu time  unlimited  unlimited  seconds\n");
        assertThat(l.get(Limits.MEMLOCK)).isEmpty();
        assertThat(l.unparsed()).isEmpty();
    }

    @Test
    void garbageAndTruncationAreUnparsedLines() {
        Limits l = Limits.parse("""
                Limit                     Soft Limit           Hard Limit           Units
                Max locked memory         lots                 unlimited            bytes
                Max open files            99999999999999999999 1                    files
                Max processes             1024""");
        assertThat(l.limits()).isEmpty();
        assertThat(l.unparsed()).hasSize(3).allSatisfy(u -> assertThat(u).startsWith("Max "));
        assertThat(Limits.parse("").limits()).isEmpty();
        assertThat(Limits.parse("\u0000\u0001").unparsed()).hasSize(1);
    }
}
