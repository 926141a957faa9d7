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
        return Files.readAllBytes(at(path));
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
