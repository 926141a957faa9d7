package hostside.report;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import hostside.container.ContainerFacts;
import hostside.container.ContainerRun;
import hostside.core.BadInputException;
import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.cpu.CpuDrill;
import hostside.cpu.dataloader.SpawnDetail;
import hostside.cpu.facts.CpuFacts;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.SchedCosts;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.Copies;
import hostside.gpu.cuda.CudaFacts;
import hostside.harness.Result;
import hostside.health.DeviceLink;
import hostside.health.HealthFacts;
import hostside.io.IoRun;
import hostside.io.facts.IoFacts;
import hostside.machine.Affinity;
import hostside.machine.GpuDrill;
import hostside.machine.Host;
import hostside.machine.Iommu;
import hostside.machine.KernelCmdline;
import hostside.machine.MachineFacts;
import hostside.machine.MachineRun;
import hostside.machine.MemoryDrill;
import hostside.machine.Topology;
import hostside.process.CgroupLayout;
import hostside.rack.Platform;
import hostside.vm.VmGpu;
import hostside.vm.VmRun;
import hostside.vm.facts.VmFacts;
import hostside.vm.measure.FileRead;

/**
 * What a report read from a file must hold before anything draws or compares it (issue 36): a
 * report comes from any machine of a fleet, and a broken or hostile one must be refused in one
 * line that names the file, the field and the value, never reach a renderer as a null or an
 * Infinity. These rules, over the records Jackson built, at any depth:
 * <ul>
 * <li>every field in {@link #REQUIRED} is there and not null: the fields the report's readers (the
 * pages, compare, learn) dereference; every other field may be null, as the drills write null for
 * "not read";</li>
 * <li>no list or map holds a null: hostside writes none, and every reader walks them;</li>
 * <li>every floating-point number is finite: JSON has no NaN or Infinity, but 1e400 reads as
 * Infinity and the strings "NaN" and "Infinity" read as numbers;</li>
 * <li>every typed figure, and every measured result it is derived from, lies within what its unit
 * can measure ({@link Unit#least}, {@link Unit#mayBeZero}, {@link Unit#FINEST}, {@link Unit#MOST}), its median
 * within its min and max, of one sample or more;</li>
 * <li>what a record of a kind holds together: a result that measured has a unit and samples, a
 * GPU section that ran has the driver's facts, an affinity matrix has a row and a column per device.</li>
 * </ul>
 * A report that breaks one is refused whole rather than drawn without the figure: a writer that
 * got one figure wrong cannot be trusted with the others, and a fleet's median quietly missing a
 * machine's figure misleads more than a line that names the machine's file.
 */
final class ReportChecks {
    private ReportChecks() {}

