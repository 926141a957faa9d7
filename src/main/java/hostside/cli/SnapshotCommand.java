package hostside.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Printable;
import hostside.core.Shell;
import hostside.core.Units;
import hostside.fs.FsRoot;
import hostside.fs.OutputFile;
import hostside.fs.OutputFolder;
import hostside.fs.Recorder;
import hostside.machine.MachineFacts;
import hostside.snapshot.Snapshot;

@Command(name = "snapshot", mixinStandardHelpOptions = true,
        header = "Record the /sys and /proc files hostside reads into a .tar.gz.",
        description = {"Records exactly the /sys and /proc files hostside reads, in the layout of hwloc-gather-topology, so that the machine can be read elsewhere: hostside machine --root FILE."})
public final class SnapshotCommand implements Callable<Integer> {
    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.tar.gz", description = "Where to write the recording.")
    Path output;

    @Mixin
    MachineOptions options;

    @Spec
    CommandSpec spec;

    /** A snapshot of a large machine is a few MiB compressed. */
    static final long ROOM = 64L << 20;

    @Override
    public Integer call() throws IOException {
        Path out = output.toAbsolutePath();
        Path dir = OutputFolder.of(output, "-o");
        OutputFile.checkTarget(out, "-o");
        OutputFolder.check(dir, "-o", ROOM);

        FsRoot fs = options.open();
        Recorder recorder = fs.record();
        MachineFacts facts = Snapshot.readEverything(fs);
        String top = Snapshot.topFolder(facts.host().name());
        try {
            recorder.writeTarGz(out, top);
        } catch (IOException e) {
            throw new BadInputException(output + ": cannot write (" + OutputFile.reason(e) + ")");
        }
        var w = spec.commandLine().getOut();
        if (options.json) {
            w.print(Json.write(java.util.Map.of("snapshot", out.toString(), "entries", recorder.size(),
                    "bytes", Files.size(out))));
        } else {
            w.printf(java.util.Locale.ROOT, "wrote %s: %d entries, %s; read it anywhere with: hostside machine --root %s%n", ReportCommand.shown(output),
                    recorder.size(), Units.bytes(Files.size(out)), Printable.of(Shell.quote(output.toString())));
        }
        w.flush();
        return 0;
    }
}
