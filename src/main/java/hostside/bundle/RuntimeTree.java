package hostside.bundle;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The files of a runtime folder as the bundle will hold them, read before anything is written:
 * folders, files with their permission bits (bin/java and lib/jspawnhelper must stay
 * executable), and symbolic links as links (jlink links legal notices between modules). A link
 * must stay inside the folder, since a link out of it (a distribution's JRE links its cacerts
 * into /etc) would dangle on the machine it is unpacked on; so must be every file a plain file.
 */
record RuntimeTree(Path root, List<Item> items) {
    enum Kind { FOLDER, FILE, LINK }

    /** One entry: its path below the root with '/' between names, its permission bits, its size, and a link's target as written. */
    record Item(String path, Kind kind, int mode, long size, String target) {}

    /** Thrown when the folder holds something a bundle cannot carry, saying what. */
    static final class Unfit extends IOException {
        Unfit(String message) {
            super(message);
        }
    }

    static RuntimeTree scan(Path root) throws IOException {
        List<Item> items = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() { // never follows a link
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (!dir.equals(root)) items.add(new Item(name(dir), Kind.FOLDER, mode(dir), 0, null));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String name = name(file);
                if (attrs.isSymbolicLink()) {
                    Path target = Files.readSymbolicLink(file);
                    Path resolved = file.getParent().resolve(target).normalize();
                    if (target.isAbsolute() || !resolved.startsWith(root)) throw new Unfit(name + " links outside the runtime (to " + target + ")");
                    items.add(new Item(name, Kind.LINK, 0777, 0, target.toString()));
                } else if (attrs.isRegularFile()) {
                    items.add(new Item(name, Kind.FILE, mode(file), attrs.size(), null));
                } else {
                    throw new Unfit(name + " is not a plain file, a folder or a link");
                }
                return FileVisitResult.CONTINUE;
            }

            private String name(Path p) {
                return root.relativize(p).toString().replace('\\', '/');
            }
        });
        // a stable order: the same runtime gives the same archive, and a folder comes before what it holds
        items.sort(Comparator.comparing(Item::path));
        return new RuntimeTree(root, List.copyOf(items));
    }

    /** The permission bits (0755), read without following links. */
    private static int mode(Path p) throws IOException {
        PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        int m = 0;
        for (PosixFilePermission bit : a.permissions()) m |= 1 << (8 - bit.ordinal());
        return m;
    }

    /** The bytes of its files. */
    long bytes() {
        return items.stream().mapToLong(Item::size).sum();
    }

    /** The number of its files and links. */
    long files() {
        return items.stream().filter(i -> i.kind() != Kind.FOLDER).count();
    }
}
