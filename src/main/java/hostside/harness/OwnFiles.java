package hostside.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Deleting only what hostside made: a file is known by its identity (device and inode, the
 * {@link BasicFileAttributes#fileKey()}) taken right after it was created, and a path is removed
 * only while it is still that regular file. Nothing here follows a symbolic link: a link planted
 * at one of our names is left alone, and so is what it points to.
 */
final class OwnFiles {
    private OwnFiles() {}

    static BasicFileAttributes lstat(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * The identity of the regular file at {@code p}. Taken just after an O_EXCL create while its
     * descriptor is open, so the inode cannot be freed and its number handed to another file
     * before we compare it again on delete.
     */
    static Object identity(Path p) throws IOException {
        BasicFileAttributes a = lstat(p);
        if (!a.isRegularFile() || a.fileKey() == null) throw new IOException(p + ": not the regular file just created");
        return a.fileKey();
    }

    /** Whether {@code p} is, now, the regular file of that identity. */
    static boolean isSame(Path p, Object identity) {
        try {
            BasicFileAttributes a = lstat(p);
            return a.isRegularFile() && identity.equals(a.fileKey());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Removes {@code p} when it is still the file of that identity; returns whether it did. A file
     * someone put there after removing ours (same name, another inode) stays.
     */
    static boolean deleteIfSame(Path p, Object identity) {
        if (!isSame(p, identity)) return false;
        try {
            Files.delete(p);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return false; // best effort: the caller is cleaning up, and the name says whose it is
        }
    }

    /** The owner's uid, without following a link. */
    static int uid(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    }
}
