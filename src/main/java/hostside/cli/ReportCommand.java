package hostside.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Printable;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.fs.FsRoot;
import hostside.fs.OutputFile;
import hostside.fs.OutputFolder;
import hostside.io.IoDrill;
import hostside.machine.Host;
import hostside.machine.MachineIdentity;
import hostside.report.Profile;
import hostside.report.Report;
import hostside.report.ReportDocument;
import hostside.report.ReportFiles;
import hostside.report.ReportReader;

@Command(name = "report", mixinStandardHelpOptions = true,
        header = "The one-page profile of this machine, written to results/.",
        description = {"Module 6: writes results/<host>.json, then results/<host>.md and results/<host>.html drawn from that JSON read back: the four questions, the headline numbers, the machine's class and the run's conditions, each module, and every figure typed.",
                "It runs the drills of Modules 1 to 4 (44-47 s and 1.13 GiB of test files on a 2-core VM; 1 min 8 s to 1 min 16 s and 3.7 GiB of memory, STREAM's arrays most of it, on an H100 VM before its latest cuts) and checks --out, --dir and --size before it starts; under --root it reports facts only."})
public final class ReportCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Option(names = "--out", paramLabel = "DIR", description = "Write into DIR instead of results/.")
    Path out = Path.of("results");

    @Option(names = "--name", description = "File name to use instead of the short host name and a short hash of the machine's identity.")
    String name;

    /** The storage drill's --dir and --size, as hostside io takes them: where the checkpoints live. */
    @Mixin
    StorageOptions storage;

    @Option(names = "--quick", description = "Measure only the headline figures (the four answers and the headline table), each as the full report measures it, "
            + "for sweeps over a fleet: 14-17 s on a 2-core VM, 15 s on an H100 VM before its latest cuts; the cases it skips say so, and the report records its mode.")
    boolean quick;

    @Option(names = "--from", paramLabel = "REPORT.json", description = "Draw the Markdown and HTML again from a report's JSON (schema hostside/1 or hostside/2); reads no machine.")
    Path from;

    @Spec
    CommandSpec spec;

    /** Module 4's reads and writes in --dir (else the default folder), sampled as `hostside io` samples them (its loops stop once their medians settle). */
    public IoDrill.Options ioOptions() {
        return storage.drill(null, null);
    }

    /** Room a report needs: its JSON and Markdown are well under a MiB each; this leaves slack for a large box. */
    static final long ROOM = 8L << 20;

    @Override
    public Integer call() {
        // Everything that can be wrong with the destination is found first, not after minutes of measuring.
        OutputFolder.check(out, "--out", ROOM);
        if (from != null && (storage.dir != null || storage.size != null || quick)) {
            throw new BadInputException("--from renders a report again and measures nothing: --dir, --size and --quick have no use with it");
        }
        storage.check(spec.findOption("--root").getValue() == null);
        JsonNode old = from == null ? null : readJson(from);
        FsRoot fs = from == null ? options.open() : null;
        MachineIdentity identity = fs == null ? null : MachineIdentity.read(fs);
        Host machine = fs == null ? null : Host.read(fs); // read once: it parses /proc/cpuinfo
        String host = name != null ? checkName(name, "--name: ")
                : from != null ? checkName(from.getFileName().toString().replaceFirst("\\.json$", ""), "--from " + from + ": its file name, ")
                : checkName(identity.nameFor(hostName(fs, machine)), fs.isLive() ? "this machine's host name, " : "the recorded host name, ");
        Path dir = out.toAbsolutePath();
        Path jsonFile = dir.resolve(host + ".json"), mdFile = dir.resolve(host + ".md"), htmlFile = dir.resolve(host + ".html");
        for (Path p : List.of(jsonFile, mdFile, htmlFile)) OutputFile.checkTarget(p, "--out");

        JsonNode json = old != null ? old : Json.MAPPER.valueToTree(measure(fs, Report.Machine.of(host, machine.name(), identity)));
        String text = Json.write(json);
        // The pages are drawn from the JSON read back into the records, never from what is only in memory:
        // the .md and .html can show nothing the .json does not hold, and every run proves the JSON reads back.
        Document page = ReportDocument.of(ReportReader.read(json, from != null ? from.toString() : "the report just measured"));
        write(List.of(part(jsonFile, text), part(mdFile, new MarkdownRenderer().render(page)),
                part(htmlFile, new HtmlRenderer().render(page))));
        var w = spec.commandLine().getOut();
        if (options.json) w.print(text);
        else w.printf("wrote %s, %s and %s%n", shown(mdFile), shown(htmlFile), shown(jsonFile));
        w.flush();
        return 0;
    }

    /**
     * The report's file name: letters, digits, '.', '_' and '-', so that it is one word in any
     * shell and on any file system. The message names where the name came from ({@code whence}):
     * --name, or the --from file or the host name it was made from, which --name replaces.
     */
    private static String checkName(String host, String whence) {
        if (host.matches("[A-Za-z0-9._-]+") && !host.startsWith(".")) return host;
        String usable = " (letters, digits, '.', '_' and '-', and no '.' first)";
        if (whence.startsWith("--name")) throw new BadInputException(whence + "\"" + host + "\" is not a usable file name" + usable);
        throw new BadInputException(whence + "\"" + host + "\", is not a usable file name for the report" + usable + "; give one with --name");
    }

    /**
     * The short host name, as the facts will give it, read before anything is measured; a
     * recording without one is named after its file. The default report name adds the hash of the
     * machine's identity to it ({@link MachineIdentity#nameFor}).
     */
    private static String hostName(FsRoot fs, Host machine) {
        String n = machine.name();
        if (!n.isEmpty()) return n;
        return fs.isLive() ? "localhost" : Path.of(fs.describe()).getFileName().toString().replaceFirst("\\.tar(\\.gz|\\.bz2)?$|\\.tgz$", "");
    }

    /** The drills in turn, each case on stderr under the outer level: drill i of n. */
    private Report measure(FsRoot fs, Report.Machine machine) {
        // a recording measures nothing and takes a second: no drill lines for it
        try (Progress progress = fs.isLive() ? Progress.forStderr() : Progress.silent()) {
            return Profile.measure(fs, machine, ioOptions(), quick ? Profile.Mode.QUICK : Profile.Mode.FULL, progress);
        }
    }

    /** A report's JSON, whole ({@link ReportFiles#json}). */
    static JsonNode readJson(Path p) {
        return ReportFiles.json(p);
    }

    /** A path as the user may see it: their own, but shown without its controls as everything else is. */
    static String shown(Path p) {
        return Printable.of(p.toString());
    }

    private static OutputFile.Part part(Path file, String text) {
        return new OutputFile.Part(file, out -> out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /**
     * Through {@link OutputFile}, as one set: the three files are this run's, or the last run's
     * where one could not be written (a full disk), never a mix; a planted symlink or a device at
     * a name is refused, never followed or replaced.
     */
    private static void write(List<OutputFile.Part> parts) {
        try {
            OutputFile.writeSet(parts);
        } catch (OutputFile.NotARegularFile e) {
            throw new BadInputException(e.getFile() + ": " + e.getReason());
        } catch (IOException e) {
            throw new BadInputException("--out " + parts.getFirst().target().getParent() + ": cannot write the report (" + OutputFile.reason(e) + ")");
        }
    }
}