    /**
     * The fields that must be there, by record: found by deleting and nulling every field of a
     * real report and drawing it (ReportFieldsTest), so that a report that draws today is never
     * refused. A field added to a record is optional until a reader needs it, and the test says
     * which reader then.
     */
    static final Map<Class<? extends Record>, Set<String>> REQUIRED = Map.ofEntries(
            need(Report.class, "title", "questions", "headlines", "modules"), // figures: derived where a first-schema report has none
            need(Report.Title.class, "host", "gpus"),
            need(Report.Answer.class, "answer"),
            need(Report.Headline.class, "name", "value", "source"),
            need(Report.Rack.class, "platform", "checklist", "fabricReadiness"),
            need(Fleet.HardwareClass.class, "hostLink", "fabric", "nics"),
            need(Figure.class, "key", "scope", "unit"),
            need(Finding.class, "severity", "text"),
            need(Sweep.Point.class, "value"),
            need(MachineFacts.class, "host", "topology", "pci", "iommu", "kernelCmdline", "findings", "unknowns"),
            need(Host.class, "name", "kernel", "architecture", "virtualization"),
            need(Topology.class, "cpuModel", "whole", "numaNodes", "caches", "coreKinds"),
            need(Topology.Whole.class, "onlineCpus", "allowedCpus"),
            need(Topology.NumaNode.class, "cpus", "distances"),
            need(Topology.Cache.class, "type", "cpus"),
            need(Iommu.class, "state", "cmdline"),
            need(KernelCmdline.Item.class, "text"),
            need(Affinity.class, "devices", "matrix", "verdicts"),
            need(GpuDrill.GpuSection.class, "notRun"),
            need(GpuDrill.GpuRun.class, "pciAddress", "results", "verdicts"),
            need(MemoryDrill.MemorySection.class, "notRun", "plan"),
            need(AllGpus.PerGpu.class, "pciAddress", "gbs"),
            need(Copies.BidirectionalDetail.class, "deviceToHostGBs"),
            need(CudaFacts.class, "cudaVersion", "gpus"),
            need(CudaFacts.CudaGpu.class, "attributes", "coherence"),
            need(CudaFacts.Attribute.class, "name"),
            need(Platform.class, "kind"),
            need(VmRun.class, "facts", "host", "verdicts"),
            need(VmFacts.class, "hugetlb", "unknowns"),
            need(VmFacts.Thp.class, "status", "mthp"),
            need(VmGpu.class, "gpus", "results", "measuredOn"),
            need(VmGpu.GpuView.class, "pciAddress", "coherence", "unifiedMemory"),
            need(FileRead.FileDetail.class, "file"),
            need(CpuDrill.Measured.class, "gpu"),
            need(CpuFacts.class, "feeders"),
            need(CpuFacts.Frequency.class, "governors"),
            need(CpuFacts.Irqs.class, "devices"),
            need(CpuFacts.DeviceIrqs.class, "device", "kind", "irqs"),
            need(SchedCosts.PingPong.Detail.class, "cpus"),
            need(SchedCosts.Wakeup.Detail.class, "cpus"),
            need(SchedCosts.Migration.Detail.class, "cpus"),
            need(LaunchJitter.Detail.class, "lateNs"),
            need(SpawnDetail.class, "fork", "forkCpu", "spawn"),
            need(IoRun.class, "results"),
            need(IoRun.FileUsed.class, "path"),
            need(IoFacts.class, "blockDevices", "dataDirs", "nics"),
            need(IoFacts.BlockDevice.class, "name", "kind", "queue", "slaves"),
            need(IoFacts.Queue.class, "schedulers"),
            need(IoFacts.DataDir.class, "realPath", "disks"),
            need(IoFacts.Filesystem.class, "source", "mountPoint", "type", "options"),
            need(IoFacts.Nic.class, "name", "rdmaDevices"),
            need(IoFacts.CuFile.class, "path"),
            need(ContainerRun.class, "facts", "plan", "findings"),
            need(HealthFacts.class, "nvml", "links", "xids"),
            need(DeviceLink.class, "address", "label", "kind"),
            need(ContainerFacts.class, "runtime", "cgroup", "memory", "cpu", "pids", "shm", "devices", "limits", "rootFs",
                    "namespaces", "unknowns"),
            need(ContainerFacts.Detection.class, "evidence"),
            need(CgroupLayout.class, "places"),
            need(CgroupLayout.Place.class, "why"),
            need(ContainerFacts.Cpu.class, "quotaSource"),
            need(ContainerFacts.Pids.class, "max"),
            need(ContainerFacts.Bound.class, "source"),
            need(ContainerFacts.Shm.class, "source"),
            need(ContainerFacts.Namespaces.class, "list", "ownPidWhy"),
            need(ContainerFacts.Ns.class, "name", "relation"));

    /**
     * Bad input naming {@code what} (the file) when {@code record}, read from {@code json}, breaks
     * one of the rules. The JSON says why a field is null where it held a value of another kind
     * that its reader passed over ("value": [1, 2, 3] for a result's samples).
     */
    static void check(Object record, JsonNode json, String what) {
        new Walk(what).visit(record, "", record.getClass(), json);
    }

    /** The typed figures alone: those a first-schema report's results gave after {@link #check}. */
    static void figures(List<Figure> figures, String what) {
        Walk w = new Walk(what);
        for (int i = 0; i < figures.size(); i++) w.figure(figures.get(i), "figures[" + i + "]");
    }

    private static Map.Entry<Class<? extends Record>, Set<String>> need(Class<? extends Record> type, String... fields) {
        Set<String> names = Set.of(fields);
        for (String f : names) {
            if (java.util.Arrays.stream(type.getRecordComponents()).noneMatch(c -> c.getName().equals(f))) {
                throw new IllegalStateException(type.getName() + " has no field " + f); // a renamed field: caught when the class loads
            }
        }
        return Map.entry(type, names);
    }

