package hostside.cpu.trace;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.fs.FsRoot;
import hostside.process.ProcStatus;

/**
 * The strace on this machine: where it is and which version.
 *
 * @param executable its absolute path
 * @param version    "6.1" as {@code strace -V} says, or "unknown"
 */
public record Strace(Path executable, String version) {
    public static final String NOT_INSTALLED =
            "strace is not installed: apt-get install strace (Debian/Ubuntu), dnf install strace (Fedora/RHEL)";

    /** Finds strace on this process's PATH; throws {@link TraceUnavailableException} with the install line when missing. */
    public static Strace locate() {
        return find(System.getenv("PATH")).orElseThrow(() -> new TraceUnavailableException(NOT_INSTALLED));
    }

    /** Finds strace on the given PATH (a test passes its own). */
    public static Optional<Strace> find(String pathEnv) {
        return onPath("strace", pathEnv).map(p -> new Strace(p, version(p)));
    }

    /** The first executable file called {@code name} in the PATH's folders. */
    static Optional<Path> onPath(String name, String pathEnv) {
        if (pathEnv == null || pathEnv.isEmpty()) return Optional.empty();
        for (String dir : pathEnv.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p.toAbsolutePath());
        }
        return Optional.empty();
    }

    private static final Pattern VERSION = Pattern.compile("version\\s+(\\S+)");

    /** "strace -- version 6.1" gives "6.1"; anything else "unknown". */
    static String parseVersion(String firstLine) {
        Matcher m = VERSION.matcher(firstLine == null ? "" : firstLine);
        return m.find() ? m.group(1) : "unknown";
    }

    private static String version(Path strace) {
        try {
            Processes.Output o = Processes.run(List.of(strace.toString(), "-V"), null, java.time.Duration.ofSeconds(5));
            return parseVersion(o.stdout().lines().findFirst().orElse(""));
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    // ---- ptrace denied ----

    /** True when strace's stderr says ptrace itself was refused (not, say, "No such process"). */
    public static boolean ptraceDenied(String stderr) {
        if (stderr == null) return false;
        for (String line : stderr.lines().toList()) {
            String l = line.toLowerCase(Locale.ROOT);
            if (l.contains("operation not permitted") && l.contains("ptrace")) return true;
        }
        return false;
    }

    /** The line of strace's stderr that says ptrace failed, for quoting. */
    static String deniedLine(String stderr) {
        return stderr.lines().filter(l -> l.toLowerCase(Locale.ROOT).contains("operation not permitted")).findFirst().orElse("").strip();
    }

    /**
     * One line saying that ptrace was denied and how to allow it.
     *
     * @param stderr    what strace wrote
     * @param attach    true for {@code --pid} (PTRACE_SEIZE of a process that is not strace's child)
     * @param yamaScope /proc/sys/kernel/yama/ptrace_scope, empty where Yama is absent
     * @param capPtrace whether this process holds CAP_SYS_PTRACE (empty when unknown)
     */
    public static String ptraceAdvice(String stderr, boolean attach, OptionalInt yamaScope, Optional<Boolean> capPtrace) {
        String quoted = deniedLine(stderr == null ? "" : stderr);
        StringBuilder sb = new StringBuilder("ptrace was denied");
        if (!quoted.isEmpty()) sb.append(" (").append(quoted).append(")");
        sb.append(": ");
        int scope = yamaScope.orElse(-1);
        boolean cap = capPtrace.orElse(false);
        if (scope == 3) {
            sb.append("kernel.yama.ptrace_scope is 3, which forbids all tracing until the next boot; nothing can be traced on this machine as it runs");
        } else if (attach && scope >= 1 && !cap) {
            sb.append("kernel.yama.ptrace_scope is ").append(scope).append(scope == 1
                    ? ", so only a process's own children can be traced: run as root (sudo), or set sudo sysctl kernel.yama.ptrace_scope=0, or trace the command from its start (hostside cpu --trace -- CMD)"
                    : ", so only root (CAP_SYS_PTRACE) may attach: run with sudo, or trace the command from its start (hostside cpu --trace -- CMD)");
        } else if (!cap) {
            sb.append(attach
                    ? "this process lacks CAP_SYS_PTRACE and the target may belong to another user or a container: run as the target's user or as root; in a container add --cap-add=SYS_PTRACE (Docker) or securityContext.capabilities.add: [SYS_PTRACE] (Kubernetes)"
                    : "this looks like a container without CAP_SYS_PTRACE, or a seccomp profile that blocks ptrace: add --cap-add=SYS_PTRACE (Docker) or securityContext.capabilities.add: [SYS_PTRACE] (Kubernetes)");
        } else {
            sb.append("CAP_SYS_PTRACE is held, so a seccomp profile or LSM (AppArmor, SELinux) blocks ptrace, or the target is already traced (a debugger, another strace): run with --security-opt seccomp=unconfined (Docker) or detach the other tracer");
        }
        return sb.toString();
    }

    /** The same, with Yama's setting and this process's capabilities read from {@code root}. */
    public static String ptraceAdvice(String stderr, boolean attach, FsRoot root) {
        OptionalInt scope = root.text("/proc/sys/kernel/yama/ptrace_scope").map(s -> {
            try {
                return OptionalInt.of(Integer.parseInt(s.strip()));
            } catch (NumberFormatException e) {
                return OptionalInt.empty();
            }
        }).orElse(OptionalInt.empty());
        return ptraceAdvice(stderr, attach, scope, hasCapSysPtrace(root));
    }

    /** Its bit in the capability mask (linux/capability.h). */
    static final int CAP_SYS_PTRACE = 19;

    /** CAP_SYS_PTRACE in CapEff of /proc/self/status. */
    static Optional<Boolean> hasCapSysPtrace(FsRoot root) {
        return ProcStatus.read(root, "/proc/self/status").flatMap(s -> s.effective(CAP_SYS_PTRACE));
    }
}
