package hostside.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Json;
import hostside.core.Printable;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.fs.FsRoot;
import hostside.harness.ProgressSink;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;

/**
 * The load before a standalone drill measures ({@link MachineLoad}): read over the drill's facts,
 * its window opened as the drill begins and closed by the drill before it measures ({@link LoadWindow}),
 * said on the command's stderr as its first measurement starts when the machine is busy, kept typed in
 * its JSON under "load", and said at the top of its document when busy. On a recording, or with
 * nothing to measure, nothing is read and the JSON has no "load".
 */
final class DrillLoad {
    private DrillLoad() {}

    /** Opened as the drill begins; none on a recording, or when the drill measures nothing (--no-measure, an --only of another drill). */
    static LoadWindow opening(FsRoot fs, boolean measures) {
        return measures ? LoadWindow.open(fs, l -> { }) : LoadWindow.NONE;
    }

    /**
     * The drill's progress, saying a busy load on stderr as its first case starts: input the drill
     * checks before it measures (a bad --dir, a disk too small) still fails in one line, with
     * nothing said of a load no figure was taken under. The live line is cleared first.
     */
    static ProgressSink sayingBusy(Progress progress, String drill, LoadWindow window, PrintWriter err) {
        if (window == LoadWindow.NONE) return progress;
        boolean[] said = {false};
        return e -> {
            if (!said[0] && e instanceof ProgressSink.CaseStarted) {
                said[0] = true;
                MachineLoad load = window.close(); // the drill closed it before its first case: the load it read
                if (load != null && load.busy()) {
                    progress.clear();
                    MachineLoad.said(drill, load, warn(err));
                }
            }
            progress.accept(e);
        };
    }

    /** A busy line on the command's stderr, as hostside's other warnings are said. */
    static java.util.function.Consumer<String> warn(PrintWriter err) {
        return line -> {
            err.println("hostside: " + Printable.of(line));
            err.flush();
        };
    }

    /** The drill's JSON with the load beside its run. */
    static ObjectNode json(ObjectNode drill, MachineLoad load) {
        if (load != null) drill.set("load", Json.MAPPER.valueToTree(load));
        return drill;
    }

    /** The drill's document, with a note at its top when the machine was busy as it began. */
    static Document document(Document doc, String drill, MachineLoad load) {
        if (load == null || !load.busy()) return doc;
        List<Block> blocks = new ArrayList<>();
        blocks.add(Block.Note.of("busy: " + load.busyLine(drill) + "."));
        blocks.addAll(doc.blocks());
        return new Document(doc.title(), doc.subtitle(), blocks);
    }
}
