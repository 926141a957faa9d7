package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * A regression test on the live machine: some kernels (this project's dev VM, 6.18) answer a
 * /proc/sys read at a non-zero offset with end of file, and Files.readAllBytes reads a file whose
 * size says 0 one byte first, then the rest from offset 1: it gave "6" for "60". A sysctl must
 * arrive whole, as one plain read with a large buffer gets it.
 */
class FsRootLiveProcTest {
    /** What one read(2) of up to 64 KiB at offset 0 returns, as cat would print it. */
    static String plainRead(String path) throws IOException {
        try (InputStream in = new FileInputStream(path)) {
            byte[] buf = new byte[64 << 10];
            int n = in.read(buf);
            return n <= 0 ? "" : new String(buf, 0, n, StandardCharsets.UTF_8);
        }
    }

    @Test
    void aSysctlIsReadWholeNotItsFirstByte() throws IOException {
        String expected = plainRead("/proc/sys/kernel/pid_max").strip();
        // at least 301 on any kernel, 32768 by default: more than one digit, so a truncation shows
        assertThat(expected).matches("\\d{3,}");
        assertThat(FsRoot.live().text("/proc/sys/kernel/pid_max")).hasValue(expected);
    }

    @Test
    void otherSysctlsTooNumbersAndWords() throws IOException {
        for (String p : new String[] {"/proc/sys/vm/max_map_count", "/proc/sys/kernel/osrelease", "/proc/sys/vm/overcommit_memory"}) {
            assertThat(FsRoot.live().text(p)).as(p).hasValue(plainRead(p).strip());
        }
    }
}
