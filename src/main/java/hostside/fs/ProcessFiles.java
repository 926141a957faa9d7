package hostside.fs;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a snapshot may keep of the files that describe processes, in one place so that no reader
 * can widen it by accident (docs/snapshot.md says the same in prose). A snapshot is shipped to
 * colleagues and attached to tickets; in a container PID 1 is the training entrypoint, whose
 * environment holds cloud keys and tokens and whose arguments often do too.
 * <ul>
 *   <li>No {@code environ} file, of any process or thread, ever: readers ask {@link FsRoot#environVariable}
 *       for the one variable they need, which records nothing.</li>
 *   <li>PID 1's {@code cmdline}: its executable's name only (see {@link #executableName}), which is all
 *       the container reader keeps of it. No other process's {@code cmdline}: no reader needs one from a
 *       recording.</li>
 *   <li>{@code comm} of PID 1 (its name where the command line is unreadable) and PID 2 (kthreadd tells
 *       the host's PID namespace from a container's). Other processes' names are read live only (is
 *       irqbalance running?), and a recording answers "unknown" there anyway.</li>
 * </ul>
 */
public final class ProcessFiles {
    /** What is recorded of a file. */
    enum Keep { ALL, NAME_ONLY, NOTHING }

    /** Paths come resolved (/proc/self is a link to a number), but a recording may hold self as a plain folder. */
    private static final Pattern PROCESS_FILE = Pattern.compile("/proc/(\\d+|self|thread-self)(/task/\\d+)?/(cmdline|comm)");

    private ProcessFiles() {}

    /** How much of the file at this resolved path a recording keeps. */
    static Keep keep(String path) {
        if (path.endsWith("/environ")) return Keep.NOTHING; // the path is resolved: a link to one ends here too
        Matcher m = PROCESS_FILE.matcher(path);
        if (!m.matches()) return Keep.ALL;
        boolean task = m.group(2) != null;
        String pid = m.group(1);
        if (m.group(3).equals("cmdline")) return !task && pid.equals("1") ? Keep.NAME_ONLY : Keep.NOTHING;
        return !task && (pid.equals("1") || pid.equals("2")) ? Keep.ALL : Keep.NOTHING;
    }

    /** A command line cut to its executable's name, NUL-terminated as the kernel writes it; empty when it has none. */
    static byte[] nameOnly(byte[] cmdline) {
        String name = executableName(new String(cmdline, StandardCharsets.UTF_8));
        return name == null ? new byte[0] : (name + "\0").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The executable's name from a /proc/PID/cmdline (NUL-separated arguments): the last path
     * component of argv[0], null when there is none (a kernel thread, a zombie). A process that
     * rewrote its title (setproctitle: nginx, postgres, Python's setproctitle) puts its arguments
     * into argv[0] after spaces, so only the first word counts, and its "nginx:" colon goes.
     */
    public static String executableName(String cmdline) {
        if (cmdline == null) return null;
        int nul = cmdline.indexOf('\0');
        String argv0 = (nul < 0 ? cmdline : cmdline.substring(0, nul)).strip();
        if (argv0.isEmpty()) return null;
        String first = argv0.split("\\s+")[0];
        String name = first.substring(first.lastIndexOf('/') + 1);
        if (name.endsWith(":")) name = name.substring(0, name.length() - 1);
        return name.isEmpty() ? null : name;
    }
}
