package hostside.report;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import hostside.container.ContainerRun;
import hostside.core.BadInputException;
import hostside.core.Figure;
import hostside.core.Json;
import hostside.cpu.CpuRun;
import hostside.drills.Drills;
import hostside.harness.DetailTypes;
import hostside.harness.Drill;
import hostside.harness.DrillRun;
import hostside.io.IoRun;
import hostside.machine.MachineRun;
import hostside.vm.VmRun;

/**
 * A report's JSON read back into the records it was written from ({@code report --from}): each
 * module's data into its drill's run, each result's detail into its case's record. A report of
 * schema hostside/1 is first rewritten into today's shape ({@link Upgrade}); its figures, which it
 * did not write, are derived again from its results.
 */
public final class ReportReader {
    private ReportReader() {}

    static {
        // every drill's cases, so that each result's detail reads back as its own record
        for (Drill<?, ?> d : Drills.all()) DetailTypes.register(d.cases());
    }

    /** The schemas this version reads. */
    static final List<String> SCHEMAS = List.of("hostside/1", "hostside/2");

    /**
     * The report in {@code json}, typed; bad input when it is no hostside report, one of a schema
     * this version does not know, or one that lacks a field its readers need or holds a figure no
     * machine measures ({@link ReportChecks}). Its figures are never null.
     */
    public static Report read(JsonNode given, String what) {
        String schema = schema(given, what);
        JsonNode json;
        try {
            json = Upgrade.report(given);
        } catch (IllegalArgumentException e) { // a hostside/1 value that is no figure (a sweep's point with no median)
            throw new BadInputException(what + ": a " + schema + " report this hostside cannot read (" + JsonFaults.firstLine(e.getMessage()) + ")");
        }
        Report r = bind(json, Report.class, schema, what);
        ReportChecks.check(r, json, what);
        MachineRun machine = r.module(MachineRun.class);
        // hostside reads a cycle out of a recording's PCIe tree, so a report holding one was changed after it was
        // written: refused as any damaged report is, before the pages walk the tree
        if (machine != null && machine.facts() != null) {
            machine.facts().pciTreeFault().ifPresent(f -> {
                throw new BadInputException(what + ": module 1's PCIe tree has " + f + ", which hostside never writes: a damaged or edited report");
            });
        }
        if (r.figures() != null) return r;
        // a first-schema report has no figures list: its results are typed now, so the figures follow from them
        Report.Storage storage = r.module(Report.Storage.class);
        List<Figure> figures;
        try {
            figures = machine == null ? List.of() : Figures.of(machine, r.module(VmRun.class), r.module(CpuRun.class),
                    storage == null ? null : storage.io());
        } catch (IllegalArgumentException e) { // a result whose figure cannot be (a median outside its samples)
            throw new BadInputException(what + ": a " + schema + " report this hostside cannot read (" + e.getMessage() + ")");
        }
        ReportChecks.figures(figures, what);
        return new Report(r.schema(), r.kind(), r.machine(), r.hardwareClass(), r.software(), r.confounders(), r.title(), r.questions(),
                r.headlines(), figures, r.modules());
    }

    /** The schema of the report in {@code json}; bad input when it is none or one this version does not read. */
    static String schema(JsonNode json, String what) {
        if (!"report".equals(json.path("kind").asText())) throw new BadInputException(what + ": not a hostside report");
        String schema = json.path("schema").asText("");
        if (!SCHEMAS.contains(schema)) {
            throw new BadInputException(what + ": a report of schema " + Quoted.quoted(schema) + "; this hostside reads " + String.join(" and ", SCHEMAS));
        }
        return schema;
    }

    /** {@code json} as a {@code type}; bad input, in a line that says where in the report, when it does not read as one. */
    static <T> T bind(JsonNode json, Class<T> type, String schema, String what) {
        try {
            return Json.MAPPER.treeToValue(json, type);
        } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
            throw new BadInputException(what + ": a " + schema + " report this hostside cannot read (" + JsonFaults.binding(e, json) + ")");
        } catch (IOException | IllegalArgumentException e) {
            String m = JsonFaults.own(e.getMessage()) ? JsonFaults.firstLine(e.getMessage()) : "a value it cannot read";
            throw new BadInputException(what + ": a " + schema + " report this hostside cannot read (" + m + ")");
        }
    }

    /**
     * Module n's data as its drill's record; a section of a drill the pages do not name (modules 1 to
     * 5 are the report's own) as the run of the registry's drill its command names ("hostside KEY").
     */
    static Object data(int module, String command, JsonNode data, DeserializationContext ctxt) throws IOException {
        if (data == null || data.isNull() || data.isMissingNode()) return null;
        Optional<Drill<?, ?>> other = command.startsWith("hostside ") ? Drills.find(command.substring("hostside ".length())) : Optional.empty();
        if (other.isPresent() && !ReportBuilder.PAGED.contains(other.get().runType())) return ctxt.readTreeAsValue(data, other.get().runType());
        return switch (module) {
            case 1 -> ctxt.readTreeAsValue(data, MachineRun.class);
            case 2 -> ctxt.readTreeAsValue(data, VmRun.class);
            case 3 -> ctxt.readTreeAsValue(data, CpuRun.class);
            case 4 -> {
                ObjectNode io = data.deepCopy();
                JsonNode container = io.remove("container");
                yield new Report.Storage(ctxt.readTreeAsValue(io, IoRun.class), container == null || container.isNull() ? null
                        : Json.at(data, "container", () -> ctxt.readTreeAsValue(container, ContainerRun.class)));
            }
            case 5 -> ctxt.readTreeAsValue(data, Report.Rack.class);
            default -> null;
        };
    }

    /** A module's data as the drill's own JSON document. */
    static JsonNode json(Object data) {
        return switch (data) {
            case null -> null;
            case MachineRun m -> m.json();
            case Report.Storage s -> {
                ObjectNode n = s.io().json();
                if (s.container() != null) n.set("container", s.container().json());
                yield n;
            }
            case Report.Rack r -> Json.MAPPER.valueToTree(r);
            case DrillRun r -> r.json(); // Modules 2 and 3, and any drill the pages do not name
            case JsonNode n -> n;
            default -> throw new IllegalArgumentException("no module holds a " + data.getClass().getSimpleName());
        };
    }

    static final class DataWriter extends StdSerializer<Object> {
        DataWriter() {
            super(Object.class);
        }

        @Override
        public void serialize(Object value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            JsonNode n = json(value);
            if (n == null) gen.writeNull();
            else gen.writeTree(n);
        }
    }

    static final class SectionReader extends StdDeserializer<Report.Section> {
        SectionReader() {
            super(Report.Section.class);
        }

        @Override
        public Report.Section deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode n = p.readValueAsTree();
            int module = n.path("module").asInt();
            Object data;
            try {
                data = data(module, n.path("command").asText(""), n.get("data"), ctxt);
            } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
                throw com.fasterxml.jackson.databind.JsonMappingException.wrapWithPath(e, n, "data"); // read apart from the report: its path starts here
            }
            Report.SectionStatus status = Json.at(n, "status", () -> Report.SectionStatus.parse(n.path("status").asText("not run")));
            return new Report.Section(module, n.path("title").asText(""), n.path("command").asText(""), status, n.path("why").asText(""), data);
        }
    }
}
