package hostside.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.time.ZonedDateTime;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.cli.Json;
import hostside.cli.MachineOptions;
import hostside.fs.BadInputException;
import hostside.fs.FsRoot;
import hostside.machine.MachineFacts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Module 6: the one-page profile. Writes results/<host>.md and results/<host>.json (the",
                "Markdown is rendered from the JSON): the four questions, headline numbers, then each module.",
                "Runs the drills of Modules 1 to 3 (about a minute and a half on a GPU machine); under --root, facts only."})
public final class ReportCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Option(names = "--out", paramLabel = "DIR", description = "Write into DIR instead of results/.")
    Path out = Path.of("results");

    @Option(names = "--name", description = "File name to use instead of the short host name.")
    String name;

    @Option(names = "--from", paramLabel = "REPORT.json", description = "Render the Markdown again from a report's JSON; reads no machine.")
    Path from;

    @Spec
    CommandSpec spec;

    /** Module 4's reads and writes in the default folder, with shorter random-read samples to keep the report near its minute. */
    static hostside.io.IoRun ioRun(FsRoot fs) {
        hostside.io.IoDrill.Options shorter = new hostside.io.IoDrill.Options(null, null, null, 500L);
        try {
            return hostside.io.IoCommand.run(fs, hostside.io.IoDrill.tests(), shorter, true);
        } catch (BadInputException e) {
            // no room for the test file in the default folder: the report says so and goes on
            return new hostside.io.IoRun(hostside.machine.Host.read(fs), hostside.io.IoDrill.facts(fs, shorter), List.of(), null,
                    hostside.io.IoDrill.notRun(hostside.io.IoDrill.tests(), e.getMessage()), List.of());
        }
    }

    @Override
    public Integer call() {
        JsonNode json;
        String host;
        if (from != null) {
            json = readJson(from);
            host = name != null ? name : from.getFileName().toString().replaceFirst("\\.json$", "");
        } else {
            FsRoot fs = options.open();
            hostside.machine.MachineRun run = hostside.machine.MachineCommand.run(fs, hostside.machine.GpuDrill.tests(),
                    hostside.machine.GpuDrill.allGpuTests(), true);
            MachineFacts facts = run.facts();
            hostside.vm.VmRun vm = hostside.vm.VmCommand.run(fs, hostside.vm.VmDrill.hostTests(), hostside.vm.VmDrill.gpuTests(),
                    new hostside.vm.VmDrill.FileOptions(null, null, null), true);
            hostside.cpu.CpuRun cpu = hostside.cpu.CpuCommand.run(fs, hostside.cpu.CpuDrill.measurements(),
                    hostside.cpu.dataloader.DataLoaderTarget.tests(), hostside.cpu.CpuDrill.Settings.defaults(), true);
            hostside.io.IoRun io = ioRun(fs);
            hostside.container.ContainerRun container = hostside.container.ContainerCommand.run(fs,
                    fs.isLive() ? hostside.container.LiveProcess.current() : hostside.container.LiveProcess.recorded(), null, null, null);
            Report report = ReportBuilder.build(run, vm, cpu, io, container, ZonedDateTime.now());
            json = Json.MAPPER.valueToTree(report);
            host = name != null ? name : !facts.host().name().isEmpty() ? facts.host().name()
                    : fs.isLive() ? "localhost" : Path.of(fs.describe()).getFileName().toString().replaceFirst("\\.tar(\\.gz|\\.bz2)?$|\\.tgz$", "");
        }
        if (!host.matches("[A-Za-z0-9._-]+")) throw new BadInputException("--name: \"" + host + "\" is not a usable file name");
        Path dir = out.toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BadInputException(out + ": cannot create the folder (" + e.getMessage() + ")");
        }
        if (!Files.isWritable(dir)) throw new BadInputException(out + ": folder is not writable");
        Path jsonFile = dir.resolve(host + ".json"), mdFile = dir.resolve(host + ".md");
        String text = Json.write(json);
        String md = MarkdownRenderer.render(json);
        write(jsonFile, text);
        write(mdFile, md);
        var w = spec.commandLine().getOut();
        if (options.json) w.print(text);
        else w.printf("wrote %s and %s%n", mdFile, jsonFile);
        w.flush();
        return 0;
    }

    private static JsonNode readJson(Path p) {
        try {
            JsonNode n = Json.MAPPER.readTree(p.toFile());
            if (n == null || !"report".equals(n.path("kind").asText())) throw new BadInputException(p + ": not a hostside report");
            return n;
        } catch (IOException e) {
            throw new BadInputException(p + ": cannot read a report (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /** Writes beside the target and renames, so a failure never leaves half a report. */
    private static void write(Path file, String text) {
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        try {
            Files.writeString(tmp, text);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // nothing more to clean
            }
            throw new BadInputException(file + ": cannot write (" + e.getMessage() + ")");
        }
    }
}
