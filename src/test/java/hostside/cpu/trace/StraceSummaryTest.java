package hostside.cpu.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** strace -c's table, as strace 6 and strace 4 print it, and what is not such a table. */
class StraceSummaryTest {
    static String resource(String name) {
        try (InputStream in = StraceSummaryTest.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing test resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void recordedWallTimeSummaryOfThreads() {
        StraceSummary s = StraceSummary.parse(resource("summary_threads.txt"));
        assertThat(s.ignored()).isEmpty();
        assertThat(s.rows()).hasSizeGreaterThan(30);
        StraceSummary.Row first = s.rows().getFirst();
        assertThat(first.syscall()).isEqualTo("clock_nanosleep");
        assertThat(first.calls()).isEqualTo(60);
        assertThat(first.errors()).isZero();
        assertThat(s.calls("futex")).isPositive();
        assertThat(s.rows().stream().filter(r -> r.syscall().equals("newfstatat")).findFirst().orElseThrow().errors()).isPositive();
        assertThat(s.total()).isPresent();
        assertThat(s.totalCalls()).isEqualTo(s.rows().stream().mapToLong(StraceSummary.Row::calls).sum());
        assertThat(s.totalSeconds()).isCloseTo(s.rows().stream().mapToDouble(StraceSummary.Row::seconds).sum(), within(1e-5));
        assertThat(s.total().get().percent()).isEqualTo(100.0);
    }

    @Test
    void recordedSummaryOfCat() {
        StraceSummary s = StraceSummary.parse(resource("summary_cat.txt"));
        assertThat(s.callsByName()).containsEntry("execve", 1L).containsEntry("read", 5L);
        assertThat(s.rows().stream().filter(r -> r.syscall().equals("openat")).findFirst().orElseThrow().errors()).isPositive();
        StraceSummary cpu = StraceSummary.parse(resource("summary_cat_cpu.txt"));
        assertThat(cpu.callsByName()).isEqualTo(s.callsByName());
    }

    @Test
    void theTotalRowOfStrace4HasNoUsecsPerCall() {
        StraceSummary s = StraceSummary.parse(resource("summary_strace4.txt"));
        assertThat(s.rows()).extracting(StraceSummary.Row::syscall).containsExactly("read", "openat", "mmap", "execve");
        assertThat(s.rows().get(1).errors()).isEqualTo(2);
        assertThat(s.rows().get(1).usecsPerCall()).isEqualTo(40.0);
        StraceSummary.Row total = s.total().orElseThrow();
        assertThat(total.calls()).isEqualTo(18);
        assertThat(total.errors()).isEqualTo(2);
        assertThat(total.usecsPerCall()).isNaN();
        assertThat(total.seconds()).isCloseTo(0.0008, within(1e-9));
    }

    @Test
    void twoPersonalitiesAddUp() {
        StraceSummary s = StraceSummary.parse(resource("summary_two_modes.txt"));
        assertThat(s.callsByName()).containsEntry("read", 14L).containsEntry("open", 2L).containsEntry("futex", 10L);
        assertThat(s.total().orElseThrow().calls()).isEqualTo(26);
        assertThat(s.ignored()).containsExactly("System call usage summary for 32 bit mode:", "System call usage summary for 64 bit mode:");
    }

    @Test
    void wideFiguresThatOutgrowTheirColumns() {
        String text = """
                % time     seconds  usecs/call     calls    errors syscall
                ------ ----------- ----------- --------- --------- ----------------
                 99.00  1234.567890          1 1234567890           futex
                  1.00    0.000100          10        10         3 a_very_long_syscall_name_indeed
                ------ ----------- ----------- --------- --------- ----------------
                100.00  1234.567990          1 1234567900         3 total
                """;
        StraceSummary s = StraceSummary.parse(text);
        assertThat(s.calls("futex")).isEqualTo(1234567890L);
        assertThat(s.calls("a_very_long_syscall_name_indeed")).isEqualTo(10);
        assertThat(s.rows().get(1).errors()).isEqualTo(3);
        assertThat(s.totalCalls()).isEqualTo(1234567900L);
    }

    @Test
    void aTableCutShortKeepsItsWholeRowsAndNoTotal() {
        String text = """
                % time     seconds  usecs/call     calls    errors syscall
                ------ ----------- ----------- --------- --------- ----------------
                 66.77    0.002780        2779         1           execve
                  7.30    0.000304         304         1           munmap
                  6.68    0.0002""";
        StraceSummary s = StraceSummary.parse(text);
        assertThat(s.rows()).extracting(StraceSummary.Row::syscall).containsExactly("execve", "munmap");
        assertThat(s.total()).isEmpty();
        assertThat(s.totalCalls()).isEqualTo(2);
        assertThat(s.ignored()).hasSize(1);
    }

    @Test
    void strayLinesAroundTheTableAreIgnored() {
        String text = "strace: Process 123 attached\n" + resource("summary_cat.txt") + "\nhello\n";
        StraceSummary s = StraceSummary.parse(text);
        assertThat(s.ignored()).containsExactly("strace: Process 123 attached", "hello");
        assertThat(s.calls("execve")).isEqualTo(1);
    }

    @Test
    void somethingElseIsAOneLineError() {
        assertThatThrownBy(() -> StraceSummary.parse("")).isInstanceOf(UnreadableTraceException.class).hasMessageContaining("no summary");
        assertThatThrownBy(() -> StraceSummary.parse("\u0000\u0001garbage\nmore")).isInstanceOf(UnreadableTraceException.class)
                .hasMessageContaining("not strace -c output");
        assertThatThrownBy(() -> StraceSummary.parse(resource("timed_cat.txt"))).isInstanceOf(UnreadableTraceException.class)
                .hasMessageNotContaining("\n");
    }

    @Test
    void aHeaderWithNoRowsIsAnEmptySummary() {
        StraceSummary s = StraceSummary.parse("""
                % time     seconds  usecs/call     calls    errors syscall
                ------ ----------- ----------- --------- --------- ----------------
                ------ ----------- ----------- --------- --------- ----------------
                100.00    0.000000           0         0           total
                """);
        assertThat(s.rows()).isEmpty();
        assertThat(s.totalCalls()).isZero();
    }
}
