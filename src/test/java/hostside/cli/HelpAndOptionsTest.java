package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.vm.explain.CowScenarios;

/** What a newcomer reads first: whole-sentence summaries, -V everywhere, the same option taking the same values. */
class HelpAndOptionsTest {
    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    /** Every hostside command but picocli's help, by name. */
    static Map<String, CommandLine> commands() {
        Map<String, CommandLine> all = new TreeMap<>(new CommandLine(new Main()).getSubcommands());
        all.remove("help");
        return all;
    }

    @Test
    void theCommandListHasOneWholeSentencePerCommand() {
        Result r = run("--help");
        assertThat(r.code()).isZero();
        List<String> lines = r.out().lines().toList();
        List<String> list = lines.subList(lines.indexOf("Commands:") + 1, lines.size());
        // one line per command, none cut: a wrapped or cut summary leaves a line that does not end a sentence
        assertThat(list).hasSize(commands().size() + 1);
        for (String line : list) {
            assertThat(line).as(line).matches("  [a-z]+ +[A-Z].*\\.");
            assertThat(line.strip().split(" +", 2)[1]).as(line).doesNotContain(". ");
        }
        assertThat(list).anyMatch(l -> l.startsWith("  cpu ")).anyMatch(l -> l.startsWith("  container "));
    }

    @Test
    void everyHeaderIsOneSentenceAndEveryDescriptionWholeParagraphs() {
        for (var e : commands().entrySet()) {
            CommandSpec spec = e.getValue().getCommandSpec();
            String[] header = spec.usageMessage().header();
            assertThat(header).as(e.getKey() + " header").hasSize(1);
            assertThat(header[0]).as(e.getKey()).endsWith(".").doesNotContain(". ");
            assertThat(spec.usageMessage().description()).as(e.getKey()).isNotEmpty();
            // picocli prints each entry as a line: an entry that does not end a sentence was a hard line break
            for (String d : spec.usageMessage().description()) assertThat(d).as(e.getKey() + " description").endsWith(".");
            for (OptionSpec o : spec.options()) {
                for (String d : o.description()) assertThat(d).as(e.getKey() + " " + o.longestName()).endsWith(".");
            }
            for (var p : spec.positionalParameters()) {
                for (String d : p.description()) assertThat(d).as(e.getKey() + " " + p.paramLabel()).endsWith(".");
            }
        }
    }

    @Test
    void helpWrapsAtTheTerminalsWidthAndAt80WithoutOne() {
        for (var e : commands().entrySet()) {
            var usage = e.getValue().getCommandSpec().usageMessage();
            assertThat(usage.autoWidth()).as(e.getKey()).isTrue();
            Result r = run(e.getKey(), "--help");
            assertThat(r.code()).as(e.getKey()).isZero();
            // tests have no terminal: picocli falls back to usageHelpWidth
            assertThat(r.out().lines()).as(e.getKey()).allMatch(l -> l.length() <= Main.HELP_WIDTH);
            assertThat(r.out()).as(e.getKey()).startsWith(usage.header()[0] + "\n");
        }
        assertThat(new CommandLine(new Main()).getCommandSpec().usageMessage().autoWidth()).isTrue();
    }

