package hostside.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A recorded machine being written in a temp folder: files, folders and symlinks at the paths a
 * live machine has them ("/proc/meminfo" lands in ROOT/proc/meminfo). Each module's tests extend
 * it with the machine they start from; {@code T} is that subclass, so the calls chain.
 */
public abstract class RecordedMachine<T extends RecordedMachine<T>> {
    public final Path root;

    protected RecordedMachine(Path root) {
        this.root = root;
    }

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    private Path at(String path) {
        return root.resolve(path.substring(1));
    }

    public T put(String path, String text) {
        try {
            Path p = at(path);
            Files.createDirectories(p.getParent());
            Files.writeString(p, text);
            return self();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public T remove(String path) {
        try {
            Path p = at(path);
            if (Files.isDirectory(p)) {
                try (var walk = Files.walk(p)) {
                    for (Path q : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(q);
                }
            } else {
                Files.deleteIfExists(p);
            }
            return self();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public T dir(String path) {
        try {
            Files.createDirectories(at(path));
            return self();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public T link(String path, String target) {
        try {
            Path p = at(path);
            Files.createDirectories(p.getParent());
            Files.deleteIfExists(p);
            Files.createSymbolicLink(p, Path.of(target));
            return self();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
