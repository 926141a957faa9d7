package hostside.harness;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;

import hostside.libc.FileIo;

/**
 * Test files left by a run that was killed (SIGKILL, the OOM killer, a lost node: nothing ran
 * its cleanup), found and removed when a drill starts using a folder. A file is removed only
 * when all of this holds: its name has our shape ({@link TestFileName}), it and its lock file are
 * regular files (not links) owned by this user, and the lock file's fcntl lock is free, which
 * means its owner is dead ({@link OwnerLock}). Anything else, a live run's files, a stranger's
 * file of any name, the PID-named files of older versions, is left as it is.
 */
public final class StaleTestFiles {
    /** A lock file left empty for this long is a run killed between creating it and locking it (a microsecond's window). */
    static final Duration UNFINISHED = Duration.ofMinutes(10);

    /** One file removed, and its size. */
    public record Removed(String name, long bytes) {}

    private StaleTestFiles() {}

    /**
     * Sweeps {@code dir} and, when it removed anything, says so through {@code say} (a line for
     * stderr) and returns the same line for the drill's findings.
     */
    public static Optional<String> sweep(Path dir, Consumer<String> say) {
        List<Removed> removed = sweep(dir);
        if (removed.isEmpty()) return Optional.empty();
        String line = note(dir, removed);
        say.accept(line);
        return Optional.of(line);
    }

    static String note(Path dir, List<Removed> removed) {
        long bytes = removed.stream().mapToLong(Removed::bytes).sum();
        List<String> names = removed.stream().map(Removed::name).toList();
        // harness sits below machine and report: no Finding.some or Units here
        String some = names.size() <= 6 ? String.join(", ", names) : String.join(", ", names.subList(0, 6)) + " and " + (names.size() - 6) + " more";
        return String.format(Locale.ROOT, "removed %d %s (%.1f MiB) that a killed hostside run left in %s (no live process held their lock): %s",
                removed.size(), removed.size() == 1 ? "test file" : "test files", bytes / (double) (1 << 20), dir, some);
    }

    /** Removes the dead runs' files in {@code dir}; returns what it removed. */
    public static List<Removed> sweep(Path dir) {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "hostside-*")) {
            for (Path p : s) names.add(p.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return List.of(); // a folder that cannot be listed: whatever is wrong with it, the test file's creation says
        }
        int uid = FileIo.geteuid();
        List<Removed> removed = new ArrayList<>();
        for (String name : names) {
            Matcher m = TestFileName.parse(name);
            if (m == null) continue;
            if (m.group(1).equals(TestFileName.PROBE)) sweepProbe(dir.resolve(name), uid, removed);
            else if (m.group(3).equals("lock")) sweepLocked(dir, m.group(1), m.group(2), uid, removed);
        }
        return removed;
    }

    /** A writability probe lives for microseconds and has no lock: an old, empty one is a killed run's. */
    private static void sweepProbe(Path probe, int uid, List<Removed> removed) {
        try {
            BasicFileAttributes a = OwnFiles.lstat(probe);
            if (ours(probe, a, uid) && a.size() == 0 && olderThan(a, UNFINISHED) && OwnFiles.deleteIfSame(probe, a.fileKey())) {
                removed.add(new Removed(probe.getFileName().toString(), 0));
            }
        } catch (IOException e) {
            // gone meanwhile, or not ours to look at
        }
    }

    private static void sweepLocked(Path dir, String drill, String id, int uid, List<Removed> removed) {
        Path lockFile = dir.resolve(TestFileName.lock(drill, id));
        // never opened if this JVM holds it: closing our second descriptor would drop our own lock
        if (OwnerLock.heldHere(lockFile)) return;
        try {
            BasicFileAttributes a = OwnFiles.lstat(lockFile);
            if (!ours(lockFile, a, uid)) return;
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                FileLock lock;
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    return; // held in this JVM after all
                }
                if (lock == null) return; // a live owner
                if (!OwnFiles.isSame(lockFile, a.fileKey())) return; // replaced since we looked
                if (ch.size() == 0 && !olderThan(a, UNFINISHED)) return; // its owner may be between the create and the lock
                boolean data = removeData(dir.resolve(TestFileName.data(drill, id)), uid, removed)
                        | removeFolder(dir.resolve(TestFileName.folder(drill, id)), uid, removed);
                // the lock file goes while we hold its lock: a sweep that opened it meanwhile finds it held
                if (OwnFiles.deleteIfSame(lockFile, a.fileKey()) && !data) removed.add(new Removed(lockFile.getFileName().toString(), a.size()));
            }
        } catch (IOException e) {
            // gone meanwhile, not ours, or a file system without locks (ENOLCK): left alone
        }
    }

    /** Removes a dead run's data file, if there is one and it is ours; returns whether it did. */
    private static boolean removeData(Path data, int uid, List<Removed> removed) {
        try {
            BasicFileAttributes a = OwnFiles.lstat(data);
            if (ours(data, a, uid) && OwnFiles.deleteIfSame(data, a.fileKey())) {
                removed.add(new Removed(data.getFileName().toString(), a.size()));
                return true;
            }
        } catch (IOException e) {
            // none (a run killed between its write samples), or not ours
        }
        return false;
    }

    /** Removes a dead run's {@link ScratchFolder}, if there is one and it is ours; returns whether it did. */
    private static boolean removeFolder(Path folder, int uid, List<Removed> removed) {
        try {
            BasicFileAttributes a = OwnFiles.lstat(folder);
            if (!a.isDirectory() || OwnFiles.uid(folder) != uid) return false;
            var bytes = ScratchFolder.removeFolder(folder, a.fileKey());
            bytes.ifPresent(b -> removed.add(new Removed(folder.getFileName().toString(), b)));
            return bytes.isPresent();
        } catch (IOException e) {
            return false; // none (the usual case for a test file's lock), or not ours
        }
    }

    private static boolean ours(Path p, BasicFileAttributes a, int uid) throws IOException {
        return a.isRegularFile() && a.fileKey() != null && OwnFiles.uid(p) == uid;
    }

    private static boolean olderThan(BasicFileAttributes a, Duration age) {
        return a.lastModifiedTime().toInstant().isBefore(Instant.now().minus(age));
    }
}
