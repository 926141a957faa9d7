package hostside.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Printable;
import hostside.core.Style;
import hostside.doc.TextRenderer;
import hostside.machine.MachineFacts;
import hostside.report.Report;
import hostside.report.ReportFiles;
import hostside.report.compare.CompareDocument;
import hostside.report.compare.Comparison;

@Command(name = "compare", mixinStandardHelpOptions = true,
        header = "Reports of several machines side by side, and a fleet's outliers.",
        description = {"Compares hostside reports (REPORT.json files, or a folder of them): grouped by hardware class only; up to 8 machines side by side "
                + "(figures as rows, the difference to the first or to --baseline), more as per-figure statistics; outliers by the modified z-score "
                + "and a tolerance in the bad direction (5%% bandwidth, 10%% latency, 25%% jitter tails), with a probable cause where exactly one fact "
                + "of the machine differs from its class. Two reports of one machine show the noise floor: start there.",
                "Exit codes: 0 compared, 1 with --strict when any machine is an outlier or below its class's floor, 2 bad input."})
public final class CompareCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "REPORT.json|DIR", description = "Reports to compare, or one folder: every report JSON in it.")
    List<Path> paths;

    @Option(names = "--baseline", paramLabel = "NAME", description = "The machine the others are set against side by side (default: the first).")
    String baseline;

    @Option(names = "--json", description = "Print machine-readable JSON on stdout, nothing else there.")
    boolean json;

    @Option(names = "--strict", description = "Exit 1 when any machine is an outlier or below its reference class's floor (for a Slurm epilog or CI).")
    boolean strict;

    @Spec
    CommandSpec spec;

    /** More reports than a fleet of ten thousand nodes: a folder that holds more is not a fleet's results. */
    static final int MAX_REPORTS = 10_000;

    @Override
    public Integer call() {
        List<Comparison.Input> inputs = read(files());
        if (baseline != null && inputs.stream().noneMatch(i -> i.name().equals(baseline))) {
            throw new BadInputException("--baseline: no report of a machine named \"" + baseline + "\" among " + inputs.size());
        }
        Comparison c = Comparison.of(inputs);
        var out = spec.commandLine().getOut();
        if (json) {
            ObjectNode n = Json.MAPPER.createObjectNode();
            n.put("schema", MachineFacts.SCHEMA);
            n.put("kind", "compare");
            n.put("fleet", c.fleet());
            n.set("machines", Json.MAPPER.valueToTree(c.machines()));
            n.set("classes", Json.MAPPER.valueToTree(c.classes()));
            n.set("outliers", Json.MAPPER.valueToTree(c.outliers()));
            n.set("ranked", Json.MAPPER.valueToTree(c.ranked()));
            n.set("pairs", Json.MAPPER.valueToTree(c.pairs()));
            n.set("belowFloor", Json.MAPPER.valueToTree(c.belowFloor()));
            out.print(Json.write(n));
        } else if (inputs.size() == 1) {
            // one report is no fleet and no pair: a table of its figures beside nothing would read as a comparison
            out.println("hostside compare: one report (" + Printable.of(inputs.getFirst().name()) + "): nothing to compare it with; give two"
                    + " reports or more, or a folder of them (two runs of one machine give its noise floor)");
        } else {
            out.print(new TextRenderer(Style.forTerminal()).render(CompareDocument.of(c, inputs, baseline)));
        }
        out.flush();
        return strict && (!c.outliers().isEmpty() || !c.belowFloor().isEmpty()) ? 1 : 0;
    }

    /** The files named, or every *.json in the one folder named (regular files only: a link is not followed). */
    private List<Path> files() {
        if (paths.size() == 1 && Files.isDirectory(paths.getFirst(), LinkOption.NOFOLLOW_LINKS)) {
            Path dir = paths.getFirst();
            try (Stream<Path> s = Files.list(dir)) {
                List<Path> named = s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().limit(MAX_REPORTS + 1L).toList();
                if (named.size() > MAX_REPORTS) throw new BadInputException(dir + ": more than " + MAX_REPORTS + " .json files");
                List<Path> found = new ArrayList<>();
                var err = spec.commandLine().getErr();
                for (Path p : named) {
                    // what is not a regular file is never opened, and said, as a damaged report is: the count that follows adds up
                    String what = notARegularFile(p);
                    if (what == null) found.add(p);
                    else err.println("hostside: passed over " + p + ": " + what);
                }
                if (found.isEmpty()) throw new BadInputException(dir + ": no .json file in it that is a regular file");
                return found;
            } catch (IOException e) {
                throw new BadInputException(dir + ": cannot list it (" + e.getMessage() + ")");
            }
        }
        for (Path p : paths) {
            // a link is never followed (issue 36), not even one named here: its target is said, so the folder can be given itself
            if (Files.isSymbolicLink(p) && Files.isDirectory(p)) {
                throw new BadInputException(p + ": a symbolic link to a folder, which compare does not follow; give the folder itself (" + target(p) + ")");
            }
            if (Files.isDirectory(p)) throw new BadInputException(p + ": a folder, given with other paths; give one folder alone, or files");
        }
        return paths;
    }

    /** Null for a regular file; else what it is ("a symbolic link, not followed", "a FIFO"), looked at without following a link. */
    private static String notARegularFile(Path p) {
        try {
            var a = Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isRegularFile()) return null;
            if (a.isSymbolicLink()) return "a symbolic link, not followed";
            if (a.isDirectory()) return "a folder";
            return "not a regular file (a FIFO, socket or device is never opened)";
        } catch (IOException e) {
            return "cannot be read (" + e.getMessage() + ")";
        }
    }

    /** Where the link {@code p} leads, for the user to give instead. */
    private static String target(Path p) {
        try {
            return p.toRealPath().toString();
        } catch (IOException e) {
            return "its target cannot be read: " + e.getMessage();
        }
    }

    /**
     * Every report, named by its machine; a name seen before gets its file's name beside it (two
     * reports of one machine: the noise floor). In a folder, JSON that is no hostside report (a
     * machine --json, a job's log) is passed over and said on stderr; a file named on the command
     * line that is none is bad input.
     */
    private List<Comparison.Input> read(List<Path> files) {
        boolean folder = paths.size() == 1 && Files.isDirectory(paths.getFirst(), LinkOption.NOFOLLOW_LINKS);
        List<Comparison.Input> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        var err = spec.commandLine().getErr();
        for (Path p : files) {
            Report.Head r;
            try {
                r = ReportFiles.head(p); // one at a time, its head alone: what compare holds grows with the figures, not the files
            } catch (BadInputException e) {
                if (!folder) throw e;
                err.println("hostside: passed over " + e.getMessage());
                continue;
            }
            String name = r.machine() == null || r.machine().name() == null ? p.getFileName().toString().replaceFirst("\\.json$", "") : r.machine().name();
            if (seen.merge(name, 1, Integer::sum) > 1) name = name + " (" + p.getFileName() + ")";
            out.add(new Comparison.Input(name, r));
        }
        err.flush();
        if (out.isEmpty()) throw new BadInputException(paths.getFirst() + ": no hostside report in it");
        return out;
    }
}
