package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZonedDateTime;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Rule;
import hostside.core.Style;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.TextRenderer;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.DrillRun;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.harness.TestCase;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;

/**
 * A drill the report's pages are not written for (a seventh one, registered in hostside.drills.Drills)
 * still reaches the report: a section of its own, headed by its module and title, drawn from its
 * run's document and written as its run's JSON.
 */
class OtherDrillSectionTest {
    record Fans(String what) implements DrillRun {
        @Override
        public ObjectNode json() {
            ObjectNode n = Json.MAPPER.createObjectNode();
            n.put("schema", "hostside/2");
            n.put("kind", "fans");
            n.put("what", what);
            return n;
        }

        @Override
        public List<Figure> figures() {
            return List.of();
        }

        @Override
        public List<Finding> conclusions() {
            return List.of();
        }

        @Override
        public Document document() {
            return new Document("Fans", List.of(Block.Note.of(what)));
        }
    }

    static final Drill<Void, Fans> FANS = new Drill<>() {
        @Override
        public String key() {
            return "fans";
        }

        @Override
        public int module() {
            return 5;
        }

        @Override
        public String title() {
            return "How the fans keep the GPUs cool";
        }

        @Override
        public List<TestCase<?>> cases() {
            return List.of();
        }

        @Override
        public Record facts(FsRoot fs) {
            return new Fans("read");
        }

        @Override
        public Void defaults() {
            return null;
        }

        @Override
        public List<Rule> rules() {
            return List.of();
        }

        @Override
        public Class<Fans> runType() {
            return Fans.class;
        }

        @Override
        public Fans run(DrillContext context, Void options) {
            return new Fans("fan0 at 2400 rpm");
        }
    };

    @Test
    void aDrillThePagesDoNotNameGetsASectionOfItsOwn() {
        FsRoot h200 = FsRoot.open(Fixtures.h200().toString());
        MachineRun machine = MachineDrill.DRILL.run(DrillContext.alone(h200, Selection.none(), ProgressSink.NONE, null), MachineDrill.DRILL.defaults());
        Fans fans = FANS.run(DrillContext.alone(h200, Selection.all(), ProgressSink.NONE, null), null);
        Report r = ReportBuilder.build(new ReportBuilder.Drills(machine, null, null, null, null, null, List.of(new ReportBuilder.Other(FANS, fans))),
                ReportBuilder.Circumstances.unknown(machine), ZonedDateTime.now());

        Report.Section s = r.modules().stream().filter(x -> x.command().equals("hostside fans")).findFirst().orElseThrow();
        assertThat(s.module()).isEqualTo(5);
        assertThat(s.title()).isEqualTo("How the fans keep the GPUs cool");
        assertThat(s.status()).isEqualTo(Report.SectionStatus.RUN);
        assertThat(s.data()).isSameAs(fans);
        assertThat(ReportReader.json(s.data()).path("what").asText()).isEqualTo("fan0 at 2400 rpm");
        assertThat(new TextRenderer(Style.plain(), 200).render(ReportDocument.of(r))).contains("How the fans keep the GPUs cool").contains("fan0 at 2400 rpm");
    }

    @Test
    void thePagesRunsAreNotOthers() {
        assertThat(ReportBuilder.PAGED).contains(MachineRun.class).doesNotContain(Fans.class);
    }
}
