package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the user named is judged by what was opened, not by a look before: a FIFO swapped in
 * for a report or a tarball after the look must not block the open. The timeouts are hang
 * checks, generous on purpose, not timings.
 */
class InputFileTest {
    private static final Duration HANG = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    @Test
    void aFifoIsRefusedWithoutBlocking() throws Exception {
        Path fifo = SpecialFiles.fifo(tmp.resolve("report.json"));
        assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> InputFile.open(fifo, 1 << 20))
                .isInstanceOf(InputFile.NotRegular.class).hasMessage("a FIFO"));
    }

    @Test
    void aDeviceOrAFolderIsRefused() throws Exception {
        Path zero = SpecialFiles.charDevice(tmp.resolve("zero"), 1, 5); // /dev/zero: read whole, it never ends
        assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> InputFile.open(zero, 1 << 20)).hasMessage("a device"));
        assertThatThrownBy(() -> InputFile.open(tmp, 1 << 20)).isInstanceOf(InputFile.NotRegular.class).hasMessage("a folder");
        assertThatThrownBy(() -> InputFile.open(tmp.resolve("none"), 1 << 20)).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aFileOverTheCapIsNotRead() throws Exception {
        Path big = SpecialFiles.sparse(tmp.resolve("big.json"), (1 << 20) + 1);
        assertThatThrownBy(() -> InputFile.open(big, 1 << 20)).isInstanceOf(InputFile.TooLarge.class);
    }

    @Test
    void aRegularFileReadsWhole() throws Exception {
        byte[] content = new byte[200_000];
        for (int i = 0; i < content.length; i++) content[i] = (byte) (i * 31);
        Path f = Files.write(tmp.resolve("r.json"), content);
        try (InputFile in = InputFile.open(f, 1 << 20)) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
    }
}
