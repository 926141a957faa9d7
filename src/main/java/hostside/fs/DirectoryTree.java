package hostside.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/** A tree on disk: "/" for the live machine, or a folder holding a recorded sys/ and proc/. */
final class DirectoryTree implements Tree {
    private final Path base;

    DirectoryTree(Path base) {
        this.base = base;
    }

    private Path at(String path) {
        return base.resolve(path.substring(1));
    }

    @Override
    public Kind kind(String path) {
        try {
            BasicFileAttributes a = Files.readAttributes(at(path), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) return Kind.LINK;
            if (a.isDirectory()) return Kind.DIR;
            return Kind.FILE;
        } catch (IOException e) {
            return Kind.MISSING;
        }
    }

    @Override
    public String linkTarget(String path) throws IOException {
        return Files.readSymbolicLink(at(path)).toString();
    }

    @Override
    public byte[] read(String path) throws IOException {
        // Not Files.readAllBytes: for a file whose size reads as 0 (all of /proc) it reads one
        // byte first, then the rest from offset 1, and some kernels (this project's dev VM,
        // 6.18) answer a /proc/sys read at a non-zero offset with end of file: "60" read as "6".
        // A stream reads in 8 KiB+ chunks, so a sysctl arrives in its first read.
        try (java.io.InputStream in = Files.newInputStream(at(path))) {
            return in.readAllBytes();
        }
    }

    @Override
    public List<String> list(String path) throws IOException {
        List<String> names = new ArrayList<>();
        try (var stream = Files.newDirectoryStream(at(path))) {
            for (Path p : stream) names.add(p.getFileName().toString());
        }
        return names;
    }

    @Override
    public String describe() {
        return base.toString();
    }
}
