package hostside.container;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import hostside.container.ContainerFacts.Namespaces;
import hostside.container.ContainerFacts.Ns;
import hostside.fs.FsRoot;
import hostside.fs.ProcessFiles;
import hostside.fs.Read;

/**
 * This process's namespaces against PID 1's, and what PID 1 is. Equal to PID 1's means "the
 * host's" only when PID 1 is the host's init, which a PID namespace of its own hides: there PID 1
 * is the container's first process. The kernel's own threads tell the two apart: kthreadd is
 * PID 2 in the host's PID namespace and absent from every other.
 */
final class NamespaceReader {
    static final List<String> KINDS = List.of("ipc", "pid", "net", "user", "mnt", "uts", "cgroup");
    /** Programs made to be PID 1: they reap orphans and pass signals on. docker --init runs tini as docker-init. */
    static final Set<String> INITS = Set.of("tini", "tini-static", "docker-init", "dumb-init", "catatonit", "systemd", "init",
            "s6-svscan", "runit", "runsvdir", "supervisord", "pause", "openrc-init");
    static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "ash", "zsh", "ksh");
    /** The initial user namespace maps every uid to itself. */
    static final String IDENTITY_MAP = "0 0 4294967295";

    private NamespaceReader() {}

    static Namespaces read(FsRoot fs, List<String> unknowns) {
        String self = fs.readLink("/proc/self").filter(s -> s.matches("\\d+")).orElse(null);
        boolean selfIsPid1 = "1".equals(self);
        String pidSelf = ns(fs, "/proc/self/ns/pid"), pidOne = ns(fs, "/proc/1/ns/pid");
        Boolean own;
        String why;
        Optional<String> comm2 = fs.text("/proc/2/comm");
        if (pidSelf != null && pidOne != null && !pidSelf.equals(pidOne)) {
            own = true;
            why = "this process's PID namespace (" + pidSelf + ") is not PID 1's (" + pidOne + "): /proc is an outer namespace's";
        } else if (comm2.isPresent()) {
            own = !comm2.get().equals("kthreadd");
            why = own ? "PID 2 is " + comm2.get() + ", not kthreadd: a PID namespace of its own"
                    : "kthreadd is PID 2: the host's PID namespace";
        } else if (fs.isLive() && fs.isDirectory("/proc/1")) {
            own = true;
            why = "no kthreadd as PID 2: kernel threads show only in the host's PID namespace, so this one is its own";
        } else {
            own = null;
            why = "unknown: /proc/2 is not in this recording";
        }
        String pid1 = pid1Name(fs);
        String kind = selfIsPid1 ? "this process" : Boolean.FALSE.equals(own) ? "host init" : kind(pid1);

        List<Ns> list = new ArrayList<>();
        for (String k : KINDS) {
            String mine = ns(fs, "/proc/self/ns/" + k), theirs = ns(fs, "/proc/1/ns/" + k);
            list.add(new Ns(k, mine, theirs, relation(mine, theirs, selfIsPid1, own, k)));
        }
        if (list.stream().allMatch(n -> n.self() == null) && fs.isDirectory("/proc/self")) {
            unknowns.add("/proc/self/ns: no namespace links readable");
        }
        String uidMap = fs.text("/proc/self/uid_map").map(t -> String.join("; ", t.strip().lines().map(l -> l.strip().replaceAll("\\s+", " ")).toList()))
                .orElse(null);
        Boolean userNs = uidMap == null ? null : !uidMap.equals(IDENTITY_MAP);
        return new Namespaces(List.copyOf(list), own, why, pid1, kind, userNs, uidMap);
    }

    private static String relation(String mine, String theirs, boolean selfIsPid1, Boolean ownPid, String kind) {
        if (mine == null) return "unknown: /proc/self/ns/" + kind + " unreadable";
        if (selfIsPid1) return "this process is PID 1";
        if (theirs == null) return "unknown: PID 1's is unreadable (needs ptrace access to PID 1)";
        if (!mine.equals(theirs)) return "own";
        return Boolean.FALSE.equals(ownPid) ? "shared with the host" : "shared with PID 1";
    }

    /** "ipc:[4026531839]" as the link reads; null when unreadable. */
    private static String ns(FsRoot fs, String path) {
        return fs.readLink(path).orElse(null);
    }

    /**
     * PID 1's executable name (argv[0]'s last component), its comm when the command line cannot be
     * read. Never its arguments: they go into the report and its findings, and a training
     * entrypoint's arguments carry tokens and bucket paths.
     */
    private static String pid1Name(FsRoot fs) {
        Read r = fs.read("/proc/1/cmdline");
        String name = r instanceof Read.Ok ok ? ProcessFiles.executableName(ok.text()) : null;
        return name != null ? name : fs.text("/proc/1/comm").filter(c -> !c.isEmpty()).orElse(null);
    }

    /**
     * init (reaps and forwards), shell (reaps, does not forward SIGTERM), or the program itself,
     * from an executable's name or path (a command line's first word counts).
     */
    static String kind(String command) {
        if (command == null || command.isBlank()) return null;
        String first = command.strip().split("\\s+")[0];
        String name = first.substring(first.lastIndexOf('/') + 1);
        if (name.startsWith("-")) name = name.substring(1); // a login shell's argv[0]: "-bash"
        if (INITS.contains(name)) return "init";
        if (SHELLS.contains(name)) return "shell";
        return "program";
    }
}
