package hostside.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import hostside.bundle.Bundle;
import hostside.bundle.Bundler;
import hostside.bundle.HostsideJar;
import hostside.bundle.JavaHome;
import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Printable;
import hostside.core.Shell;
import hostside.core.Units;
import hostside.fs.OutputFile;
import hostside.fs.OutputFolder;

@Command(name = "bundle", mixinStandardHelpOptions = true,
        header = "Pack hostside and a Java runtime of its own into one .tar.gz.",
        description = {"For machines without a JDK 25 (Slurm nodes, container images): writes FILE holding one folder, hostside/, with hostside.jar, a Java"
                + " runtime linked with this JDK's jlink (java.base and java.management), a start-up cache and a launcher that needs nothing else."
                + " Copy it there (sbcast, a Dockerfile's ADD, scp) and run: tar xzf hostside-bundle.tar.gz && ./hostside/hostside report.",
                "Run from a bundle, where the runtime has no jlink, it packs that runtime as it is. Prints the bundle's SHA-256 in sha256sum's format,"
                        + " to check copies against."})
public final class BundleCommand implements Callable<Integer> {
    static final String DEFAULT = "hostside-bundle.tar.gz";

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = DEFAULT, description = "The bundle's file (default: " + DEFAULT + ").")
    Path output;

    @Option(names = "--json", description = "Print machine-readable JSON on stdout, nothing else there.")
    boolean json;

    /** For a hostside run from compiled classes (an IDE, the tests), where there is no jar of its own to ship. */
    @Option(names = "--jar", hidden = true, paramLabel = "FILE", description = "The hostside jar to ship (default: the one running).")
    Path jar;

    /** For the tests: another JDK to link from, or a runtime without jlink to pack as it is. */
    @Option(names = "--java-home", hidden = true, paramLabel = "DIR", description = "The JDK to link the runtime with (default: the one running).")
    Path javaHome;

    @Spec
    CommandSpec spec;

    /** The runtime linked (~60 MB), the start-up cache (~25 MB), the jar and the bundle itself, with room to spare. */
    static final long ROOM = 256L << 20;

    @Override
    public Integer call() throws IOException {
        Path out = output.toAbsolutePath();
        Path dir = OutputFolder.of(output, "-o");
        if (Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS)) throw new BadInputException("-o " + output + ": is a folder; name the file, e.g. " + output.resolve(DEFAULT));
        // A link there may be someone's pointer to a file elsewhere, a device the system's: neither is written through nor replaced.
        OutputFile.checkTarget(out, "-o");
        HostsideJar shipped = jar == null ? HostsideJar.running(Main.class) : HostsideJar.of(jar, "--jar");
        if (Files.exists(out) && Files.isSameFile(out, shipped.path())) throw new BadInputException("-o " + output + ": is the jar to be bundled; name another file");
        JavaHome java = javaHome == null ? JavaHome.running() : JavaHome.of(javaHome, "--java-home");
        OutputFolder.check(dir, "-o", ROOM);

        PrintWriter err = spec.commandLine().getErr();
        Bundle b = new Bundler(line -> {
            err.println("hostside: " + Printable.of(line));
            err.flush();
        }).make(output, shipped, java);

        PrintWriter w = spec.commandLine().getOut();
        if (json) {
            w.print(Json.write(b));
        } else {
            w.printf(Locale.ROOT, "wrote %s (%s): hostside %s, Java %s%s%s%n", ReportCommand.shown(output), Units.bytes(b.bytes()), b.hostside(), b.jdk(),
                    b.modules().isEmpty() ? "" : " (" + String.join(", ", b.modules()) + ")", b.startupCache() ? ", start-up cache" : "");
            w.printf(Locale.ROOT, "%s  %s%n", b.sha256(), ReportCommand.shown(output));
            w.printf(Locale.ROOT, "run it anywhere: tar xzf %s && ./hostside/hostside report%n", Printable.of(Shell.quote(output.toString())));
        }
        w.flush();
        return Main.OK;
    }
}
