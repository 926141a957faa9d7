package hostside.schema;

import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.checklist.Checklist;
import hostside.container.ContainerRun;
import hostside.core.CpuSet;
import hostside.core.Json;
import hostside.core.Rule;
import hostside.core.Schema;
import hostside.core.Scope;
import hostside.cpu.CpuDrill;
import hostside.cpu.CpuRun;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.gpu.peer.PeerCopies;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.health.HealthRun;
import hostside.io.IoDrill;
import hostside.io.IoRun;
import hostside.machine.GpuDrill;
import hostside.machine.MachineFacts;
import hostside.machine.MachineRun;
import hostside.machine.MemoryDrill;
import hostside.process.MachineLoad;
import hostside.rack.Rack;
import hostside.report.ReadersNeed;
import hostside.report.Report;
import hostside.report.compare.Comparison;
import hostside.vm.VmDrill;
import hostside.vm.VmRun;

import static hostside.schema.RecordSchemas.NODES;
import static hostside.schema.RecordSchemas.nullable;
import static hostside.schema.RecordSchemas.type;

/**
 * The documents hostside writes with --json, one schema file each in docs/schema, and the shapes
 * in them that the code assembles by hand rather than writes as a record: a drill's document
 * ({@code Json.document}: schema, kind, the run, figures; the command line's "load" beside it),
 * Module 1's (its facts at the top level, the GPU drill beside them), the rack and compare
 * documents (put together in their commands), a result's detail (its record by the case's key)
 * and a report section's data (its drill's document by the module's number). Each shape takes its
 * types from the code (the record components, the accessors the command calls), so only the keys
 * that the command line writes by name are said twice; validating a fresh document of each
 * against its schema (SchemaTest) keeps those honest.
 */
final class Documents {
    private Documents() {}

    static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    /**
     * One document: the file it is described in, the command that writes it, its kind (null for
     * Module 1's, which has none) and its root's schema.
     */
    record Doc(String file, String command, String kind, Function<RecordSchemas, ObjectNode> root) {}

    static final List<Doc> ALL = List.of(
            new Doc("machine", "hostside machine --json", null, s -> drillRoot(s, MachineRun.class, null)),
            new Doc("vm", "hostside vm --json", "vm", s -> drillRoot(s, VmRun.class, "vm")),
            new Doc("cpu", "hostside cpu --json", "cpu", s -> drillRoot(s, CpuRun.class, "cpu")),
            new Doc("io", "hostside io --json", "io", s -> drillRoot(s, IoRun.class, "io")),
            new Doc("container", "hostside container --json", "container", s -> drillRoot(s, ContainerRun.class, "container")),
            new Doc("checklist", "hostside checklist PID --json", "checklist", s -> drillRoot(s, Checklist.class, "checklist")),
            new Doc("rack", "hostside rack --json", "rack", Documents::rack),
            new Doc("health", "hostside health --json", "health", s -> drillRoot(s, HealthRun.class, "health")),
            new Doc("report", "hostside report --json, results/<host>.json", "report", s -> drillRoot(s, Report.class, "report")),
            new Doc("compare", "hostside compare --json", "compare", Documents::compare),
            new Doc("rules", "hostside rules --json, hostside rules ID --json", null, Documents::rules));

    /** The whole schema file of {@code d}: its root, then every definition it refers to. */
    static ObjectNode schema(Doc d) {
        RecordSchemas s = schemas();
        ObjectNode root = NODES.objectNode();
        root.put("$schema", DIALECT);
        root.put("title", d.command());
        root.put("description", "Generated from hostside's records by hostside.schema.WriteSchemas: do not edit; docs/schema/README.md says how to"
                + " write it anew and what it promises.");
        root.setAll(d.root().apply(s));
        ObjectNode defs = root.putObject("$defs");
        s.defs().forEach(defs::set);
        return root;
    }

    /** The generator with every hand-made shape given. */
    static RecordSchemas schemas() {
        Map<Class<?>, Set<String>> need = new LinkedHashMap<>(ReadersNeed.fields());
        RecordSchemas s = new RecordSchemas(need);
        // written as one string by a @JsonValue, read back by its @JsonCreator
        s.shape(CpuSet.class, x -> type("string").put("pattern", "^([0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*)?$")
                .put("description", "a CPU (or NUMA node) list in the kernel's spelling, \"0-7,16-23\"; \"\" for none"));
        s.shape(Scope.class, x -> type("string").put("pattern", scopePattern())
                .put("description", "what a figure is about: machine, gpu:PCI, node:N, nodes:CPUNODE,MEMNODE, gpunode:PCI,N, pair:PCI,PCI, dir:PATH, cpu:LIST"));
        s.shape(MachineRun.class, Documents::machine);
        for (Class<?> run : List.of(VmRun.class, CpuRun.class, IoRun.class, ContainerRun.class, HealthRun.class)) s.shape(run, x -> drill(x, run));
        s.property(Result.class, "detail", x -> NODES.objectNode()); // by the case's key: refine(Result) below
        s.refine(Result.class, Documents::result);
        s.property(Report.Section.class, "data", x -> NODES.objectNode()); // by the module: refine(Section) below
        s.refine(Report.Section.class, Documents::section);
        return s;
    }

