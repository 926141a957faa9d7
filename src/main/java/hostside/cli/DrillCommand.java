package hostside.cli;

import java.io.PrintWriter;

import picocli.CommandLine.Model.CommandSpec;

import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.DrillRun;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;

/**
 * What every drill's command does once its options are parsed, the same for each: --list, the
 * cases picked (--only, --no-measure), the load read before anything measures, the drill run with
 * its progress on stderr, and its run printed as --json or as its document.
 */
final class DrillCommand {
    private DrillCommand() {}

    /** {@code drill} with {@code options}; {@code measure} null for a drill without measurement options (every case runs). */
    static <O, R extends DrillRun> int run(CommandSpec spec, MachineOptions machine, MeasureOptions measure, Drill<O, R> drill, O options) {
        PrintWriter out = spec.commandLine().getOut();
        if (measure != null && measure.list) {
            MeasureOptions.printList(out, drill);
            return 0;
        }
        Selection cases = measure == null ? Selection.all() : measure.selection(drill.cases());
        FsRoot fs = machine.open(); // unpacking a recording has its own progress line
        LoadWindow window = DrillLoad.opening(fs, drill.measures(DrillContext.alone(fs, cases, ProgressSink.NONE, null)));
        R run;
        try (Progress progress = Progress.forStderr(spec.commandLine().getErr())) {
            ProgressSink sink = DrillLoad.sayingBusy(progress, drill.key(), window, spec.commandLine().getErr());
            run = drill.run(DrillContext.alone(fs, cases, sink, window), options);
        }
        MachineLoad load = window.close(); // closed by the drill before it measured (here only if it stopped before its facts)
        if (machine.json) out.print(Json.write(DrillLoad.json(run.json(), load)));
        else out.print(new TextRenderer(Style.forTerminal()).render(DrillLoad.document(run.document(), drill.key(), load)));
        out.flush();
        return 0;
    }
}
