package hostside.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import picocli.CommandLine.Option;

import hostside.core.BadInputException;
import hostside.core.Units;
import hostside.harness.TestFile;
import hostside.io.IoDrill;

/**
 * Where the storage drill writes its test file and how large it is: the same two options, with
 * the same help, on {@code hostside io} and on {@code hostside report}, so that the report's
 * storage figures can describe where the checkpoints live.
 */
public final class StorageOptions {
    @Option(names = "--dir", paramLabel = "DIR", description = "Folder for the test files: where your checkpoints or dataset live (default /var/tmp).")
    public Path dir;

    @Option(names = "--size", paramLabel = "BYTES", converter = ByteSize.class,
            description = "Size of the test file, e.g. 4G (default 1 GiB, at most a quarter of available memory and half the free disk beyond 1 GiB).")
    public Long size;

    /**
     * What the drill would refuse only after the report's minute of other measurements, said at
     * once: a size under 64 MiB; and on a live machine a --dir that is no folder, cannot be
     * written, or lacks room for the file. Under --root the folder is the recorded machine's,
     * looked up in its mount table, not here.
     */
    public void check(boolean live) {
        if (size != null && size < IoDrill.MIN_FILE) {
            throw new BadInputException(String.format(Locale.ROOT, "--size %d: at least 64 MiB (64M)", size));
        }
        if (!live || (dir == null && size == null)) return;
        Path d = dir != null ? dir : TestFile.defaultDir();
        if (!Files.isDirectory(d)) throw new BadInputException("--dir " + d + ": " + (Files.exists(d) ? "not a folder" : "no such folder"));
        TestFile.probeWritable(d);
        if (size != null) {
            long usable = TestFile.usableSpace(d);
            if (!TestFile.fits(size, usable)) {
                throw new BadInputException(String.format(Locale.ROOT, "--size %s: not enough free space in %s (%s free, %s kept free)",
                        Units.bytes(size), d, Units.bytes(usable), Units.bytes(TestFile.MARGIN)));
            }
        }
    }

    /** The drill's options from these, with the other two as given. */
    public IoDrill.Options drill(Path file, Long sampleMs) {
        return new IoDrill.Options(dir, size, file, sampleMs);
    }
}
