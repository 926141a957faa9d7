package hostside.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Set;

import hostside.core.BadInputException;

/**
 * The folder an output goes into, checked before any work is done: the user learns of a typo, a
 * read-only mount or a full disk in a second, named after the option that gave it, not after
 * minutes of measuring. {@link OutputFile} then writes there.
 */
public final class OutputFolder {
    private OutputFolder() {}

    /**
     * The folder that {@code output}, a file the user named with {@code option}, goes into. It
     * must be there already: a file named by the user is not a folder to make, and a typo in its
     * folder should say so, not leave a tree of new folders. Bad input otherwise.
     *
     * @return the folder, absolute
     */
    public static Path of(Path output, String option) {
        Path dir = output.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new BadInputException(option + " " + output + ": " + (dir != null && Files.exists(dir, LinkOption.NOFOLLOW_LINKS)
                    ? dir + " is " + OutputFile.kindOf(dir) + ", not a folder" : "folder " + dir + " does not exist"));
        }
        return dir;
    }

    /**
     * Checks, before any work is done, that {@code dir} can take outputs: it exists or can be
     * made, a file can be created there (the only test that catches a read-only mount, /proc, or
     * a permission root does not override), and at least {@code bytes} are free. Bad input
     * otherwise, named after {@code option}: the user learns it in a second, not after minutes.
     */
    public static void check(Path dir, String option, long bytes) {
        Path abs = dir.toAbsolutePath();
        if (Files.exists(abs) && !Files.isDirectory(abs)) throw new BadInputException(option + " " + dir + ": is " + OutputFile.kindOf(abs) + ", not a folder");
        try {
            Files.createDirectories(abs);
        } catch (IOException e) {
            throw new BadInputException(option + " " + dir + ": cannot create the folder (" + OutputFile.reason(e) + ")");
        }
        Path probe = abs.resolve(OutputFile.temporaryName("probe"));
        try {
            Files.newByteChannel(probe, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)).close();
            Object key = Files.readAttributes(probe, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            OutputFile.deleteIfOurs(probe, key);
        } catch (IOException e) {
            throw new BadInputException(option + " " + dir + ": cannot write there (" + OutputFile.reason(e) + ")");
        }
        long free;
        try {
            free = Files.getFileStore(abs).getUsableSpace();
        } catch (IOException e) {
            throw new BadInputException(option + " " + dir + ": cannot read its free space (" + OutputFile.reason(e) + ")");
        }
        if (free < bytes) {
            throw new BadInputException(String.format(Locale.ROOT, "%s %s: only %d bytes free, %d needed", option, dir, free, bytes));
        }
    }
}