    /** "^(machine|(gpu|node|...):.+)$", from the scope kinds the code has. */
    private static String scopePattern() {
        List<String> prefixes = new ArrayList<>();
        for (Scope.Kind k : Scope.Kind.values()) if (k != Scope.Kind.MACHINE) prefixes.add(k.prefix);
        return "^(machine|(" + String.join("|", prefixes) + "):.+)$";
    }

    /**
     * The root of a document whose run is {@code run}: the run's definition, with the schema
     * name and its kind required there (a reader of the run inside a report passes them over).
     */
    private static ObjectNode drillRoot(RecordSchemas s, Class<?> run, String kind) {
        ObjectNode root = s.ref(run);
        ObjectNode props = root.putObject("properties");
        props.set("schema", NODES.objectNode().put("const", Schema.CURRENT));
        ArrayNode req = root.putArray("required").add("schema");
        if (kind != null) {
            props.set("kind", NODES.objectNode().put("const", kind));
            req.add("kind");
        }
        return root;
    }

    /**
     * A drill's document ({@code Json.document}): the schema and kind, the run's own fields, its
     * figures; beside them what the run's reader passes over because others set it: "load" (the
     * command line: how busy the machine was) and, for the io drill in a report, "container".
     */
    private static ObjectNode drill(RecordSchemas s, Class<?> run) {
        ObjectNode n = s.object(run);
        ObjectNode props = (ObjectNode) n.get("properties");
        List<String> besides = List.of(run.getAnnotation(JsonIgnoreProperties.class).value());
        ObjectNode out = NODES.objectNode();
        out.set("schema", type("string"));
        out.set("kind", type("string"));
        props.properties().forEach(p -> {
            if (!besides.contains(p.getKey())) out.set(p.getKey(), p.getValue());
        });
        for (String beside : besides) {
            switch (beside) {
                case "schema", "kind" -> {}
                case "figures" -> out.set("figures", s.of(returnType(run, "figures")));
                case "load" -> out.set("load", nullable(s.ref(MachineLoad.class)));
                case "container" -> out.set("container", nullable(s.ref(ContainerRun.class)));
                default -> throw new IllegalStateException(run.getName() + " passes over \"" + beside + "\": say what sets it");
            }
        }
        n.set("properties", out);
        return n;
    }

    /**
     * Module 1's document ({@code MachineRun.json}): the facts at the top level, read strictly
     * once the parts beside them are taken out; the GPU drill, the GPU matrix, the memory
     * measurements beside them (null where not run), the figures, and the command line's load.
     */
    private static ObjectNode machine(RecordSchemas s) {
        ObjectNode n = s.object(MachineFacts.class);
        ObjectNode props = (ObjectNode) n.get("properties");
        for (RecordComponent c : MachineRun.class.getRecordComponents()) {
            if (c.getType() == MachineFacts.class) continue;
            props.set(c.getName(), nullable(s.of(c.getGenericType())));
        }
        props.set("figures", s.of(returnType(MachineRun.class, "figures")));
        props.set("load", nullable(s.ref(MachineLoad.class)));
        return n;
    }

    /** {@code hostside rack --json} (RackCommand): the rack run's platform, checklist and readiness, Module 1's GPU drill and its figures. */
    private static ObjectNode rack(RecordSchemas s) {
        ObjectNode props = NODES.objectNode();
        props.set("schema", NODES.objectNode().put("const", Schema.CURRENT));
        props.set("kind", NODES.objectNode().put("const", "rack"));
        for (RecordComponent c : Rack.RackRun.class.getRecordComponents()) {
            if (c.getType() != MachineRun.class) props.set(c.getName(), s.of(c.getGenericType()));
        }
        props.set("gpu", nullable(s.of(component(MachineRun.class, "gpu"))));
        props.set("figures", s.of(returnType(MachineRun.class, "figures")));
        ObjectNode n = exactly(props);
        // the command line's, set only where the rack measured its own copies live
        props.set("load", nullable(s.ref(MachineLoad.class)));
        return n;
    }

    /** {@code hostside compare --json} (CompareCommand): the comparison's parts, by the names the command gives them. */
    private static ObjectNode compare(RecordSchemas s) {
        ObjectNode props = NODES.objectNode();
        props.set("schema", NODES.objectNode().put("const", Schema.CURRENT));
        props.set("kind", NODES.objectNode().put("const", "compare"));
        for (String part : List.of("fleet", "machines", "classes", "outliers", "ranked", "pairs", "belowFloor")) {
            props.set(part, s.of(returnType(Comparison.class, part)));
        }
        return exactly(props);
    }

