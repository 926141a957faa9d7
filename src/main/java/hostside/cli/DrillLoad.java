package hostside.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Json;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.fs.FsRoot;
import hostside.process.MachineLoad;

/**
 * The load before a standalone drill measures ({@link MachineLoad}): read before its first
 * measurement, said on the command's stderr at once when the machine is busy, kept typed in its
 * JSON under "load", and said at the top of its document when busy. On a recording nothing is
 * measured, so nothing is read and the JSON has no "load".
 */
final class DrillLoad {
    private DrillLoad() {}

    /** Read before the drill; null on a recording. */
    static MachineLoad before(String drill, FsRoot fs, PrintWriter err) {
        return MachineLoad.before(drill, fs, warn(err));
    }

    /** A busy line on the command's stderr, as hostside's other warnings are said. */
    static java.util.function.Consumer<String> warn(PrintWriter err) {
        return line -> {
            err.println("hostside: " + line);
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
