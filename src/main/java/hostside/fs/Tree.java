package hostside.fs;

import java.io.IOException;
import java.util.List;

/**
 * The primitive view of a live or recorded file system. Paths are absolute and normalised,
 * and nothing here follows a symlink: {@link FsRoot} resolves paths itself, so that an
 * absolute symlink inside a recorded machine points into that machine, not into this one.
 */
interface Tree {
    /**
     * FILE is a regular file (or one recorded as unreadable); SPECIAL is a FIFO, socket or device
     * node, which is never opened: a FIFO blocks its reader until a writer comes, a device's
     * driver acts on a read. A read of one answers {@link FileCap#NOT_REGULAR}.
     */
    enum Kind { FILE, DIR, LINK, SPECIAL, MISSING }

    Kind kind(String path);

    /** The raw target of a symlink, as stored. */
    String linkTarget(String path) throws IOException;

    /** The content of a regular file, at most {@link FileCap#BYTES}; an IOException saying why otherwise. */
    byte[] read(String path) throws IOException;

    /** Child names of a directory, in no particular order. */
    List<String> list(String path) throws IOException;

    /** What this tree is, for messages: "/" or the directory or tarball given. */
    String describe();
}
