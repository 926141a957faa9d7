package hostside.libc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** isatty through java.lang.foreign: the test Progress uses for stderr (System.console() answers for stdin and stdout). */
class IsTerminalTest {
    @TempDir
    Path tmp;

    @Test
    void aPseudoTerminalIsATerminalAndAFileIsNot() throws Exception {
        int pty = Libc.open("/dev/ptmx", Libc.O_RDONLY | Libc.O_CLOEXEC);
        try {
            assertThat(Libc.isTerminal(pty)).as("a pseudo-terminal's master").isTrue();
        } finally {
            Libc.close(pty);
        }
        Path f = Files.writeString(tmp.resolve("log"), "x");
        int file = Libc.open(f.toString(), Libc.O_RDONLY);
        try {
            assertThat(Libc.isTerminal(file)).as("a file, as stderr redirected to a log").isFalse();
        } finally {
            Libc.close(file);
        }
        assertThat(Libc.isTerminal(-1)).as("no such descriptor").isFalse();
    }
}
