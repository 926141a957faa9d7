package hostside.bundle;

import java.util.List;

/** The bundle's README: what it is, how to run it, and what is inside. */
final class Readme {
    private Readme() {}

    /** The paragraph, wrapped at this width for a terminal's cat. */
    static final int WIDTH = 78;

    static String of(String hostsideVersion, JavaHome from, boolean linked, List<String> modules, boolean startupCache) {
        String vendor = from.vendor().isBlank() ? "" : from.vendor() + ", ";
        return wrap("hostside " + hostsideVersion + " with a Java runtime of its own, for Linux machines on " + from.arch()
                + " without a JDK 25: run ./hostside COMMAND here,"
                + " e.g. ./hostside report (this machine's one-page profile, written to results/ in the working directory),"
                + " ./hostside machine --json or ./hostside --help; nothing needs installing."
                + " hostside.jar runs on runtime/, Java " + from.version() + " (" + vendor + (linked ? "made with jlink" : "packed as it was")
                + ")" + (modules.isEmpty() ? "" : " holding the modules " + String.join(", ", modules)) + "."
                + (startupCache ? " hostside.aot is a start-up cache (a JDK AOT cache) trained on this jar when the bundle was made;"
                        + " ./hostside uses it for the commands that measure nothing, while it has hostside.jar's time stamp (HOSTSIDE_NO_AOT=1: never)." : "")
                + " HOSTSIDE_JAVA_OPTS adds JVM options. Made by hostside bundle; the project's README and docs/commands.md say more.");
    }

    static String wrap(String text) {
        StringBuilder out = new StringBuilder();
        int line = 0;
        for (String word : text.split(" ")) {
            if (line > 0 && line + 1 + word.length() > WIDTH) {
                out.append('\n');
                line = 0;
            } else if (line > 0) {
                out.append(' ');
                line++;
            }
            out.append(word);
            line += word.length();
        }
        return out.append('\n').toString();
    }
}
