package hostside.report;

import java.util.List;

/**
 * The one-page profile of a machine (CONTRACT.md, Reports). Written as results/&lt;host&gt;.json;
 * the Markdown is rendered from that JSON alone.
 */
public record Report(String schema, String kind, Machine machine, Title title, List<Answer> questions, List<Headline> headlines,
                     List<Section> modules) {

    /**
     * Which machine this is (CONTRACT.md, Typed figures), never by its raw id.
     *
     * @param name     the report's file name: the short host name, "-" and four hex digits of {@code id}, or --name
     * @param hostname the short host name ("" when the recording does not hold it)
     * @param id       16 hex digits of a SHA-256 of the machine's identity, stable across runs; null when none was found
     * @param idFrom   what was hashed: /etc/machine-id, the DMI product UUID or the boot id; null when nothing
     * @param note     why the id is the one it is or is missing ("" for /etc/machine-id read on the machine)
     */
    public record Machine(String name, String hostname, String id, String idFrom, String note) {
        public static Machine of(String name, String hostname, hostside.machine.MachineIdentity identity) {
            boolean none = identity.source() == hostside.machine.MachineIdentity.Source.NONE;
            return new Machine(name, hostname, none ? null : identity.id(), none ? null : identity.source().path, identity.note());
        }
    }

    /** The title block. */
    public record Title(String host, String kernel, String cpu, List<String> gpus, String driver, String date,
                        String hostsideVersion, String source, String virtualization) {}

    /**
     * One of Module 6's four axes, answered in a line with its evidence.
     *
     * @param status answered (from facts), measured, or not measured (then {@code answer} says why)
     */
    public record Answer(String axis, String question, String status, String answer, String evidence) {}

    /** A figure worth a glance, with its unit and where it came from. */
    public record Headline(String name, String value, String source) {}

    /**
     * One module's section. {@code status} is "run", "not run" (with why) or "not in this version".
     * {@code data} holds the drill's own JSON (Module 1: the facts JSON of CONTRACT.md).
     */
    public record Section(int module, String title, String command, String status, String why, Object data) {}
}
