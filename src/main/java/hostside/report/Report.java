package hostside.report;

import java.util.List;

import hostside.container.ContainerRun;
import hostside.core.Figure;
import hostside.core.Severity;
import hostside.gpu.cuda.FabricReadiness;
import hostside.io.IoRun;
import hostside.machine.MachineIdentity;
import hostside.rack.Platform;
import hostside.rack.RackCheck;

/**
 * The one-page profile of a machine (docs/contract.md, Reports; its layout docs/schema/report.schema.json). Written as results/&lt;host&gt;.json;
 * the Markdown is rendered from that JSON alone.
 */
@com.fasterxml.jackson.annotation.JsonPropertyOrder({"schema", "kind", "machine", "class", "software", "confounders", "title", "questions",
        "headlines", "figures", "findings", "modules"})
@com.fasterxml.jackson.annotation.JsonIgnoreProperties(value = "findings", allowGetters = true) // written, never read back: it follows from the modules
public record Report(String schema, String kind, Machine machine,
                     @com.fasterxml.jackson.annotation.JsonProperty("class") Fleet.HardwareClass hardwareClass, Fleet.Software software,
                     Fleet.Confounders confounders, Title title, List<Answer> questions, List<Headline> headlines,
                     List<Figure> figures, List<Section> modules) {

    /**
     * Which machine this is (docs/contract.md, Reports), never by its raw id.
     *
     * @param name     the report's file name: the short host name, "-" and four hex digits of {@code id}, or --name
     * @param hostname the short host name ("" when the recording does not hold it)
     * @param id       16 hex digits of a SHA-256 of the machine's identity, stable across runs; null when none was found
     * @param idFrom   what was hashed: /etc/machine-id, the DMI product UUID or the boot id; null when nothing
     * @param note     why the id is the one it is or is missing ("" for /etc/machine-id read on the machine)
     */
    public record Machine(String name, String hostname, String id, String idFrom, String note) {
        public static Machine of(String name, String hostname, MachineIdentity identity) {
            boolean none = identity.source() == MachineIdentity.Source.NONE;
            return new Machine(name, hostname, none ? null : identity.id(), none ? null : identity.source().path, identity.note());
        }
    }

    /**
     * The title block.
     *
     * @param cost how long the report took and the most memory it held; null in a report written
     *             before it was kept, or built without being measured
     */
    public record Title(String host, String kernel, String cpu, List<String> gpus, String driver, String date,
                        String hostsideVersion, String source, String virtualization, RunCost cost) {}

    /**
     * One of Module 6's four axes, answered in a line with its evidence.
     *
     * @param status answered (from facts), measured, or not measured (then {@code answer} says why)
     */
    public record Answer(String axis, String question, String status, String answer, String evidence) {}

    /** A figure worth a glance, with its unit and where it came from. */
    public record Headline(String name, String value, String source) {}

    /**
     * One module's section, with the drill's run as it read and measured: {@code data} is written
     * as the drill's own JSON (Module 1: its facts at the top level, docs/schema/machine.schema.json) and read back into the
     * same record ({@link ReportReader}).
     *
     * @param data the run: a MachineRun, VmRun, CpuRun or {@link Storage}; null when the module did not run
     */
    @com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = ReportReader.SectionReader.class)
    public record Section(int module, String title, String command, SectionStatus status, String why,
                          @com.fasterxml.jackson.databind.annotation.JsonSerialize(using = ReportReader.DataWriter.class) Object data) {}

    /** Whether a module's drill ran. */
    public enum SectionStatus {
        RUN("run"), NOT_RUN("not run"), NOT_IN_THIS_VERSION("not in this version");

        private final String word;

        SectionStatus(String word) {
            this.word = word;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        @Override
        public String toString() {
            return word;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static SectionStatus parse(String s) {
            for (SectionStatus v : values()) if (v.word.equals(s)) return v;
            throw new IllegalArgumentException("\"" + s + "\" is none of \"run\", \"not run\" and \"not in this version\"");
        }
    }

    /**
     * What a report says of its machine as a whole, without its pages: who it is, its class, its
     * software and confounders, and its figures. All that compare reads of a report, and all it
     * keeps of one ({@link ReportReader#head}).
     */
    public record Head(Machine machine, @com.fasterxml.jackson.annotation.JsonProperty("class") Fleet.HardwareClass hardwareClass,
                       Fleet.Software software, Fleet.Confounders confounders, List<Figure> figures, List<Concluded> findings) {
        public Head {
            figures = figures == null ? List.of() : java.util.Collections.unmodifiableList(figures); // a null in it is ReportChecks' to name
            findings = findings == null ? null : findings.stream().filter(java.util.Objects::nonNull).toList(); // a null in a hand-edited list concludes nothing
        }

        /** A head as a report written before its findings were recorded: compare says it cannot compare them. */
        public Head(Machine machine, Fleet.HardwareClass hardwareClass, Fleet.Software software, Fleet.Confounders confounders,
                    List<Figure> figures) {
            this(machine, hardwareClass, software, confounders, figures, null);
        }
    }

    public Head head() {
        return head(findings());
    }

    private Head head(List<Concluded> findings) {
        return new Head(machine, hardwareClass, software, confounders, figures, findings);
    }

    /**
     * One conclusion of the report: which module drew it, by which rule ("" for a finding of a
     * report written before its rule had an ID), how bad, about what, and its fix.
     */
    public record Concluded(int module, String id, Severity severity, String subject, String text, String fix) {
        public Concluded {
            if (severity == null) throw new IllegalArgumentException("a finding needs its severity");
            id = id == null ? "" : id;
            subject = subject == null ? "" : subject;
            text = text == null ? "" : text;
            fix = fix == null ? "" : fix;
        }
    }

    /**
     * Every finding of every module ({@link Conclusions}), written into the report so that a reader
     * of its head alone (compare, over a fleet) sees what its pages conclude; computed from the
     * modules, never read back, so that it cannot disagree with them.
     */
    @com.fasterxml.jackson.annotation.JsonProperty("findings")
    public List<Concluded> findings() {
        List<Concluded> out = Conclusions.of(modules);
        // the copies against the class's reference: Module 1's, drawn from the head (its figures and class, not its findings)
        Conclusions.classFloor(head(List.of())).ifPresent(c -> {
            int after = 0;
            while (after < out.size() && out.get(after).module() <= 1) after++;
            out.add(after, c);
        });
        return out;
    }

    /** The data of the module whose run is a {@code type}; null when no module ran one. */
    public <T> T module(Class<T> type) {
        for (Section s : modules) if (type.isInstance(s.data())) return type.cast(s.data());
        return null;
    }

    /** Module 4's two drills: storage and network, and the container's limits (in the JSON: the io drill's document with "container" inside). */
    public record Storage(IoRun io, ContainerRun container) {}

    /**
     * Module 5: the platform, the rack checklist and the fabric readiness test per GPU (the copies
     * it judges are module 1's).
     */
    public record Rack(Platform platform, List<RackCheck> checklist,
                       List<FabricReadiness> fabricReadiness) {
        public static Rack of(hostside.rack.Rack.RackRun r) {
            return new Rack(r.platform(), r.checklist(), r.fabricReadiness());
        }
    }
}