    /** {@code hostside rules --json}: every rule under "rules"; with an ID, that rule alone. */
    private static ObjectNode rules(RecordSchemas s) {
        ObjectNode all = NODES.objectNode();
        all.putObject("properties").set("rules", s.of(Json.MAPPER.getTypeFactory().constructCollectionType(List.class, Rule.class)));
        ObjectNode list = exactly((ObjectNode) all.get("properties"));
        ObjectNode root = NODES.objectNode();
        root.putArray("anyOf").add(list).add(s.ref(Rule.class));
        return root;
    }

    /** An object of exactly {@code props}, each required: a document no hostside reader reads back, described as it is written. */
    private static ObjectNode exactly(ObjectNode props) {
        ObjectNode n = type("object");
        n.set("properties", props);
        ArrayNode req = n.putArray("required");
        props.fieldNames().forEachRemaining(req::add);
        n.put("additionalProperties", false);
        return n;
    }

    /**
     * A result (read by Result.Reader, which passes over keys it does not know): one that
     * measured (status ok) has its unit and its figure; its detail is the record its case's key
     * is registered with, any object for a key this version does not know (the reader keeps no
     * detail then), and null or {} for none.
     */
    private static void result(RecordSchemas s, ObjectNode n) {
        ArrayNode all = n.putArray("allOf");
        ObjectNode ok = all.addObject();
        ok.putObject("if").putObject("properties").putObject("status").put("const", "ok");
        ((ObjectNode) ok.get("if")).putArray("required").add("status");
        ObjectNode then = ok.putObject("then");
        then.putArray("required").add("unit").add("value");
        then.putObject("properties").set("unit", s.of(component(Result.class, "unit")));
        ((ObjectNode) then.get("properties")).set("value", s.of(component(Result.class, "value")));
        ObjectNode none = type("object").put("maxProperties", 0);
        ((ObjectNode) n.get("properties")).set("detail", anyOf(type("object"), type("null")));
        Map<Class<? extends Detail>, List<String>> byType = new LinkedHashMap<>();
        detailTypes().forEach((key, t) -> byType.computeIfAbsent(t, k -> new ArrayList<>()).add(key));
        byType.forEach((t, keys) -> {
            ObjectNode c = all.addObject();
            ArrayNode en = c.putObject("if").putObject("properties").putObject("key").putArray("enum");
            keys.stream().sorted().forEach(en::add);
            ((ObjectNode) c.get("if")).putArray("required").add("key");
            c.putObject("then").putObject("properties").set("detail", anyOf(s.ref(t), type("null"), none.deepCopy()));
        });
    }

    /**
     * A report's section (read by ReportReader.SectionReader, which passes over keys it does not
     * know): its data is the document of its module's drill, or null where the module did not run.
     */
    private static void section(RecordSchemas s, ObjectNode n) {
        ArrayNode all = n.putArray("allOf");
        Map<Integer, ObjectNode> data = new LinkedHashMap<>();
        data.put(1, s.ref(MachineRun.class));
        data.put(2, s.ref(VmRun.class));
        data.put(3, s.ref(CpuRun.class));
        data.put(4, s.ref(IoRun.class));
        data.put(5, s.ref(Report.Rack.class));
        data.put(6, s.ref(HealthRun.class));
        data.forEach((module, ref) -> {
            ObjectNode c = all.addObject();
            c.putObject("if").putObject("properties").putObject("module").put("const", module);
            ((ObjectNode) c.get("if")).putArray("required").add("module");
            c.putObject("then").putObject("properties").set("data", anyOf(ref, type("null")));
        });
    }

    /**
     * Which detail record each case's results hold, by key: the cases ReportReader registers
     * (SchemaTest checks each against DetailTypes, and that every detail in a fresh document is of
     * a key listed here).
     */
    static Map<String, Class<? extends Detail>> detailTypes() {
        List<TestCase<?>> cases = new ArrayList<>();
        cases.addAll(MemoryDrill.tests());
        cases.addAll(GpuDrill.tests());
        cases.addAll(GpuDrill.allGpuTests());
        cases.addAll(PeerCopies.loopbacks());
        cases.addAll(VmDrill.hostTests());
        cases.addAll(VmDrill.gpuTests());
        cases.addAll(CpuDrill.measurements());
        cases.addAll(DataLoaderTarget.tests());
        cases.addAll(IoDrill.tests());
        Map<String, Class<? extends Detail>> out = new TreeMap<>();
        for (TestCase<?> t : cases) if (t.detailType() != null) out.put(t.key(), t.detailType());
        return out;
    }

    private static ObjectNode anyOf(ObjectNode... schemas) {
        ObjectNode n = NODES.objectNode();
        ArrayNode a = n.putArray("anyOf");
        for (ObjectNode x : schemas) a.add(x);
        return n;
    }

    private static Type component(Class<?> record, String name) {
        for (RecordComponent c : record.getRecordComponents()) if (c.getName().equals(name)) return c.getGenericType();
        throw new IllegalStateException(record.getName() + " has no component " + name);
    }

    private static Type returnType(Class<?> type, String method) {
        try {
            return type.getMethod(method).getGenericReturnType();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type.getName() + " has no " + method + "()", e);
        }
    }
}
