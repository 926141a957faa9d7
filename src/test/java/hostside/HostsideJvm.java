package hostside;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs hostside in a JVM of its own, for the tests that signal it (Ctrl-C,
 * SIGKILL) as a user would.
 *
 * <p>SIGINT is put back to its default first ({@code env --default-signal=INT}, coreutils 8.31
 * or newer): a test run started in the background ({@code nohup}, {@code &} in a script) runs with
 * SIGINT ignored, every child inherits that, and a JVM that starts with SIGINT ignored keeps
 * ignoring it, as any Unix program does. Without this such a run sees hostside "not exit on
 * SIGINT" when it never received one.
 */
public final class HostsideJvm {
    private HostsideJvm() {}

    /** env --default-signal=INT java [jvmOptions] -cp CLASSPATH hostside.cli.Main [args]. */
    public static List<String> command(List<String> jvmOptions, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT", java, "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "hostside.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    public static List<String> command(String... args) {
        return command(List.of(), args);
    }
}
