package hostside.vm.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.harness.TestFile;
import hostside.harness.TestFiles;
import hostside.libc.Libc;

/** In a report Module 2 reads the start of the test file the session shares, which Module 4 may have made longer. */
class SharedFileReadTest {
    static final long MiB = 1L << 20;

    @TempDir
    Path tmp;

    @Test
    void theFileCasesReadTheBytesTheyAskedForOfALongerSharedFile() throws IOException {
        try (TestFiles files = TestFiles.shared()) {
            TestFile longer = files.lend(tmp, "io", 24 * MiB).get();
            TestFile.Lazy lent = files.lend(tmp, "vm", 8 * MiB);
            HostTarget t = new HostTarget(FsRoot.live(), Libc.pageSize(), 2 * MiB, "madvise", 1L << 30, tmp, "ext4", lent, 8 * MiB);
            for (FileRead c : new FileRead[] {new FileRead(false, false), new FileRead(true, false), new FileRead(false, true)}) {
                Result r = c.run(t);
                assertThat(r.status()).as(c.key()).isEqualTo(Status.OK);
                FileRead.FileDetail d = (FileRead.FileDetail) r.detail();
                assertThat(d.fileBytes()).as(c.key() + ": the bytes read, not the file's length").isEqualTo(8 * MiB);
                assertThat(d.file()).isEqualTo(longer.path().toString());
                assertThat(r.anchor()).as(c.key()).endsWith("--size=8m");
            }
            assertThat(Files.size(longer.path())).isEqualTo(24 * MiB);
        }
    }
}
