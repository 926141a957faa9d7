package hostside;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs hostside in a JVM of its own, for the tests that signal it (Ctrl-C,
 * SIGKILL) as a user would.
 *
 * <p>A test run started in the background ({@code nohup}, {@code &} in a script) runs with SIGINT
 * ignored, every child inherits that, and a JVM that starts with SIGINT ignored keeps ignoring it,
 * as any Unix program does: such a run would see hostside "not exit on SIGINT" when it never
 * received one. Where this JVM ignores SIGINT, the child's is put back to its default first
 * ({@code env --default-signal=INT}, coreutils 8.31 or newer); elsewhere the command is java itself.
 */
public final class HostsideJvm {
    private HostsideJvm() {}

    /** env --default-signal=INT java [jvmOptions] -cp CLASSPATH hostside.cli.Main [args]. */
    public static List<String> command(List<String> jvmOptions, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        if (sigintIgnored()) cmd.addAll(List.of("env", "--default-signal=INT"));
        cmd.addAll(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "hostside.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Bit 1 (SIGINT is signal 2) of SigIgn in /proc/self/status, the mask of ignored signals. */
    static boolean sigintIgnored() {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 0x2) != 0;
            }
        } catch (java.io.IOException | NumberFormatException e) {
            // not Linux's /proc: assume the default disposition
        }
        return false;
    }

    public static List<String> command(String... args) {
        return command(List.of(), args);
    }
}