    /**
     * picocli formats every help text as a format string: a bare % ("5% bandwidth") printed a
     * "[picocli WARN] Could not format" paragraph on stderr above compare's help. Every way to
     * ask for help: the command list, each command's --help and -h, and "help COMMAND".
     */
    @Test
    void helpPrintsNoPicocliWarning() {
        List<String[]> asks = new ArrayList<>();
        asks.add(new String[] {"--help"});
        for (String c : commands().keySet()) {
            asks.add(new String[] {c, "--help"});
            asks.add(new String[] {c, "-h"});
            asks.add(new String[] {"help", c});
        }
        PrintStream was = System.err;
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            for (String[] ask : asks) {
                Result r = run(ask);
                String what = String.join(" ", ask);
                assertThat(r.code()).as(what).isZero();
                assertThat(r.err()).as(what).isEmpty();
                assertThat(stderr.toString(StandardCharsets.UTF_8)).as("stderr after " + what).doesNotContain("picocli WARN").isEmpty();
            }
        } finally {
            System.setErr(was);
        }
    }

    @Test
    void everyCommandPrintsTheVersion() {
        for (String c : commands().keySet()) {
            for (String flag : new String[] {"-V", "--version"}) {
                Result r = run(c, flag);
                assertThat(r.code()).as(c + " " + flag).isZero();
                assertThat(r.out()).as(c + " " + flag).isEqualTo("hostside " + Main.version() + "\n");
            }
        }
        assertThat(run("-V").out()).isEqualTo("hostside " + Main.version() + "\n");
    }

    /** Every option of the tree with one of these names, with the command it belongs to. */
    static List<String[]> optionsNamed(String name) {
        List<String[]> found = new ArrayList<>();
        for (var e : commands().entrySet()) {
            OptionSpec o = e.getValue().getCommandSpec().findOption(name);
            if (o != null) found.add(new String[] {e.getKey(), o.converters().length == 0 ? "none" : o.converters()[0].getClass().getName()});
        }
        return found;
    }

    @Test
    void theSameOptionHasOneDefinitionEverywhere() {
        assertThat(optionsNamed("--workers")).extracting(a -> a[0]).containsExactly("container", "cpu", "vm");
        assertThat(optionsNamed("--workers")).extracting(a -> a[1]).containsOnly(Counts.Workers.class.getName());
        assertThat(optionsNamed("--seconds")).extracting(a -> a[0]).containsExactly("checklist", "cpu");
        assertThat(optionsNamed("--seconds")).extracting(a -> a[1]).containsOnly(Counts.Seconds.class.getName());
        assertThat(optionsNamed("--pid")).extracting(a -> a[1]).containsOnly(Counts.Pid.class.getName());
        // every size in bytes takes ByteSize's syntax
        int sizes = 0;
        for (var e : commands().entrySet()) {
            for (OptionSpec o : e.getValue().getCommandSpec().options()) {
                if (!o.paramLabel().equals("BYTES")) continue;
                sizes++;
                assertThat(o.converters()).as(e.getKey() + " " + o.longestName()).hasSize(1);
                assertThat(o.converters()[0]).as(e.getKey() + " " + o.longestName()).isInstanceOf(ByteSize.class);
            }
        }
        assertThat(sizes).as("vm --size, --anon-size; cpu --dataset-size; io --size; report --size; container --batch-bytes; machine --stream-array").isEqualTo(7);
    }

    @Test
    void workersTakeOneRangeWithOneMessageInEveryCommand() {
        String[][] commands = {{"cpu"}, {"container"}, {"vm", "--explain", "cow"}};
        for (String[] c : commands) {
            for (String bad : new String[] {"0", "65", "-1", "many"}) {
                List<String> args = new ArrayList<>(List.of(c));
                args.addAll(List.of("--workers", bad));
                Result r = run(args.toArray(String[]::new));
                assertThat(r.code()).as(args.toString()).isEqualTo(2);
                assertThat(r.err().strip()).as(args.toString()).doesNotContain("\n")
                        .startsWith("hostside: Invalid value for option '--workers': \"" + bad + "\" is ")
                        .contains(": choose 1 to 64 (try: hostside " + c[0] + " --help)");
                assertThat(r.out()).isEmpty();
            }
        }
        assertThat(new Counts.Workers().convert("1")).isEqualTo(1);
        assertThat(new Counts.Workers().convert("64")).isEqualTo(64);
        assertThat(Counts.MAX_WORKERS).isEqualTo(DataLoaderTarget.MAX_WORKERS)
                .isEqualTo(CowScenarios.MAX_WORKERS);
    }

    @Test
    void sizesTakeDecimalsAndRefuseGarbageInEveryCommand() {
        Result ok = run("vm", "--size", "1.5G", "--explain", "cow", "--all", "--pages", "1", "--workers", "1", "--json");
        assertThat(ok.code()).as(ok.err()).isZero();
        for (String[] args : new String[][] {{"vm", "--size", "1.5.G"}, {"io", "--size", "lots"}, {"cpu", "--dataset-size", "1.5"},
                {"container", "--batch-bytes", "0.0M"}, {"vm", "--anon-size", "-2G"}}) {
            Result r = run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().strip()).as(String.join(" ", args)).startsWith("hostside: Invalid value for option '" + args[1] + "'").doesNotContain("\n");
        }
    }
}
