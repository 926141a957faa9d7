package hostside.cpu.trace;

import static hostside.cpu.trace.StraceSummaryTest.resource;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The two runs' counts side by side: agreement within 10%, or the reason why not. */
class CrossCheckTest {
    static CrossCheck.Row row(CrossCheck.Result r, String name) {
        return r.rows().stream().filter(x -> x.syscall().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void agreementWithinTenPercent() {
        CrossCheck.Result r = CrossCheck.compare(Map.of("read", 1000L, "mmap", 100L, "openat", 95L), Map.of("read", 1050L, "mmap", 100L, "openat", 120L),
                false, false);
        assertThat(row(r, "read").agrees()).isTrue();
        assertThat(row(r, "read").why()).isEmpty();
        assertThat(row(r, "openat").agrees()).isFalse();
        assertThat(row(r, "openat").difference()).isCloseTo(25.0 / 120, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(row(r, "openat").why()).contains("different work");
        assertThat(r.compared()).isEqualTo(3);
        assertThat(r.agreeing()).isEqualTo(2);
        assertThat(r.headline()).isEqualTo("2 of 3 syscalls agree within 10% between the two runs (91% of their calls)");
        assertThat(r.rows()).extracting(CrossCheck.Row::syscall).startsWith("read");
    }

    @Test
    void reasonsForDisagreement() {
        CrossCheck.Result r = CrossCheck.compare(Map.of("futex", 8143L, "exit", 0L, "getdents64", 500L, "brk", 3L),
                Map.of("futex", 7155L, "exit", 22L, "getdents64", 100L, "brk", 9L), false, false);
        assertThat(row(r, "futex").why()).startsWith("depends on timing");
        assertThat(row(r, "exit").why()).isEqualTo("strace -c does not count calls that never return");
        assertThat(row(r, "getdents64").why()).contains("different work");
        assertThat(row(r, "brk").why()).isEqualTo("too few calls to compare");
        assertThat(r.compared()).isEqualTo(3);
        CrossCheck.Result cut = CrossCheck.compare(Map.of("getdents64", 500L), Map.of("getdents64", 100L), false, true);
        assertThat(row(cut, "getdents64").why()).isEqualTo("the timed run was stopped early (time limit or file cap)");
        CrossCheck.Result cutSummary = CrossCheck.compare(Map.of("getdents64", 100L), Map.of("getdents64", 500L), true, false);
        assertThat(row(cutSummary, "getdents64").why()).isEqualTo("the summary run was stopped at its time limit");
    }

    @Test
    void onlyOneRunMadeIt() {
        CrossCheck.Result r = CrossCheck.compare(Map.of("socket", 50L), Map.of("accept4", 40L), false, false);
        assertThat(row(r, "socket").why()).isEqualTo("only the summary run made it");
        assertThat(row(r, "accept4").why()).isEqualTo("only the timed run made it");
        assertThat(CrossCheck.compare(Map.of(), Map.of(), false, false).headline()).contains("nothing to compare");
    }

    @Test
    void recordedRunsOfTheSameScriptAgreeExceptForTiming() {
        CrossCheck.Result r = CrossCheck.compare(StraceSummary.parse(resource("summary_threads.txt")), TraceParser.parse(resource("timed_threads.txt")));
        for (CrossCheck.Row row : r.rows()) {
            if (row.agrees() || row.why().equals("too few calls to compare")) continue;
            assertThat(row.why()).as(row.syscall()).matches("depends on timing.*|strace -c does not count.*");
        }
        assertThat(row(r, "newfstatat").agrees()).isTrue();
        assertThat(row(r, "openat").agrees()).isTrue();
    }
}
