package hostside.fs;

import java.util.Optional;

/**
 * The kernel's two files that name it: /proc/sys/kernel/osrelease ("6.8.0-45-generic") and
 * /proc/version ("Linux version 6.8.0-45-generic (buildd@...) (x86_64-linux-gnu-gcc-13 ...) #45 SMP
 * PREEMPT_DYNAMIC ..."), which also names the compiler's target and the preemption model. The one
 * reader of both: the host's name of its kernel, Module 2's architecture and Module 3's scheduler
 * read them here. Each read is kept as it came, so a reader that reports a missing file can.
 */
public record KernelVersion(Read osrelease, Read version) {
    public static final String OSRELEASE = "/proc/sys/kernel/osrelease", VERSION = "/proc/version";

    public static KernelVersion read(FsRoot fs) {
        return new KernelVersion(fs.read(OSRELEASE), fs.read(VERSION));
    }

    /** The release: osrelease, else the third word of /proc/version where it begins "Linux version"; empty when neither says. */
    public Optional<String> release() {
        return osrelease.trimmed().or(() -> version.trimmed().flatMap(KernelVersion::releaseIn));
    }

    /** /proc/version's line; "" where it could not be read. */
    public String line() {
        return version.trimmed().orElse("");
    }

    static Optional<String> releaseIn(String versionLine) {
        String[] w = versionLine.split("\\s+");
        return w.length > 2 && w[0].equals("Linux") ? Optional.of(w[2]) : Optional.empty();
    }
}
