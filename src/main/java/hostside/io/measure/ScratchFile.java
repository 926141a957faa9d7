package hostside.io.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import hostside.harness.TestFile;

/**
 * The file the write measurements write: named as hostside's other test files, deleted when
 * closed and, should the run be stopped (Ctrl-C), by a shutdown hook.
 */
final class ScratchFile implements AutoCloseable {
    private final Path path;
    private final Thread hook;

    ScratchFile(Path dir) {
        this.path = dir.resolve(TestFile.name("io-write"));
        this.hook = new Thread(this::delete, "hostside-io-write-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    Path path() {
        return path;
    }

    void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // best effort: the name says whose it is
        }
    }

    @Override
    public void close() {
        delete();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs anyway
        }
    }
}