    /**
     * One walk over one file's records; the path says where, as the JSON names it
     * ("modules[0].data.host.kernel"), and the JSON at that path goes beside it (null where there
     * is none: figures derived, not read).
     */
    private record Walk(String what) {
        /** {@code type}: the declared type of where {@code o} sits, which says whether a list's elements may be null. */
        void visit(Object o, String at, java.lang.reflect.Type type, JsonNode json) {
            switch (o) {
                case null -> {}
                case Double d -> finite(d, at);
                case Float f -> finite(f, at);
                case double[] a -> {
                    for (int i = 0; i < a.length; i++) finite(a[i], at + "[" + i + "]");
                }
                case List<?> l -> {
                    java.lang.reflect.Type e = argument(type, 0);
                    for (int i = 0; i < l.size(); i++) element(l.get(i), at + "[" + i + "]", e, json == null ? null : json.get(i));
                }
                case Map<?, ?> m -> {
                    java.lang.reflect.Type e = argument(type, 1);
                    m.forEach((k, v) -> element(v, at + "[" + Quoted.quoted(String.valueOf(k)) + "]", e, json == null ? null : json.get(String.valueOf(k))));
                }
                case Record r -> record(r, at, json);
                default -> {} // a string, an enum, a scope, a CPU list: whole values, nothing inside to check
            }
        }

        /**
         * A null element is refused where a reader would meet it as an object; a number's null is
         * a value of its own ("not measured": a peer matrix's diagonal and left-out pairs).
         */
        private void element(Object o, String at, java.lang.reflect.Type type, JsonNode json) {
            if (o == null) {
                if (type instanceof Class<?> c && Number.class.isAssignableFrom(c)) return;
                throw bad(at + " is null");
            }
            visit(o, at, type, json);
        }

        /** The {@code i}th type argument of a declared List or Map ({@code Object} where it is not known). */
        private static java.lang.reflect.Type argument(java.lang.reflect.Type type, int i) {
            if (type instanceof java.lang.reflect.ParameterizedType p && p.getActualTypeArguments().length > i) return p.getActualTypeArguments()[i];
            return Object.class;
        }

        /** A record: its required fields first, then what its kind must satisfy, then each field in turn. */
        private void record(Record r, String at, JsonNode json) {
            List<Field> fields = FIELDS.get(r.getClass());
            Object[] values = new Object[fields.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = fields.get(i).of(r);
                if (values[i] == null && fields.get(i).required()) throw absent(fields.get(i), at, json, "");
            }
            switch (r) {
                case Figure f -> figure(f, at);
                case Result res -> result(res, at, json);
                case Stats s -> stats(s, at);
                // the GPU half of Module 1 that ran ("" for why not) read the driver's facts, and its page draws them
                case GpuDrill.GpuSection g when g.notRun().isEmpty() && g.cuda() == null ->
                        throw absent(field(r, "cuda"), at, json, " in a GPU section that ran");
                case Affinity a -> square(a, at);
                default -> {}
            }
            for (int i = 0; i < values.length; i++) {
                Field f = fields.get(i);
                visit(values[i], f.under(at), f.accessor().getGenericReturnType(), f.in(json));
            }
        }

        /**
         * A field its record needs is null: missing or null in the JSON ({@code context} says
         * where it is needed), or, where its reader passed over a value of another kind, that
         * kind: "value: an object expected, a list found".
         */
        private BadInputException absent(Field f, String at, JsonNode json, String context) {
            JsonNode there = f.in(json);
            JsonFaults.Kind found = JsonFaults.kind(there), wanted = JsonFaults.expected(f.accessor().getGenericReturnType());
            if (found == JsonFaults.Kind.NULL || wanted.takes(found)) return bad(f.under(at) + " is missing or null" + context);
            return bad(f.under(at) + ": " + wanted.words + " expected, " + JsonFaults.found(there) + " found");
        }

        private static Field field(Record r, String name) {
            return FIELDS.get(r.getClass()).stream().filter(f -> f.accessor().getName().equals(name)).findFirst().orElseThrow();
        }

        /** matrix[i][j] is the level between devices i and j: one row and one column per device. */
        private void square(Affinity a, String at) {
            int n = a.devices().size();
            if (a.matrix().size() != n) throw bad(at + ".matrix has " + a.matrix().size() + " rows for " + n + " devices");
            for (int i = 0; i < n; i++) {
                List<String> row = a.matrix().get(i);
                if (row != null && row.size() != n) throw bad(at + ".matrix[" + i + "] has " + row.size() + " levels for " + n + " devices");
            }
        }

        /** A result that says it measured has a unit and samples, and they lie within what the unit can measure. */
        private void result(Result r, String at, JsonNode json) {
            if (!r.isOk()) return;
            if (r.unit() == null) throw absent(field(r, "unit"), at, json, " in a result that measured");
            if (r.value() == null) throw absent(field(r, "value"), at, json, " in a result that measured");
            String which = at + " (" + Quoted.quoted(r.key()) + ")";
            Stats v = r.value();
            finite(v.median(), which + ": its median");
            finite(v.min(), which + ": its min");
            finite(v.max(), which + ": its max");
            within(r.unit(), v.median(), which, "median");
            within(r.unit(), v.min(), which, "min");
            within(r.unit(), v.max(), which, "max");
        }

