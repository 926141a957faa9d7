package hostside.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Printable;
import hostside.core.Units;
import hostside.fs.FsRoot;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.SelfCheck;
import hostside.learn.Stepper;
import hostside.learn.Steppers;
import hostside.learn.web.LearnServer;
import hostside.learn.web.Site;
import hostside.machine.Host;
import hostside.machine.MachineIdentity;
import hostside.report.Report;
import hostside.report.ReportReader;
import hostside.vm.VmDrill;

@Command(name = "learn", mixinStandardHelpOptions = true,
        header = "The course's steppers with this machine's figures, in the browser.",
        description = {"Serves the six modules' steppers and the final self-check on 127.0.0.1 only, prints the address, and stops on Ctrl-C. "
                + "The figures come from --from REPORT.json, else from this machine's report in results/ when there is one, else typical figures, each step saying which. It measures nothing.",
                "With a STEPPER key it plays that stepper in the terminal instead (--json prints its frames); --list names them."})
public final class LearnCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "STEPPER", description = "Play this stepper in the terminal (see --list) instead of serving the pages.")
    String stepper;

    @Option(names = "--port", paramLabel = "N", description = "Listen on 127.0.0.1:N (default: a free port, printed).")
    int port;

    @Option(names = "--from", paramLabel = "REPORT.json", description = "Take the figures and the self-check's answers from this report (another machine's too).")
    Path from;

    @Option(names = "--no-open", description = "Do not open a browser; only print the address.")
    boolean noOpen;

    @Option(names = "--list", description = "List the steppers by module, and exit.")
    boolean list;

    @Option(names = "--json", description = "With STEPPER: print its frames as JSON on stdout, nothing else there.")
    boolean json;

    @Option(names = "--out", paramLabel = "DIR", description = "Where hostside report writes (results/): the default report of this machine is looked for there.")
    Path results = Path.of("results");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) throw new BadInputException("--port " + port + ": not a port (0 to 65535)");
        PrintWriter out = spec.commandLine().getOut();
        if (list) {
            for (Stepper s : Steppers.all()) out.printf("%-18s Module %d: %s%n", s.key(), s.module(), s.title());
            out.flush();
            return 0;
        }
        Source src = source();
        if (stepper != null) {
            Stepper s = Steppers.get(stepper).orElseThrow(() -> new BadInputException("no stepper \"" + stepper + "\"; hostside learn --list names them"));
            List<Frame> frames = s.frames(src.inputs());
            if (json) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("stepper", s.key());
                doc.put("module", s.module());
                doc.put("title", s.title());
                doc.put("figures", src.inputs().machine());
                doc.put("frames", frames);
                out.print(Json.write(Json.MAPPER.valueToTree(doc)));
                out.flush();
                return 0;
            }
            play(s, frames, src, out);
            return 0;
        }
        if (json) throw new BadInputException("--json prints a stepper's frames: name one (hostside learn --list)");
        Site site = new Site(Steppers.all(), src.inputs(), src.report() == null ? List.of() : SelfCheck.of(src.report()), src.inputs().machine());
        try (LearnServer server = LearnServer.start(site, port)) {
            say(out, "hostside learn: %s (figures: %s); Ctrl-C stops it%n", server.address(), src.inputs().machine());
            out.flush();
            if (!noOpen) open(server.address());
            CountDownLatch stop = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
            stop.await();
        } catch (java.net.BindException e) {
            throw new BadInputException("--port " + port + ": in use on 127.0.0.1 (leave --port out for a free one)");
        }
        return 0;
    }

    /** Where the figures come from: a report (given, or this machine's in results/), else typical figures. */
    record Source(Inputs inputs, Report report) {}

    Source source() {
        Path report = from;
        if (report == null) report = ownReport();
        if (report == null) {
            return new Source(live(), null);
        }
        Report r = ReportReader.read(ReportCommand.readJson(report), report.toString());
        return new Source(Inputs.from(r), r);
    }

    /** results/<this machine's report name>.json when hostside report wrote one here. */
    private Path ownReport() {
        try {
            FsRoot fs = FsRoot.live();
            var machine = Host.read(fs);
            String name = MachineIdentity.read(fs).nameFor(machine.name().isEmpty() ? "localhost" : machine.name());
            Path p = results.resolve(name + ".json");
            return Files.isRegularFile(p) ? p : null;
        } catch (RuntimeException e) {
            return null; // no report to find: typical figures, said on every page
        }
    }

    /** What can be read without measuring: the page size and THP mode, as Module 2 reads them, said to be read here. */
    static Inputs live() {
        Map<String, Inputs.Value> v = new LinkedHashMap<>();
        Map<String, Inputs.Fact> f = new LinkedHashMap<>();
        var vm = VmDrill.DRILL.facts(FsRoot.live());
        if (vm.pageSize() != null && vm.pageSize().bytes() != null && !vm.pageSize().assumed()) {
            long page = vm.pageSize().bytes();
            v.put(Inputs.PAGE_SIZE_BYTES, Inputs.basePage(page));
            f.put("page_size", new Inputs.Fact("page_size", Units.bytes(page), Inputs.Source.READ));
        }
        if (vm.thp() != null && vm.thp().enabled() != null && vm.thp().enabled().selected() != null) {
            f.put("thp", new Inputs.Fact("thp", vm.thp().enabled().selected(), Inputs.Source.READ));
        }
        return Inputs.typical(v, f);
    }

    /** The terminal's player: each frame, its question first, Enter to reveal and go on, q to stop. */
    private void play(Stepper s, List<Frame> frames, Source src, PrintWriter out) {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        boolean interactive = System.console() != null;
        say(out, "%s (Module %d), figures: %s%n", s.title(), s.module(), src.inputs().machine());
        for (Frame f : frames) {
            say(out, "%nStep %d of %d: %s%n", f.number(), frames.size(), f.title());
            if (f.predict() != null) {
                say(out, "  %s%n", f.predict().question());
                for (int i = 0; i < f.predict().choices().size(); i++) say(out, "    %d. %s%n", i + 1, f.predict().choices().get(i));
                if (interactive && !waitFor(out, in, "  [your answer, then Enter to see; q: quit] ")) return;
                say(out, "  Answer: %s. %s%n", f.predict().choices().get(f.predict().answer()), f.predict().why());
            }
            say(out, "  %s%n", f.caption());
            for (Inputs.Value v : f.figures()) say(out, "    %s: %s%n", v.key(), v.shown());
            if (interactive && f.number() < frames.size() && !waitFor(out, in, "[Enter: next step, q: quit] ")) return;
        }
        out.flush();
    }

    /**
     * A line of the terminal's side: the frames' words carry a report's names (its machine, its
     * GPU), which may come from another machine, so each value is made printable; the format's own
     * line breaks are kept.
     */
    private static void say(PrintWriter out, String format, Object... values) {
        Object[] shown = new Object[values.length];
        for (int i = 0; i < values.length; i++) shown[i] = values[i] instanceof String v ? Printable.of(v) : values[i];
        out.printf(java.util.Locale.ROOT, format, shown);
    }

    private static boolean waitFor(PrintWriter out, BufferedReader in, String prompt) {
        out.print(prompt);
        out.flush();
        try {
            String line = in.readLine();
            return line != null && !line.strip().equalsIgnoreCase("q");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** xdg-open where there is a desktop to open it on; the address is printed either way. */
    private static void open(String address) {
        if (System.getenv("DISPLAY") == null && System.getenv("WAYLAND_DISPLAY") == null) return;
        try {
            new ProcessBuilder("xdg-open", address).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (java.io.IOException e) {
            // no xdg-open: the printed address is enough
        }
    }
}
