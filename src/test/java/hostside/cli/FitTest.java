package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A progress line on a terminal of N columns: the description gives way at a word, the figures never. */
class FitTest {
    @Test
    void aLineThatFitsIsLeftAlone() {
        assertThat(Fit.line("hostside: ", "syscall", " (1 of 4), 2.0 s", 79)).isEqualTo("hostside: syscall (1 of 4), 2.0 s");
    }

    @Test
    void theDescriptionIsCutAtAWordWithAnEllipsis() {
        String line = Fit.line("hostside: [io 3/6] ", "writing the 64 GiB test file on /mnt/scratch/hostside", ", 1m12s, about 40 s left", 79);
        assertThat(line).isEqualTo("hostside: [io 3/6] writing the 64 GiB test file on..., 1m12s, about 40 s left");
        assertThat(line.length()).isLessThanOrEqualTo(79);
    }

    @Test
    void aKeyIsCutAtItsUnderscores() {
        assertThat(Fit.line("h: ", "host_to_device_memcpy_ce", " (2 of 9)", 29)).isEqualTo("h: host_to_device... (2 of 9)");
    }

    @Test
    void aWordLongerThanTheRoomIsCutWhereTheRoomEnds() {
        assertThat(Fit.line("h: ", "abcdefghijklmnop", " (2 of 9)", 20)).isEqualTo("h: abcde... (2 of 9)");
    }

    @Test
    void tooNarrowForAnyDescriptionTheFiguresStayWhole() {
        assertThat(Fit.line("hostside: ", "syscall_round_trip", " (1 of 4), 2.0 s", 28)).isEqualTo("hostside: (1 of 4), 2.0 s");
        assertThat(Fit.line("hostside: ", "syscall_round_trip", ", 1m12s, about 40 s left", 24)).isEqualTo("1m12s, about 40 s left");
        assertThat(Fit.line("hostside: ", "x_y", ", 1m12s, about 40 s left", 10)).hasSize(10);
    }
}