        private void stats(Stats s, String at) {
            // a median of no sample is none: Stats.of refuses it, and each Stats of a detail is drawn as a figure of its samples
            if (s.samples() < 1) throw bad(at + ".samples is " + s.samples() + ", and a median is of one sample or more");
            if (!(s.min() <= s.median() && s.median() <= s.max())) {
                throw bad(at + ": the median " + Quoted.number(s.median()) + " lies outside its min and max, " + Quoted.number(s.min()) + " to " + Quoted.number(s.max()));
            }
        }

        /** One typed figure; its own constructor keeps its median within its min and max and its samples above 0. */
        void figure(Figure f, String at) {
            String which = at + " (" + Quoted.quoted(f.key()) + " about " + Quoted.quoted(f.scope().toString()) + ")";
            finite(f.value(), which + ": its value");
            finite(f.min(), which + ": its min");
            finite(f.max(), which + ": its max");
            within(f.unit(), f.value(), which, "value");
            within(f.unit(), f.min(), which, "min");
            within(f.unit(), f.max(), which, "max");
        }

        private void within(Unit unit, double v, String which, String end) {
            // -0.0 is not below 0 and equals 0 to Java, yet 1 / -0.0 is -Infinity: here it is negative, as its sign says
            boolean negativeZero = v == 0 && Math.copySign(1.0, v) < 0;
            if (v < unit.least() || negativeZero && unit.least() == 0) {
                throw bad(String.format(Locale.ROOT, "%s: its %s is %s %s, and no figure in %s is below %s", which, end, Quoted.number(v), unit, unit, Quoted.number(unit.least())));
            }
            if (negativeZero) { // a growth in percent may be below 0, but no writer negates a 0
                throw bad(String.format(Locale.ROOT, "%s: its %s is -0 %s, a negative zero, which no measurement gives", which, end, unit));
            }
            if (v == 0 && !unit.mayBeZero()) {
                throw bad(String.format(Locale.ROOT, "%s: its %s is 0 %s, and no figure in %s is measured as 0", which, end, unit, unit));
            }
            if (v != 0 && Math.abs(v) < Unit.FINEST) {
                throw bad(String.format(Locale.ROOT, "%s: its %s is %s %s, finer than anything measured (under 1e-9)", which, end, Quoted.number(v), unit));
            }
            if (v > Unit.MOST) {
                throw bad(String.format(Locale.ROOT, "%s: its %s is %s %s, beyond anything one machine measures (over 1e15)", which, end, Quoted.number(v), unit));
            }
        }

        private void finite(double v, String at) {
            if (!Double.isFinite(v)) throw bad(at + " is " + v + ", not a finite number");
        }

        private BadInputException bad(String why) {
            return new BadInputException(what + ": " + why);
        }
    }

    /**
     * A record's field as the walk reads it: its accessor, its name in the JSON (its @JsonProperty
     * where it has one; null for a record written {@link #FLAT}), whether it is required.
     */
    private record Field(Method accessor, String json, boolean required) {
        /** Its path under the record's path {@code at}. */
        String under(String at) {
            return json == null ? at : at.isEmpty() ? json : at + "." + json;
        }

        /** Its JSON in the record's JSON {@code record} (null where there is none). */
        JsonNode in(JsonNode record) {
            return record == null || json == null ? record : record.get(json);
        }

        Object of(Record r) {
            try {
                return accessor.invoke(r);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + accessor, e);
            }
        }
    }

    /** The records written flat into the object that holds them: Module 1's facts are its data's top level, Module 4's io run is its data. */
    private static final Set<String> FLAT = Set.of(MachineRun.class.getName() + ".facts", Report.Storage.class.getName() + ".io");

    /** Each record class's fields, looked up once: a large report holds hundreds of thousands of samples of a few classes. */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            Set<String> required = REQUIRED.getOrDefault(type, Set.of());
            List<Field> out = new java.util.ArrayList<>();
            for (RecordComponent c : type.getRecordComponents()) {
                Method m = c.getAccessor();
                m.setAccessible(true); // a drill's detail record may be package-private; Jackson built it the same way
                JsonProperty p = m.getAnnotation(JsonProperty.class);
                String json = FLAT.contains(type.getName() + "." + c.getName()) ? null : p != null && !p.value().isEmpty() ? p.value() : c.getName();
                out.add(new Field(m, json, required.contains(c.getName())));
            }
            return List.copyOf(out);
        }
    };
}
