package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.harness.ProgressSink;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;

/** A standalone drill's load: on stderr when busy, typed in its JSON, at the top of its document when busy. */
class DrillLoadTest {
    static final MachineLoad BUSY = new MachineLoad(201, 2, 1.02, 0.1, 0.0, 35.0, 60.0, 4, 3.1, 0.25, true, null);
    static final MachineLoad QUIET = new MachineLoad(201, 2, 0.02, 0.1, 0.0, 0.5, 0.2, 1, 0.1, 0.25, false, null);
    static final Document DOC = new Document("Virtual memory", "box", List.of(Block.Paragraph.of("the drill's own")));

    @Test
    void aBusyMachineIsSaidOnStderrAtOnce() {
        StringWriter err = new StringWriter();
        MachineLoad.said("vm", BUSY, DrillLoad.warn(new PrintWriter(err)));
        assertThat(err.toString()).isEqualTo("hostside: " + BUSY.busyLine("vm") + System.lineSeparator());
        StringWriter none = new StringWriter();
        MachineLoad.said("vm", QUIET, DrillLoad.warn(new PrintWriter(none)));
        assertThat(none.toString()).isEmpty();
    }

    @Test
    void aBusyLoadIsSaidAsTheFirstCaseStartsAndOnlyThen() {
        StringWriter err = new StringWriter();
        PrintWriter w = new PrintWriter(err);
        try (Progress p = new Progress(Writer.nullWriter(), false, System::nanoTime, 80)) {
            ProgressSink sink = DrillLoad.sayingBusy(p, "vm", LoadWindow.of(BUSY), w);
            sink.step("writing the 64 MiB test file");
            assertThat(err.toString()).as("a bad --dir fails here, in one line of its own").isEmpty();
            sink.accept(new ProgressSink.CaseStarted("file_read_warm", 1, 2));
            sink.accept(new ProgressSink.CaseStarted("anon_first_touch_base", 2, 2));
            assertThat(err.toString()).isEqualTo("hostside: " + BUSY.busyLine("vm") + System.lineSeparator());
            StringWriter quietErr = new StringWriter();
            ProgressSink quiet = DrillLoad.sayingBusy(p, "vm", LoadWindow.of(QUIET), new PrintWriter(quietErr));
            quiet.accept(new ProgressSink.CaseStarted("file_read_warm", 1, 2));
            assertThat(quietErr.toString()).as("quiet: nothing said").isEmpty();
            assertThat(DrillLoad.sayingBusy(p, "vm", LoadWindow.NONE, w)).as("no window: the progress itself").isSameAs(p);
        }
    }

    @Test
    void theJsonKeepsTheLoadTypedBesideTheRun() {
        var j = DrillLoad.json(Json.MAPPER.createObjectNode().put("schema", "hostside/2").put("kind", "vm"), BUSY);
        assertThat(j.path("load").path("othersCpus").asDouble()).isEqualTo(1.02);
        assertThat(j.path("load").path("busy").asBoolean()).isTrue();
        assertThat(j.path("load").path("psiSomeWindow").isNumber()).isTrue();
        assertThat(j.path("kind").asText()).isEqualTo("vm");
        // a recording measures nothing: no load
        assertThat(DrillLoad.json(Json.MAPPER.createObjectNode().put("kind", "vm"), null).has("load")).isFalse();
    }

    @Test
    void theDocumentSaysBusyAtItsTopAndNothingWhenQuiet() {
        Document busy = DrillLoad.document(DOC, "vm", BUSY);
        assertThat(busy.blocks()).hasSize(2);
        assertThat(busy.blocks().getFirst()).isEqualTo(Block.Note.of("busy: " + BUSY.busyLine("vm") + "."));
        assertThat(busy.title()).isEqualTo("Virtual memory");
        assertThat(DrillLoad.document(DOC, "vm", QUIET)).isEqualTo(DOC);
        assertThat(DrillLoad.document(DOC, "vm", null)).isEqualTo(DOC);
    }
}
